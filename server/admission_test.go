package server

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// stallBody starts a request whose body declares n bytes and sends only
// its first byte, so that its budget stays taken until the returned
// close is called.
func stallBody(t *testing.T, addr, path, token string, n int) (closeConn func()) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n{", path, token, n)
	t.Cleanup(func() { c.Close() })
	return func() { c.Close() }
}

// TestBodyBudgets: bodies are admitted against the tenant's budget of
// bytes read at once (429 past it) and the daemon's (503), at once and
// before they are read; a body larger than a budget is read alone; an
// answer to data request seq is refused while another answer to it is
// being read. The budgets come back when a body ends, even one whose
// client went away.
func TestBodyBudgets(t *testing.T) {
	d := startDaemon(t, func(c *Config) {
		c.BodyBudgetBytes = 2 << 20 // tenants: 1 MiB each
		c.BodyTimeout = 20 * time.Second
	})
	padded := func(n int) string { return `{"code":"return 1","input":"` + strings.Repeat("x", n) + `"}` }
	refused := func(token, path string, body string, status int) {
		t.Helper()
		resp, b := d.call(t, "POST", path, token, body)
		if resp.StatusCode != status || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: status %d (Retry-After %q), want %d: %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), status, b)
		}
		if !d.declared("POST", path, status) {
			t.Errorf("POST %s answered %d, which Routes does not declare", path, status)
		}
		if res := envelope(t, b); res.Error == nil || res.Error.Type != contract.CapacityError || res.Error.Kind != KindBodyBudget {
			t.Fatalf("want CapacityError %s, got %s", KindBodyBudget, b)
		}
	}

	release := stallBody(t, d.Addr(), "/v1/executions", acmeToken, 900<<10)
	waitFor(t, 5*time.Second, "the stalled body's reservation", func() bool { return d.srv.bodies.inUse() > 0 })
	refused(acmeToken, "/v1/executions", padded(200<<10), 429)
	// umbrella's own budget takes 1 MiB of a 1.5 MiB body (it is read
	// alone as far as umbrella goes), but the daemon has only 1.1 MiB.
	refused(umbrellaToken, "/v1/executions", padded(1536<<10), 503)
	if resp, b := d.call(t, "POST", "/v1/executions", umbrellaToken, padded(100<<10)); resp.StatusCode != 200 {
		t.Fatalf("a body within both budgets: %d %s", resp.StatusCode, b)
	}

	// Data answers: an execution waits on data request 1.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.stream(t, ctx, acmeToken, map[string]any{"code": `return await host.request("x", 1)`,
		"limits": map[string]any{"timeout_ms": 15000}})
	id := resp.Header.Get(ExecutionIDHeader)
	for {
		ev, ok := next()
		if !ok {
			t.Fatal("the stream ended before its data request")
		}
		if ev.typ == "data_request" {
			break
		}
	}
	answerPath := "/v1/executions/" + id + "/data/1"
	refused(acmeToken, answerPath, `{"value":"`+strings.Repeat("y", 200<<10)+`"}`, 429)

	// The stalled body's client goes away: its budget comes back.
	release()
	waitFor(t, 5*time.Second, "the budget to come back", func() bool { return d.srv.bodies.inUse() == 0 })
	if resp, b := d.call(t, "POST", "/v1/executions", umbrellaToken, padded(1536<<10)); resp.StatusCode != 200 {
		t.Fatalf("a body over umbrella's budget, read alone: %d %s", resp.StatusCode, b)
	}

	// While one answer to seq 1 is being read, a second is refused
	// unread; the first, once complete, is the answer.
	answer := `{"value":42}`
	c, err := net.Dial("tcp", d.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s", answerPath, acmeToken, len(answer), answer[:3])
	waitFor(t, 5*time.Second, "the first answer's claim", func() bool { return d.srv.bodies.inUse() > 0 })
	if resp, b := d.call(t, "POST", answerPath, acmeToken, `{"value":1}`); resp.StatusCode != 409 {
		t.Fatalf("a second answer while the first is read: %d %s", resp.StatusCode, b)
	}
	c.Write([]byte(answer[3:]))
	var last sseEvent
	for {
		ev, ok := next()
		if !ok {
			break
		}
		last = ev
	}
	if last.ev.Result == nil || string(last.ev.Result.Value) != "42" {
		t.Fatalf("the execution's result %+v, want the first answer's 42", last.ev.Result)
	}
}
