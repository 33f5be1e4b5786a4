package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// These tests start the test binary itself as a real child (go-plugin's
// helperProcess pattern): TestHelperProcess is the child's main.

const helperEnv = "WARDEN_IPC_TEST_CHILD"

// TestHelperProcess is not a test: it is the child's main when the test
// binary is started by helperCmd, and does nothing otherwise.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		return
	}
	Serve(runnerFunc(func(ctx context.Context, req contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result {
		switch req.Code {
		case "crash":
			os.Exit(3)
		case "hang":
			// A stuck child: it ignores its ctx, so that only the
			// caller's ctx can end the execution. (Answering when its
			// ctx ended raced the caller's own deadline: gRPC carries
			// the deadline to the child, whose timer could fire first
			// and get a result back before the caller's ctx ended.)
			select {}
		case "stderr", "stdout":
			// A child writing to its real stderr (fd 2: go-plugin's Serve
			// has replaced os.Stderr) what its input says, repeat times.
			var segments []struct {
				Text   string `json:"text"`
				Repeat int    `json:"repeat"`
			}
			if err := json.Unmarshal(req.Input, &segments); err != nil {
				return contract.Fail(err, req.Limits)
			}
			for _, s := range segments {
				b := []byte(strings.Repeat(s.Text, max(s.Repeat, 1)))
				for len(b) > 0 {
					fd := 2
					if req.Code == "stdout" {
						fd = 1
					}
					n, err := syscall.Write(fd, b)
					if err != nil {
						return contract.Fail(err, req.Limits)
					}
					b = b[n:]
				}
			}
			return contract.Result{OK: true, Value: json.RawMessage(`"written"`), Logs: []contract.LogEntry{}, Limits: req.Limits}
		case "send":
			return sendAsMuchAsAllowed(ctx, req, emit, request)
		case "bigrequest":
			// One data request whose arguments, as many bytes as the
			// input says, are more than the limits allow.
			var n int
			json.Unmarshal(req.Input, &n)
			args := make([]byte, n)
			for i := range args {
				args[i] = '1'
			}
			if _, err := request(ctx, "x", args); err != nil {
				return contract.Fail(err, req.Limits)
			}
		case "badargs", "requests":
			// Data requests the honest engine never sends: arguments that
			// are not JSON, or one more than the limit allows.
			n, args := 1, json.RawMessage(`{"a":`)
			if req.Code == "requests" {
				n, args = int(req.Limits.DataRequests)+1, json.RawMessage(`1`)
			}
			for range n {
				if _, err := request(ctx, "x", args); err != nil {
					return contract.Fail(err, req.Limits)
				}
			}
		}
		emit(contract.Event{Type: contract.EventLog, Log: &contract.LogEntry{Level: "log", Text: "pid"}})
		v, err := request(ctx, "double", req.Input)
		if err != nil {
			return contract.Fail(err, req.Limits)
		}
		return contract.Result{OK: true, Value: v, Logs: []contract.LogEntry{}, Limits: req.Limits}
	}), WireCaps{}, nil)
	os.Exit(0)
}

// helperCmd starts the test binary as a child, with nothing in its
// environment but the variable that makes it one (as the supervisor
// starts children).
func helperCmd(t *testing.T) *exec.Cmd {
	t.Helper()
	return testutil.HelperCmd([]string{helperEnv + "=1"})
}

func startHelper(t *testing.T) *Process {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, ProcessConfig{Cmd: helperCmd(t), StartTimeout: 30 * time.Second})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(p.Kill)
	if p.PID() <= 0 {
		t.Errorf("PID() = %d", p.PID())
	}
	return p
}

func TestProcessRunsOneExecution(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p := startHelper(t)
	ctx := context.Background()
	if _, err := p.Client().Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	var rec recorder
	res, err := p.Client().Execute(ctx, contract.Request{ID: "e1", Code: "ok", Input: json.RawMessage(`21`), Limits: contract.DefaultLimits}, rec.on,
		func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
			if name != "double" || string(args) != "21" {
				return nil, errors.New("unexpected request")
			}
			return json.RawMessage(`42`), nil
		})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if !res.OK || string(res.Value) != "42" {
		t.Errorf("result: %+v", res)
	}
	if n := len(rec.get()); n != 3 { // started, log, data_request
		t.Errorf("got %d events, want 3: %+v", n, rec.get())
	}
	_, err = p.Client().Execute(ctx, contract.Request{ID: "e2"}, nil, nil)
	requireSandboxError(t, err, "already ran an execution")

	p.Kill()
	if !p.Exited() {
		t.Error("the child has not exited after Kill")
	}
}

// TestProcessBrokenDataRequests: a child whose data requests the honest
// engine would never send (arguments that are not JSON, more requests
// than its limit) ends its execution with a SandboxError, and the handler
// never sees the request that broke the rules.
func TestProcessBrokenDataRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	for code, expected := range map[string]string{
		"badargs":  "data request 1 with arguments that are not JSON",
		"requests": "data request 4, over its limit of 3",
	} {
		t.Run(code, func(t *testing.T) {
			p := startHelper(t)
			l := contract.DefaultLimits
			l.DataRequests = 3
			var answered int
			_, err := p.Client().Execute(context.Background(), contract.Request{ID: "x", Code: code, Limits: l}, nil,
				func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
					answered++
					return nil, nil
				})
			requireSandboxError(t, err, expected)
			if code == "badargs" && answered != 0 || code == "requests" && answered != 3 {
				t.Errorf("the handler answered %d requests", answered)
			}
		})
	}
}

func TestProcessCrashIsSandboxError(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p := startHelper(t)
	ctx, cancel := context.WithTimeout(context.Background(), prompt)
	defer cancel()
	_, err := p.Client().Execute(ctx, contract.Request{ID: "x", Code: "crash"}, nil, nil)
	requireSandboxError(t, err, "")
	if ctx.Err() != nil {
		t.Error("Execute waited for the ctx to end instead of noticing the crash")
	}
}

func TestProcessCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p := startHelper(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := p.Client().Execute(ctx, contract.Request{ID: "x", Code: "hang"}, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Execute: got %v, want it to wrap DeadlineExceeded", err)
	}
}

func TestStartWithoutCmd(t *testing.T) {
	if _, err := Start(context.Background(), ProcessConfig{}); err == nil {
		t.Error("Start without a Cmd must fail")
	}
}
