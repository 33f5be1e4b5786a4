package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// waitScript holds its child without burning CPU: it waits for a data
// answer that a test gives, or never gives.
const waitScript = `await host.request("wait"); return "done"`

// hold starts a streaming execution of waitScript for token and returns
// once it waits for its data answer, with its id; the execution is
// aborted when the test ends.
func (d *testDaemon) hold(t *testing.T, token string, hdr ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resp, next := d.stream(t, ctx, token, map[string]any{"code": waitScript, "limits": map[string]any{"timeout_ms": 20000}}, hdr...)
	if resp.StatusCode != 200 {
		t.Fatalf("hold: status %d", resp.StatusCode)
	}
	for {
		e, ok := next()
		if !ok {
			t.Fatal("hold: the stream ended before the data request")
		}
		if e.typ == "data_request" {
			return resp.Header.Get(ExecutionIDHeader)
		}
	}
}

// TestStatusCodes gets every status of docs/daemon.md's table from a
// real daemon, with the error type and kind the table gives.
func TestStatusCodes(t *testing.T) {
	d := startDaemon(t, func(c *Config) {
		c.BodyTimeout = time.Second // room for 18 MiB on a loaded machine
		c.Tenants = append(c.Tenants,
			TenantConfig{Name: "narrow", TokenSHA256: testutil.TokenSHA256("narrow-token"), Concurrency: 1},
			TenantConfig{Name: "slow", TokenSHA256: testutil.TokenSHA256("slow-token"), Rate: 0.001, Burst: 1})
	})
	big := strings.Repeat("x", int(d.srv.maxExecuteBody())+1)
	type want struct {
		status int
		typ    contract.ErrorType
		kind   string
	}
	tests := []struct {
		name   string
		method string
		path   string
		token  string
		body   any
		hdr    []string
		setup  func(t *testing.T)
		want   want
	}{
		{name: "ok", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"return 1"}`, want: want{200, "", ""}},
		{name: "user code error is 200", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"throw new Error('x')"}`, want: want{200, contract.UserCodeError, ""}},
		{name: "timeout is 200", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"for(;;){}","limits":{"timeout_ms":50}}`, want: want{200, contract.TimeoutError, ""}},
		{name: "malformed JSON", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":`, want: want{400, contract.ContractError, KindMalformed}},
		{name: "unknown field", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"return 1","id":"x"}`, want: want{400, contract.ContractError, KindMalformed}},
		{name: "wrong type", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":1}`, want: want{400, contract.ContractError, KindMalformed}},
		{name: "unknown limit", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"return 1","limits":{"cpu":1}}`, want: want{400, contract.ContractError, KindMalformed}},
		{name: "negative limit", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"return 1","limits":{"timeout_ms":-1}}`, want: want{400, contract.ContractError, ""}},
		{name: "trailing data", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"return 1"} {}`, want: want{400, contract.ContractError, KindMalformed}},
		{name: "bad execution id", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"return 1"}`, hdr: []string{ExecutionIDHeader, "a/b"}, want: want{400, contract.ContractError, KindMalformed}},
		{name: "no token", method: "POST", path: "/v1/executions", body: `{"code":"return 1"}`, want: want{401, AuthError, KindUnauthenticated}},
		{name: "wrong token", method: "POST", path: "/v1/executions", token: "nope", body: `{"code":"return 1"}`, want: want{401, AuthError, KindUnauthenticated}},
		{name: "module not allowed", method: "POST", path: "/v1/executions", token: "narrow-token", body: `{"code":"return 1","modules":{"m":"export const a=1"}}`, want: want{403, AuthError, KindForbidden}},
		{name: "unknown route", method: "GET", path: "/v2/nothing", want: want{404, NotFound, ""}},
		{name: "unknown execution", method: "DELETE", path: "/v1/executions/nosuch", token: acmeToken, want: want{404, NotFound, ""}},
		{name: "no pending data request", method: "POST", path: "/v1/executions/nosuch/data/1", token: acmeToken, body: `{"value":1}`, want: want{404, NotFound, ""}},
		{name: "wrong method", method: "GET", path: "/v1/executions", token: acmeToken, want: want{405, NotFound, KindMethod}},
		{name: "execution id in use", method: "POST", path: "/v1/executions", token: acmeToken, body: `{"code":"return 1"}`,
			hdr: []string{ExecutionIDHeader, "taken"}, setup: func(t *testing.T) { d.hold(t, acmeToken, ExecutionIDHeader, "taken") },
			want: want{409, contract.ContractError, KindConflict}},
		{name: "body too large", method: "POST", path: "/v1/executions", token: acmeToken, body: big, want: want{413, contract.ContractError, KindBodyTooLarge}},
		{name: "concurrency quota", method: "POST", path: "/v1/executions", token: "narrow-token", body: `{"code":"return 1"}`,
			setup: func(t *testing.T) { d.hold(t, "narrow-token") }, want: want{429, contract.CapacityError, KindConcurrency}},
		{name: "rate quota", method: "POST", path: "/v1/executions", token: "slow-token", body: `{"code":"return 1"}`,
			setup: func(t *testing.T) {
				if resp, _ := d.call(t, "POST", "/v1/executions", "slow-token", `{"code":"return 1"}`); resp.StatusCode != 200 {
					t.Fatalf("first request of the burst: %d", resp.StatusCode)
				}
			}, want: want{429, contract.CapacityError, KindRate}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				tt.setup(t)
			}
			resp, b := d.call(t, tt.method, tt.path, tt.token, tt.body, tt.hdr...)
			if resp.StatusCode != tt.want.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.want.status, b)
			}
			if !d.declared(tt.method, tt.path, resp.StatusCode) {
				t.Errorf("%s %s answered %d, which Routes does not declare", tt.method, tt.path, resp.StatusCode)
			}
			res := envelope(t, b)
			switch {
			case tt.want.typ == "" && !res.OK:
				t.Fatalf("want ok, got %s", b)
			case tt.want.typ != "" && (res.Error == nil || res.Error.Type != tt.want.typ || (tt.want.kind != "" && res.Error.Kind != tt.want.kind)):
				t.Fatalf("want %s (%s), got %s", tt.want.typ, tt.want.kind, b)
			}
			if resp.StatusCode == 429 && resp.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			if resp.StatusCode == 405 && resp.Header.Get("Allow") != "POST" {
				t.Errorf("405 with Allow %q", resp.Header.Get("Allow"))
			}
		})
	}

	t.Run("body too large without a length", func(t *testing.T) {
		req, _ := http.NewRequest("POST", d.url+"/v1/executions", io.MultiReader(strings.NewReader(big)))
		req.Header.Set("Authorization", "Bearer "+acmeToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 413 || req.ContentLength > 0 {
			t.Fatalf("status %d (content length %d), want 413", resp.StatusCode, req.ContentLength)
		}
	})
	t.Run("body timeout", func(t *testing.T) {
		status := rawRequest(t, d.Addr(), "POST /v1/executions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+acmeToken+
			"\r\nContent-Length: 100\r\n\r\n{\"code\":", 5*time.Second)
		if status != 408 {
			t.Fatalf("a body that stalls: status %d, want 408", status)
		}
	})
	t.Run("draining", func(t *testing.T) {
		d.srv.StartDrain()
		resp, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`)
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("status %d (Retry-After %q), want 503: %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
		}
		if res := envelope(t, b); res.Error == nil || res.Error.Kind != KindDraining {
			t.Fatalf("want CapacityError draining, got %s", b)
		}
		if resp, _ := d.call(t, "GET", "/readyz", "", nil); resp.StatusCode != 503 {
			t.Fatalf("readyz while draining: %d", resp.StatusCode)
		}
	})
}

// TestCapacityIs429: no child in time is a CapacityError, refused with
// 429 and Retry-After like a quota.
func TestCapacityIs429(t *testing.T) {
	d := startDaemon(t, func(c *Config) {
		c.Supervisor.MaxChildren = 2
		c.Supervisor.QueueTimeout = 100 * time.Millisecond
	})
	// Each hold takes a warm child (waiting for the refill, which the
	// short queue timeout would not), then none is left to start.
	for _, tok := range []string{acmeToken, umbrellaToken} {
		waitFor(t, 20*time.Second, "a warm child", func() bool { return d.sup.Stats().Pool.Idle >= 1 })
		d.hold(t, tok)
	}
	resp, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("status %d (Retry-After %q), want 429: %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if res := envelope(t, b); res.Error == nil || res.Error.Type != contract.CapacityError || res.Error.Kind != KindCapacity {
		t.Fatalf("want CapacityError capacity, got %s", b)
	}
}

// declared reports whether Routes declares status for method on path (or
// it is 404 or 405, which a request no route takes gets).
func (d *testDaemon) declared(method, path string, status int) bool {
	if status == 404 || status == 405 {
		return true
	}
	req, _ := http.NewRequest(method, d.url+path, nil)
	_, pattern := d.srv.mux.Handler(req)
	for _, r := range Routes {
		if r.Pattern == pattern {
			return slices.Contains(r.Methods[method], status)
		}
	}
	return false
}

// rawRequest writes raw on a new connection and returns the status of
// the answer (0 when the server closed without one).
func rawRequest(t *testing.T, addr, raw string, within time.Duration) int {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(within))
	if _, err := c.Write([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestSlowHeadersAreCut: a client that never finishes its headers is
// disconnected after header_timeout, costing no child.
func TestSlowHeadersAreCut(t *testing.T) {
	d := startDaemon(t, func(c *Config) { c.HeaderTimeout = 200 * time.Millisecond })
	start := time.Now()
	status := rawRequest(t, d.Addr(), "POST /v1/executions HTTP/1.1\r\nHost: x\r\n", 5*time.Second)
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("the connection stayed open %v", took)
	}
	if status != 0 && status != 408 {
		t.Fatalf("status %d", status)
	}
	if n := d.metric(t, `warden_executions_total{error_type="none",outcome="ok"}`); n > 0 {
		t.Fatalf("an execution ran: %v", n)
	}
}

// TestNetHTTPRefusals: the requests net/http refuses itself, before any
// handler of the daemon runs, get the plain-text statuses that
// docs/daemon.md lists apart from the API's, and nothing else.
func TestNetHTTPRefusals(t *testing.T) {
	d := startDaemon(t, nil)
	raw := map[int]string{
		400: "GARBAGE\r\n\r\n",
		431: "POST /v1/executions HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 80<<10) + "\r\n\r\n",
		501: "POST /v1/executions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		505: "POST /v1/executions HTTP/2.5\r\nHost: x\r\n\r\n",
	}
	for _, want := range NetHTTPRefusals {
		if got := rawRequest(t, d.Addr(), raw[want], 5*time.Second); got != want {
			t.Errorf("%q...: status %d, want %d", raw[want][:20], got, want)
		}
	}
	b, err := os.ReadFile("../docs/daemon.md")
	if err != nil {
		t.Fatal(err)
	}
	var listed []int
	for _, m := range regexp.MustCompile(`(?m)^\| ([0-9]{3}) \(net/http\) \|`).FindAllStringSubmatch(string(b), -1) {
		n, _ := strconv.Atoi(m[1])
		listed = append(listed, n)
	}
	if !slices.Equal(listed, NetHTTPRefusals) {
		t.Errorf("docs/daemon.md lists net/http's refusals %v, want %v", listed, NetHTTPRefusals)
	}
}
