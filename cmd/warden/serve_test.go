package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// serveHelperEnv gates TestHelperProcess: the test binary re-executes
// itself as `warden serve`, so that signals reach a real daemon process.
const serveHelperEnv = "WARDEN_SERVE_TEST_HELPER"

// TestHelperProcess is not a test: it is `warden ARGS...` in a helper
// process.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(serveHelperEnv) != "1" {
		t.Skip("runs only as a helper process")
	}
	os.Exit(doMain(testutil.HelperArgs(), os.Stdin, os.Stdout, os.Stderr))
}

// daemonProc is `warden serve` running as a helper process.
type daemonProc struct {
	cmd  *exec.Cmd
	url  string
	logs *testutil.SyncBuffer
	done chan struct{} // closed when the process is reaped
}

// startServe starts `warden serve ARGS` (on an ephemeral loopback port,
// the tests' cache) in a helper process whose TMPDIR the test removes,
// and waits until /readyz says 200.
func startServe(t *testing.T, wrap []string, extra []*os.File, env []string, args ...string) *daemonProc {
	t.Helper()
	// A short TMPDIR: go-plugin's unix sockets go below it, and a socket
	// path is at most 107 bytes.
	tmp, err := os.MkdirTemp("/tmp", "ws")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(tmp, 0o755)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	args = append([]string{"serve", "--supervisor.cache_dir", cacheDir, "--supervisor.pool_size", "1"}, args...)
	cmd := testutil.HelperCmd(append(os.Environ(), serveHelperEnv+"=1", "TMPDIR="+tmp), args...)
	if wrap != nil {
		cmd = exec.Command(wrap[0], append(append(wrap[1:], cmd.Path), cmd.Args[1:]...)...)
	}
	cmd.Env = append(append(os.Environ(), serveHelperEnv+"=1", "TMPDIR="+tmp), env...)
	cmd.ExtraFiles = extra
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &daemonProc{cmd: cmd, logs: &testutil.SyncBuffer{}, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.logs.Write(append(sc.Bytes(), '\n'))
			var rec struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "listening" {
				addr <- rec.Addr
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
		}
	})
	select {
	case a := <-addr:
		p.url = "http://" + a
	case <-time.After(30 * time.Second):
		t.Fatalf("the daemon did not listen:\n%s", p.logs)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := http.Get(p.url + "/readyz")
		if err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon was not ready within 30s:\n%s", p.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// post runs one execution and returns its status and envelope.
func (p *daemonProc) post(t *testing.T, token, body string) (int, contract.Result) {
	t.Helper()
	req, _ := http.NewRequest("POST", p.url+"/v1/executions", strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res contract.Result
	json.NewDecoder(resp.Body).Decode(&res)
	return resp.StatusCode, res
}

// wait waits for the daemon to exit and returns its exit code.
func (p *daemonProc) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(within):
		t.Fatalf("the daemon did not exit within %v:\n%s", within, p.logs)
	}
	return -1
}

// childrenOf lists the pids whose parent is pid.
func childrenOf(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, n)
		}
	}
	return out
}

// TestServeSignals: SIGHUP reloads a good tokens file (a tenant added)
// and refuses a bad config (the old tenants kept, a log line); SIGTERM
// drains with an execution in flight, which finishes, and the daemon
// exits 0 with its children gone.
func TestServeSignals(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	config := filepath.Join(dir, "config.yaml")
	os.WriteFile(tokens, []byte("acme "+testutil.TokenSHA256("acme-token")+"\n"), 0o600)
	os.WriteFile(config, []byte("drain_timeout: 10s\n"), 0o600)
	p := startServe(t, nil, nil, nil, "--config", config, "--listen", "127.0.0.1:0", "--tokens", tokens)
	if code, res := p.post(t, "acme-token", `{"code":"return 1"}`); code != 200 || !res.OK {
		t.Fatalf("acme: %d %+v", code, res)
	}
	if code, _ := p.post(t, "umbrella-token", `{"code":"return 1"}`); code != 401 {
		t.Fatalf("umbrella before the reload: %d", code)
	}
	os.WriteFile(tokens, []byte("acme "+testutil.TokenSHA256("acme-token")+"\numbrella "+testutil.TokenSHA256("umbrella-token")+"\n"), 0o600)
	p.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, 10*time.Second, "the reload", func() bool {
		code, _ := p.post(t, "umbrella-token", `{"code":"return 1"}`)
		return code == 200
	})
	os.WriteFile(config, []byte("drain_timeout: 10s\nbogus_key: 1\n"), 0o600)
	p.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, 10*time.Second, "the refused reload's log line", func() bool {
		return strings.Contains(p.logs.String(), "reload refused") && strings.Contains(p.logs.String(), "bogus_key")
	})
	if code, _ := p.post(t, "umbrella-token", `{"code":"return 1"}`); code != 200 {
		t.Fatalf("umbrella after the refused reload: %d", code)
	}

	// An execution in flight: it waits for a data answer.
	req, _ := http.NewRequest("POST", p.url+"/v1/executions", strings.NewReader(`{"code":"return await host.request('x')","limits":{"timeout_ms":20000}}`))
	req.Header.Set("Authorization", "Bearer acme-token")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && sc.Text() != "event: data_request" {
	}
	kids := childrenOf(p.cmd.Process.Pid)
	if len(kids) == 0 {
		t.Fatal("the daemon has no child process")
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	waitUntil(t, 5*time.Second, "/readyz 503", func() bool {
		r, err := http.Get(p.url + "/readyz")
		if err != nil {
			return false
		}
		r.Body.Close()
		return r.StatusCode == 503
	})
	areq, _ := http.NewRequest("POST", p.url+"/v1/executions/"+resp.Header.Get("Warden-Execution-Id")+"/data/1", strings.NewReader(`{"value":42}`))
	areq.Header.Set("Authorization", "Bearer acme-token")
	aresp, err := http.DefaultClient.Do(areq)
	if err != nil || aresp.StatusCode != 204 {
		t.Fatalf("the answer while draining: %v %v", err, aresp)
	}
	aresp.Body.Close()
	rest, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(rest), `"ok":true,"value":42`) {
		t.Fatalf("the execution in flight did not finish ok: %s", rest)
	}
	if code := p.wait(t, 20*time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM:\n%s", code, p.logs)
	}
	for _, k := range kids {
		testutil.RequireGone(t, k, 5*time.Second)
	}
}

// TestServeKilledLeavesNoChild: SIGKILL of the daemon, with a child busy
// and others idle, leaves no child process behind; the next supervisor
// removes the dead one's cgroups.
func TestServeKilledLeavesNoChild(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte("acme "+testutil.TokenSHA256("acme-token")+"\n"), 0o600)
	p := startServe(t, nil, nil, nil, "--listen", "127.0.0.1:0", "--tokens", tokens)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", p.url+"/v1/executions", strings.NewReader(`{"code":"for(;;){}","limits":{"timeout_ms":20000}}`))
	req.Header.Set("Authorization", "Bearer acme-token")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	waitUntil(t, 10*time.Second, "a busy and an idle child", func() bool { return len(childrenOf(p.cmd.Process.Pid)) >= 2 })
	kids := childrenOf(p.cmd.Process.Pid)
	groups := cgroupsOf(p.cmd.Process.Pid)
	p.cmd.Process.Kill()
	p.wait(t, 10*time.Second)
	for _, k := range kids {
		testutil.RequireGone(t, k, 5*time.Second)
	}
	if len(groups) == 0 {
		t.Log("the daemon made no cgroup (no cgroup layer here): nothing to clean up")
		return
	}
	// A new supervisor cleans up what the dead one left in the cgroups.
	s, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, PoolSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ccancel()
	s.Close(cctx)
	if left := cgroupsOf(p.cmd.Process.Pid); len(left) > 0 {
		t.Fatalf("the killed daemon's cgroups are left: %v", left)
	}
}

// cgroupsOf lists cgroup directories named for supervisor pid.
func cgroupsOf(pid int) []string {
	var out []string
	name := cgroup.GroupName(pid)
	filepath.WalkDir("/sys/fs/cgroup", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == name {
			out = append(out, path)
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// TestServeSocketActivation: with LISTEN_FDS set, the daemon serves on
// the socket it was passed, as systemd's socket activation does.
func TestServeSocketActivation(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// LISTEN_PID must be the daemon's own pid: the shell sets it to its
	// own and execs the daemon, keeping it.
	p := startServe(t, []string{"sh", "-c", `LISTEN_PID=$$ exec "$0" "$@"`}, []*os.File{f}, []string{"LISTEN_FDS=1"},
		"--listen", "127.0.0.1:1", "--anonymous", "guest")
	if p.url != "http://"+ln.Addr().String() {
		t.Fatalf("the daemon listens on %s, want the passed socket %s", p.url, ln.Addr())
	}
	if code, res := p.post(t, "", `{"code":"return 5"}`); code != 200 || string(res.Value) != "5" {
		t.Fatalf("%d %+v", code, res)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 20*time.Second); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// TestServeConfigFlags: flags override the file, --print-config prints
// the effective config, unknown keys and bad values name the key.
func TestServeConfigFlags(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "c.yaml")
	os.WriteFile(config, []byte("listen: 127.0.0.1:7000\nsupervisor:\n  pool_size: 3\n"), 0o600)
	code, out, errs := runCLI(t, "", "serve", "--config", config, "--listen", "127.0.0.1:7001", "--print-config")
	if code != exitOK || !strings.Contains(out, "listen: 127.0.0.1:7001") || !strings.Contains(out, "pool_size: 3") || !strings.Contains(out, "timeout_ms: 1000") {
		t.Fatalf("print-config: %d\n%s%s", code, out, errs)
	}
	os.WriteFile(config, []byte("supervisor:\n  pool_sise: 3\n"), 0o600)
	if code, _, errs := runCLI(t, "", "serve", "--config", config, "--print-config"); code != exitUsage || !strings.Contains(errs, "pool_sise") {
		t.Fatalf("unknown key: %d %s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "serve", "--drain_timeout", "forever", "--print-config"); code != exitUsage || !strings.Contains(errs, "drain_timeout") {
		t.Fatalf("bad value: %d %s", code, errs)
	}
}
