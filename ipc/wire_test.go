package ipc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// sendAsMuchAsAllowed is the helper child's "send": its input says how
// many log events of what text to emit, then it sends as many data
// requests and as large a result as req's limits let an honest child
// send: the worst case WireBudget must allow.
func sendAsMuchAsAllowed(ctx context.Context, req contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result {
	var in struct {
		Logs int    `json:"logs"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(req.Input, &in); err != nil {
		return contract.Fail(err, req.Limits)
	}
	l := req.Limits
	logs := make([]contract.LogEntry, 0, in.Logs)
	for range in.Logs {
		e := contract.LogEntry{Level: "log", Text: in.Text}
		emit(contract.Event{Type: contract.EventLog, Log: &e})
		logs = append(logs, e)
	}
	// Requests of equal size that fill DataBytes with their answers
	// (null, four bytes each).
	if l.DataRequests > 0 {
		each := int(l.DataBytes/l.DataRequests) - len("x") - len(`""`) - len("null")
		args, _ := json.Marshal(strings.Repeat("a", max(each, 0)))
		for range l.DataRequests {
			if _, err := request(ctx, "x", args); err != nil {
				return contract.Fail(err, l)
			}
		}
	}
	value, _ := json.Marshal(strings.Repeat("v", int(l.OutputBytes)-2))
	return contract.Result{OK: true, Value: value, Logs: logs, Limits: l}
}

// TestWireBudgetFitsTheWorstHonestChild: a child that sends everything
// its limits allow in the most wasteful shape (the most, shortest log
// events; every data request and data byte; the largest value) stays
// within WireBudget.
func TestWireBudgetFitsTheWorstHonestChild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p := startHelper(t)
	l := contract.DefaultLimits
	l.OutputBytes, l.DataRequests, l.DataBytes = 64<<10, 200, 256<<10
	in, _ := json.Marshal(map[string]any{"logs": l.OutputBytes / minLogEntryBytes, "text": ""})
	req := contract.Request{ID: "0123456789abcdef", Code: "send", Input: in, Limits: l}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := p.Client().Execute(ctx, req, nil, func(context.Context, string, json.RawMessage) (json.RawMessage, error) { return nil, nil })
	read := p.Client().wire.read.Load()
	t.Logf("sent %d bytes of a budget of %d", read, wireSlack+WireBudget(req))
	if err != nil || !res.OK {
		t.Fatalf("Execute: %v %+v", err, res.Error)
	}
}

// TestWireBudgetKillsAChildThatSendsTooMuch: a child that streams more
// than its budget is killed, and the execution is a SandboxError that
// says why.
func TestWireBudgetKillsAChildThatSendsTooMuch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, ProcessConfig{Cmd: helperCmd(t), StartTimeout: 30 * time.Second,
		WireBudget: func(contract.Request) int64 { return 1 << 20 }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	// 256 MiB of log events, 64 KiB each.
	in, _ := json.Marshal(map[string]any{"logs": 4096, "text": strings.Repeat("x", 64<<10)})
	start := time.Now()
	_, err = p.Client().Execute(ctx, contract.Request{ID: "x", Code: "send", Input: in, Limits: contract.DefaultLimits}, nil, nil)
	requireSandboxError(t, err, "wire budget")
	t.Logf("killed after %v, %d bytes read: %v", time.Since(start), p.Client().wire.read.Load(), err)
	deadline := time.Now().Add(prompt)
	for !p.Exited() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !p.Exited() {
		t.Error("the child is still alive")
	}
}

func TestCheckPeer(t *testing.T) {
	dir := t.TempDir()
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	uc := c.(*net.UnixConn)
	if err := checkPeer(uc, os.Getpid()); err != nil {
		t.Errorf("the listener is this process's: %v", err)
	}
	if err := checkPeer(uc, os.Getpid()+1); !errors.Is(err, ErrPeerNotChild) {
		t.Errorf("got %v, want ErrPeerNotChild", err)
	}
}

func TestWireAcceptsOnlyTheChildsSocket(t *testing.T) {
	tests := []struct {
		network, addr string
		ok            bool
	}{
		{"unix", "/run/warden/plugin-dir1/plugin123", true},
		{"unix", "/run/warden/plugin-dir1/../plugin-dir1/plugin123", true},
		{"unix", "/run/warden/plugin-dir1/sub/plugin123", false},
		{"unix", "/var/run/docker.sock", false},
		{"unix", "/run/warden/plugin-dir10/plugin123", false},
		{"tcp", "127.0.0.1:22", false},
	}
	for _, tc := range tests {
		w := newWireMeter(nil)
		w.setSocketDir("/run/warden/plugin-dir1/")
		if err := w.setAddr(tc.network, tc.addr); (err == nil) != tc.ok {
			t.Errorf("%s %s: got %v, want ok=%t", tc.network, tc.addr, err, tc.ok)
		}
	}
}

// impostorEnv makes the helper child hand its handshake a socket that
// another process (a grandchild) listens on: the supervisor must refuse
// to talk to it.
const impostorEnv = "WARDEN_IPC_TEST_IMPOSTOR"

// TestHelperImpostor is not a test: it is the helper child's main in the
// impostor roles ("child": start the listener, name its socket; "listener":
// listen in the given directory until stdin closes).
func TestHelperImpostor(t *testing.T) {
	switch os.Getenv(impostorEnv) {
	case "child":
		dir := os.Getenv("PLUGIN_UNIX_SOCKET_DIR")
		sock := filepath.Join(dir, "impostor")
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperImpostor$")
		cmd.Env = []string{impostorEnv + "=listener", "SOCK=" + sock}
		// The listener exits when this pipe closes, that is when this
		// child dies.
		_, _ = cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			os.Exit(2)
		}
		bufio.NewReader(out).ReadString('\n') // "ready"
		fmt.Printf("1|%d|unix|%s|grpc\n", handshake.ProtocolVersion, sock)
		select {}
	case "listener":
		l, err := net.Listen("unix", os.Getenv("SOCK"))
		if err != nil {
			os.Exit(2)
		}
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				defer c.Close()
			}
		}()
		fmt.Println("ready")
		bufio.NewReader(os.Stdin).ReadString('\n') // until the child dies
		os.Exit(0)
	}
}

// TestPeerNotChildIsRefused: a child whose handshake names a socket that
// another process holds (in its own socket directory, so the address
// check passes) gets no connection, and the first call says why.
func TestPeerNotChildIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperImpostor$")
	cmd.Env = []string{impostorEnv + "=child"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, ProcessConfig{Cmd: cmd, StartTimeout: 30 * time.Second})
	if err != nil {
		requireNotChild(t, err)
		return
	}
	t.Cleanup(p.Kill)
	_, err = p.Client().Ping(ctx)
	requireSandboxError(t, err, ErrPeerNotChild.Error())
	t.Log(err)
}

func requireNotChild(t *testing.T, err error) {
	t.Helper()
	if !strings.Contains(err.Error(), ErrPeerNotChild.Error()) {
		t.Fatalf("got %v, want it to say %q", err, ErrPeerNotChild)
	}
}

// TestOneMessageUnderTheCapButOverTheBudget: the message cap from a
// child is the largest message the caps allow (256 MiB at the contract's
// caps), but what one execution's child can make the supervisor hold is
// its budget: a child that sends one 256 MiB data request for a request
// of default limits is killed once it has sent its budget (about 22 MiB),
// and the supervisor allocated about that much, not the message.
func TestOneMessageUnderTheCapButOverTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	wire, err := DeriveWireCaps(contract.DefaultCaps, 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	const message = 256 << 20
	if wire.FromChild < message {
		t.Fatalf("FromChild %d is under the %d-byte message the test sends", wire.FromChild, message)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := Start(ctx, ProcessConfig{Cmd: helperCmd(t), StartTimeout: 30 * time.Second, Wire: wire})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	if _, err := p.Client().Ping(ctx); err != nil {
		t.Fatal(err)
	}
	req := contract.Request{ID: "x", Code: "bigrequest", Input: json.RawMessage(strconv.Itoa(message)), Limits: contract.DefaultLimits}
	budget := wireSlack + WireBudget(req)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = p.Client().Execute(ctx, req, nil, func(context.Context, string, json.RawMessage) (json.RawMessage, error) { return nil, nil })
	runtime.ReadMemStats(&after)
	requireSandboxError(t, err, "wire budget")
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("budget %d MiB; read %d MiB; the supervisor allocated %d MiB", budget>>20, p.Client().wire.read.Load()>>20, allocated>>20)
	if allocated > uint64(2*budget) {
		t.Fatalf("the supervisor allocated %d bytes for a child whose budget is %d", allocated, budget)
	}
}
