package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/client"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestMain: the test binary is also the child the daemon's supervisor
// re-executes; the tests share a compilation cache and run with a TMPDIR
// of their own, which fails the run if a daemon or child they start
// leaves anything in it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

// unitDirective returns the value of the unit file's directive, or "".
func unitDirective(t *testing.T, unit []byte, name string) string {
	t.Helper()
	for _, l := range strings.Split(string(unit), "\n") {
		if v, ok := strings.CutPrefix(l, name+"="); ok {
			return v
		}
	}
	return ""
}

// TestSystemdUnitVerifies runs `systemd-analyze verify` on the units, as
// installed but with ExecStart pointing at an executable that exists
// here (verify checks that it does), and checks the directives the
// daemon depends on are there.
func TestSystemdUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skipf("systemd-analyze is not installed (Debian's systemd package has it; .ci/run installs it): %v", err)
	}
	unit, err := os.ReadFile("systemd/warden.service")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"Type": "notify", "NotifyAccess": "main", "Delegate": "yes", "KillMode": "mixed",
		"ExecReload": "/bin/kill -HUP $MAINPID", "ExecStart": "/usr/local/bin/warden serve --config /etc/warden/config.yaml",
	} {
		if got := unitDirective(t, unit, name); got != want {
			t.Errorf("%s=%q, want %q", name, got, want)
		}
	}
	if unitDirective(t, unit, "WatchdogSec") == "" {
		t.Error("no WatchdogSec")
	}
	for _, absent := range []string{"MemoryDenyWriteExecute", "PrivateUsers", "ProtectControlGroups", "User", "DynamicUser", "SystemCallFilter", "RestrictNamespaces"} {
		if unitDirective(t, unit, absent) != "" {
			t.Errorf("%s= is set: the daemon cannot work under it (see the unit's comments)", absent)
		}
	}

	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	local := strings.ReplaceAll(string(unit), "/usr/local/bin/warden", exe)
	os.WriteFile(filepath.Join(dir, "warden.service"), []byte(local), 0o644)
	sock, err := os.ReadFile("systemd/warden.socket")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "warden.socket"), sock, 0o644)
	cmd := exec.Command(analyze, "verify", filepath.Join(dir, "warden.service"), filepath.Join(dir, "warden.socket"))
	cmd.Env = append(os.Environ(), "SYSTEMD_LOG_LEVEL=warning")
	out, err := cmd.CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestSystemdCapabilities runs the daemon as the unit starts it (its
// ExecStart, the shipped config) under exactly the unit's
// CapabilityBoundingSet and NoNewPrivileges (setpriv), so the set the
// unit grants is known to be enough for the daemon and its children
// (their own uid, namespaces, /proc): it becomes ready, runs a script
// over HTTP, serves on after the unit's reload (SIGHUP) and exits 0 on
// the unit's stop (SIGTERM to the daemon alone, KillMode=mixed). Only the
// listen address, the tokens file, the pool size and the cache
// directory are test-local.
func TestSystemdCapabilities(t *testing.T) {
	testutil.RequireRoot(t, "bound root's capabilities as the unit does (the unit runs the daemon as root)")
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skipf("no setpriv (util-linux) to bound the capabilities: %v", err)
	}
	unit, err := os.ReadFile("systemd/warden.service")
	if err != nil {
		t.Fatal(err)
	}
	set := "-all"
	for _, c := range strings.Fields(unitDirective(t, unit, "CapabilityBoundingSet")) {
		set += ",+" + strings.ToLower(strings.TrimPrefix(c, "CAP_"))
	}
	if unitDirective(t, unit, "NoNewPrivileges") != "yes" || unitDirective(t, unit, "KillMode") != "mixed" ||
		unitDirective(t, unit, "ExecReload") != "/bin/kill -HUP $MAINPID" {
		t.Fatal("the unit's NoNewPrivileges, KillMode or ExecReload are not what this test does")
	}
	bin := testutil.BuildWarden(t, "..", testutil.TempPublicDir(t))
	dir := testutil.TempPublicDir(t)
	config, _ := filepath.Abs("systemd/config.yaml")
	const token = "unit-test-token"
	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte("unit "+testutil.TokenSHA256(token)+"\n"), 0o600)
	addr := testutil.FreeLoopbackAddr(t)

	args := strings.Fields(unitDirective(t, unit, "ExecStart"))
	args[0] = bin
	for i := range args {
		if args[i] == "/etc/warden/config.yaml" {
			args[i] = config
		}
	}
	args = append(args, "--listen", addr, "--tokens", tokens, "--supervisor.pool_size", "1", "--supervisor.cache_dir", filepath.Join(dir, "cache"),
		"--park.dir", filepath.Join(dir, "parked"))
	cmd := exec.Command(setpriv, append([]string{"--no-new-privs", "--bounding-set", set}, args...)...)
	daemon := testutil.StartProcess(t, cmd)
	testutil.WaitReady(t, "http://"+addr+"/readyz", daemon, 60*time.Second)
	c, err := client.New("http://"+addr, client.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	run := func(when string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := c.Execute(ctx, contract.Request{Code: `console.log("hi"); return input * 2`, Input: json.RawMessage(`21`)}, nil)
		if err != nil || !res.OK || string(res.Value) != "42" {
			t.Fatalf("%s, under bounding set %s: %+v, %v", when, set, res, err)
		}
	}
	run("after start")
	cmd.Process.Signal(syscall.SIGHUP)
	run("after reload")
	cmd.Process.Signal(syscall.SIGTERM)
	if exited, err := daemon.WaitExit(45 * time.Second); !exited {
		t.Error("the daemon did not exit within the unit's TimeoutStopSec (45s) of SIGTERM")
	} else if err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
}

// TestPodmanScriptFlow runs podman-run.sh with a stand-in for podman
// (testdata/fake-podman) that starts the image's entrypoint on the host:
// it checks the script's own steps against a real daemon (loading, the
// token, readiness, a script over HTTP whose envelope must equal a local
// run's, the SIGTERM stop; doctor is not run, it would check the host's
// cache), so the VM lane, where podman runs the real image, meets no bug
// of the script's.
func TestPodmanScriptFlow(t *testing.T) {
	testutil.RequireRoot(t, "run the daemon as the image does (root)")
	testutil.RequireCmd(t, "curl")
	bin := testutil.BuildWarden(t, "..", testutil.TempPublicDir(t))
	dir := testutil.TempPublicDir(t)
	cache := filepath.Join(dir, "cache")
	fakebin := filepath.Join(dir, "bin")
	os.MkdirAll(fakebin, 0o755)
	fake, _ := filepath.Abs("testdata/fake-podman")
	if err := os.Symlink(fake, filepath.Join(fakebin, "podman")); err != nil {
		t.Fatal(err)
	}
	// The host binary, with the test's cache for local runs.
	wrapper := filepath.Join(dir, "warden")
	os.WriteFile(wrapper, []byte(fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = run ]; then shift; exec %q run --cache-dir %q \"$@\"; fi\nexec %q \"$@\"\n", bin, cache, bin)), 0o755)
	archive := filepath.Join(dir, "image.tar")
	os.WriteFile(archive, []byte("stand-in"), 0o644)
	state := filepath.Join(dir, "state")
	os.MkdirAll(state, 0o755)
	_, port, _ := net.SplitHostPort(testutil.FreeLoopbackAddr(t))

	cmd := exec.Command("sh", "podman-run.sh", "privileged")
	cmd.Env = append(os.Environ(), "PATH="+fakebin+":"+os.Getenv("PATH"), "IMAGE_ARCHIVE="+archive, "WARDEN="+wrapper, "PORT="+port,
		"FAKE_PODMAN_DIR="+state, "FAKE_WARDEN="+bin, "FAKE_CACHE="+cache)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "the daemon's envelope equals a local run's") || !strings.Contains(string(out), "PASS (privileged)") {
		t.Errorf("podman-run.sh: %v\n%s", err, out)
	}
}
