package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// The test binary is also the child: the daemon's supervisor re-executes
// it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

// tokens of the tests' tenants: acme and umbrella.
const (
	acmeToken     = "acme-secret-token"
	umbrellaToken = "umbrella-secret-token"
)

// testConfig is a daemon on an ephemeral loopback port with two tenants
// that may use any module, one child warm.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.DrainTimeout = 5 * time.Second
	cfg.Supervisor.PoolSize = 1
	cfg.Supervisor.CacheDir = cacheDir
	cfg.Tenants = []TenantConfig{
		{Name: "acme", TokenSHA256: testutil.TokenSHA256(acmeToken), Modules: []string{"*"}},
		{Name: "umbrella", TokenSHA256: testutil.TokenSHA256(umbrellaToken), Modules: []string{"*"}},
	}
	return cfg
}

// testDaemon is a real daemon on loopback: a real listener, the real
// supervisor, real children.
type testDaemon struct {
	*Daemon
	url string
}

// startDaemon starts a daemon on testConfig changed by mod, waits until
// it is ready and shuts it down when the test ends.
func startDaemon(t *testing.T, mod func(*Config)) *testDaemon {
	t.Helper()
	return startDaemonLog(t, mod, testLogger(t))
}

// startDaemonLog is startDaemon logging to log.
func startDaemonLog(t *testing.T, mod func(*Config), log *slog.Logger) *testDaemon {
	t.Helper()
	cfg := testConfig()
	if mod != nil {
		mod(&cfg)
	}
	d, err := Start(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Shutdown(); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.Server().WaitWarm(ctx); err != nil {
		t.Fatalf("the pool did not warm: %v", err)
	}
	return &testDaemon{Daemon: d, url: "http://" + d.Addr()}
}

// testLogger logs errors to stderr (not t.Log: the
// supervisor may log from a goroutine after the test ended).
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
}

// call makes one request with a token ("" for none) and a JSON body.
func (d *testDaemon) call(t *testing.T, method, path, token string, body any, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, d.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// envelope decodes a response body as an envelope.
func envelope(t *testing.T, b []byte) contract.Result {
	t.Helper()
	var r contract.Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("not an envelope: %v\n%s", err, b)
	}
	return r
}

// sseEvent is one server-sent event.
type sseEvent struct {
	id, typ string
	ev      contract.Event
	raw     []byte // the data line as sent
}

// stream starts a streaming execution and returns the response (status
// and headers) and a function reading the next event.
func (d *testDaemon) stream(t *testing.T, ctx context.Context, token string, body any, hdr ...string) (*http.Response, func() (sseEvent, bool)) {
	t.Helper()
	return d.streamTo(t, ctx, "/v1/executions", token, body, hdr...)
}

// streamTo is stream to another route (resume).
func (d *testDaemon) streamTo(t *testing.T, ctx context.Context, path, token string, body any, hdr ...string) (*http.Response, func() (sseEvent, bool)) {
	t.Helper()
	j, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", d.url+path, bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 32<<20)
	next := func() (sseEvent, bool) {
		var e sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e.typ != "" {
					return e, true
				}
			case strings.HasPrefix(line, "id: "):
				e.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				e.typ = line[7:]
			case strings.HasPrefix(line, "data: "):
				e.raw = []byte(line[6:])
				if err := json.Unmarshal([]byte(line[6:]), &e.ev); err != nil {
					t.Errorf("event data is not an event: %v: %s", err, line)
				}
			}
		}
		return e, false
	}
	return resp, next
}

// metric returns the value of one sample of the daemon's /metrics, by
// its text before the value (name and labels), or -1.
func (d *testDaemon) metric(t *testing.T, sample string) float64 {
	t.Helper()
	_, b := d.call(t, "GET", "/metrics", "", nil)
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, sample+" "); ok {
			var v float64
			json.Unmarshal([]byte(rest), &v)
			return v
		}
	}
	return -1
}

// waitFor polls cond every 10ms until it holds or within passes.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
