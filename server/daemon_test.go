package server

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestDrain: on Shutdown /readyz fails first, a new execution is 503, an
// execution in flight still gets its data answer and finishes ok, and
// one that outlives the drain timeout ends with AbortError; then every
// child is gone.
func TestDrain(t *testing.T) {
	d := startDaemon(t, func(c *Config) { c.DrainTimeout = 2 * time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.stream(t, ctx, acmeToken, map[string]any{"code": waitScript, "limits": map[string]any{"timeout_ms": 10000}})
	id := resp.Header.Get(ExecutionIDHeader)
	for e, _ := next(); e.typ != "data_request"; e, _ = next() {
		if e.typ == "" {
			t.Fatal("no data request")
		}
	}
	stopped := make(chan error, 1)
	go func() { stopped <- d.Shutdown() }()
	waitFor(t, 2*time.Second, "/readyz to fail", func() bool {
		r, _ := d.call(t, "GET", "/readyz", "", nil)
		return r.StatusCode == 503
	})
	if r, _ := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`); r.StatusCode != 503 {
		t.Fatalf("a new execution while draining: %d", r.StatusCode)
	}
	if r, b := d.call(t, "POST", "/v1/executions/"+id+"/data/1", acmeToken, `{"value":1}`); r.StatusCode != 204 {
		t.Fatalf("the answer while draining: %d %s", r.StatusCode, b)
	}
	e, _ := next()
	if e.typ != "result" || !e.ev.Result.OK {
		t.Fatalf("the execution in flight: %+v", e)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown did not return")
	}
	testutil.RequireGone(t, e.ev.Result.Stats.ChildPID, 5*time.Second)
	if st := d.sup.Stats().Pool; st.Live != 0 {
		t.Fatalf("children alive after shutdown: %+v", st)
	}
}

// TestDrainTimeoutAborts: an execution still running when the drain
// timeout passes ends with AbortError, which its client still gets.
func TestDrainTimeoutAborts(t *testing.T) {
	d := startDaemon(t, func(c *Config) { c.DrainTimeout = 200 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, next := d.stream(t, ctx, acmeToken, map[string]any{"code": "for(;;){}", "limits": map[string]any{"timeout_ms": 20000}})
	if e, _ := next(); e.typ != "started" {
		t.Fatalf("first event %+v", e)
	}
	start := time.Now()
	if err := d.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("Shutdown took %v", took)
	}
	e, _ := next()
	if e.typ != "result" || e.ev.Result.Error == nil || e.ev.Result.Error.Type != contract.AbortError {
		t.Fatalf("want an AbortError result, got %+v", e)
	}
}

// TestNotify: against a NOTIFY_SOCKET the test listens on, the daemon
// says READY=1 only once the pool is warm, WATCHDOG=1 when WATCHDOG_USEC
// asks for it, and STOPPING=1 when it drains.
func TestNotify(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Skipf("skipping: cannot listen on a unixgram socket: %v", err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "100000")
	t.Setenv("WATCHDOG_PID", strconv.Itoa(os.Getpid()))
	cfg := testConfig()
	d, err := Start(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Shutdown()
	read := func() string {
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		buf := make([]byte, 256)
		n, err := conn.Read(buf)
		if err != nil {
			t.Fatalf("no notification: %v", err)
		}
		return string(buf[:n])
	}
	if got := read(); got != "READY=1" {
		t.Fatalf("first notification %q, want READY=1", got)
	}
	if !d.Server().Warm() || d.sup.Stats().Pool.Idle < cfg.Supervisor.PoolSize {
		t.Fatal("READY=1 before the pool was warm")
	}
	for range 2 {
		if got := read(); got != "WATCHDOG=1" {
			t.Fatalf("notification %q, want WATCHDOG=1", got)
		}
	}
	go d.Shutdown()
	for {
		got := read()
		if got == "STOPPING=1" {
			break
		}
		if got != "WATCHDOG=1" {
			t.Fatalf("notification %q, want STOPPING=1", got)
		}
	}
}
