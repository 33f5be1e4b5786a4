package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// twoRequests logs, asks for data twice and returns.
const twoRequests = `console.log("start");
const a = await host.request("first", {n: 1});
const b = await host.request("second", {n: 2});
console.log("got", a, b);
return a + b`

// TestSSEOrderAndDataAnswers: the events of a script that logs, asks for
// data twice and returns come in order with ids 1, 2, ...; each data
// request is answered over the endpoint; a second answer is 409,
// another tenant's answer is 404, and that tenant never sees the events.
func TestSSEOrderAndDataAnswers(t *testing.T) {
	d := startDaemon(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.stream(t, ctx, acmeToken, map[string]any{"code": twoRequests, "limits": map[string]any{"timeout_ms": 10000}})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	id := resp.Header.Get(ExecutionIDHeader)
	if len(id) != 32 {
		t.Fatalf("execution id %q: want 32 hex digits", id)
	}
	var types []string
	var last contract.Event
	for n := 1; ; n++ {
		e, ok := next()
		if !ok {
			break
		}
		if e.id != strconv.Itoa(n) {
			t.Fatalf("event %d has id %q", n, e.id)
		}
		if e.typ != string(e.ev.Type) || e.ev.ExecutionID != id {
			t.Fatalf("event %d: type %q, data %+v", n, e.typ, e.ev)
		}
		types = append(types, e.typ)
		last = e.ev
		if e.typ != "data_request" {
			continue
		}
		dr := e.ev.DataRequest
		path := fmt.Sprintf("/v1/executions/%s/data/%d", id, dr.Seq)
		// Another tenant cannot answer, nor learn the execution exists.
		if r, b := d.call(t, "POST", path, umbrellaToken, `{"value":1}`); r.StatusCode != 404 {
			t.Fatalf("another tenant's answer: %d %s", r.StatusCode, b)
		}
		if r, b := d.call(t, "POST", path, acmeToken, map[string]any{"value": dr.Seq * 10}); r.StatusCode != 204 {
			t.Fatalf("answer %d: %d %s", dr.Seq, r.StatusCode, b)
		}
		// After the last answer the execution may already have ended
		// (404) by the time the second one arrives.
		if r, b := d.call(t, "POST", path, acmeToken, `{"value":1}`); r.StatusCode != 409 && (dr.Seq == 1 || r.StatusCode != 404) {
			t.Fatalf("second answer to %d: %d %s", dr.Seq, r.StatusCode, b)
		}
	}
	want := []string{"started", "log", "data_request", "data_request", "log", "result"}
	if fmt.Sprint(types) != fmt.Sprint(want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	if last.Result == nil || !last.Result.OK || string(last.Result.Value) != "30" {
		t.Fatalf("result %+v", last.Result)
	}
	if v := d.metric(t, `warden_data_requests_total{result="ok",via="endpoint"}`); v != 2 {
		t.Fatalf("data requests metric %v, want 2", v)
	}
}

// TestDataAnswerError: an {"error"} answer rejects the guest's promise.
func TestDataAnswerError(t *testing.T) {
	d := startDaemon(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.stream(t, ctx, acmeToken, map[string]any{"code": `try { await host.request("x") } catch (e) { return e.message }`})
	id := resp.Header.Get(ExecutionIDHeader)
	for {
		e, ok := next()
		if !ok {
			t.Fatal("no result")
		}
		switch e.typ {
		case "data_request":
			if r, b := d.call(t, "POST", "/v1/executions/"+id+"/data/1", acmeToken, `{"error":"no such thing"}`); r.StatusCode != 204 {
				t.Fatalf("answer: %d %s", r.StatusCode, b)
			}
		case "result":
			if v := string(e.ev.Result.Value); v != `"no such thing"` {
				t.Fatalf("the guest saw %s", v)
			}
			return
		}
	}
}

// TestBadDataAnswers: the answer body is bounded and strict.
func TestBadDataAnswers(t *testing.T) {
	d := startDaemon(t, nil)
	id := d.hold(t, acmeToken)
	path := "/v1/executions/" + id + "/data/1"
	for _, body := range []string{`{`, `{"value":1,"error":"x"}`, `{}`, `{"error":1}`, `{"other":1}`} {
		if r, b := d.call(t, "POST", path, acmeToken, body); r.StatusCode != 400 {
			t.Errorf("answer %s: %d %s", body, r.StatusCode, b)
		}
	}
	if r, _ := d.call(t, "POST", "/v1/executions/"+id+"/data/2", acmeToken, `{"value":1}`); r.StatusCode != 404 {
		t.Errorf("answer to a request not made: %d", r.StatusCode)
	}
}

// TestWebhookAnswers: a tenant with a webhook has its data requests
// answered by it, for a plain JSON request too; the webhook gets the
// execution's id and each request's seq, name and args.
func TestWebhookAnswers(t *testing.T) {
	var calls []webhookCall
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c webhookCall
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		calls = append(calls, c)
		var args struct{ N int }
		json.Unmarshal(c.Args, &args)
		fmt.Fprintf(w, `{"value": %d}`, args.N*100)
	}))
	defer hook.Close()
	d := startDaemon(t, func(c *Config) {
		c.Tenants[0].Webhook = &WebhookConfig{URL: hook.URL + "/data", Timeout: 2 * time.Second}
	})
	resp, b := d.call(t, "POST", "/v1/executions", acmeToken, map[string]any{"code": twoRequests}, ExecutionIDHeader, "hooked-1")
	res := envelope(t, b)
	if resp.StatusCode != 200 || !res.OK || string(res.Value) != "300" {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	if len(calls) != 2 || calls[0].Seq != 1 || calls[1].Seq != 2 || calls[1].Name != "second" || calls[0].ExecutionID != "hooked-1" || calls[0].Tenant != "acme" {
		t.Fatalf("webhook calls %+v", calls)
	}
	if v := d.metric(t, `warden_data_requests_total{result="ok",via="webhook"}`); v != 2 {
		t.Fatalf("data requests metric %v, want 2", v)
	}
}

// TestWebhookBounds: a webhook that redirects to another host, answers
// too much or too late fails the guest's request, not the daemon.
func TestWebhookBounds(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the redirect to another host was followed")
		fmt.Fprint(w, `{"value":"leaked"}`)
	}))
	defer other.Close()
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			// Another port is another host: the redirect is refused.
			http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
		case "/huge":
			w.Write([]byte(`{"value":"`))
			for range 4096 {
				w.Write(make([]byte, 1024))
			}
		case "/slow":
			io.Copy(io.Discard, r.Body) // so that the server notices the client going
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}
	}))
	defer hook.Close()
	for _, path := range []string{"/redirect", "/huge", "/slow"} {
		t.Run(path, func(t *testing.T) {
			d := startDaemon(t, func(c *Config) {
				c.Tenants[0].Webhook = &WebhookConfig{URL: hook.URL + path, Timeout: 300 * time.Millisecond}
			})
			code := `try { await host.request("x"); return "answered" } catch (e) { return "refused" }`
			_, b := d.call(t, "POST", "/v1/executions", acmeToken, map[string]any{"code": code, "limits": map[string]any{"data_bytes": 1 << 20}})
			if res := envelope(t, b); !res.OK || string(res.Value) != `"refused"` {
				t.Fatalf("%s", b)
			}
		})
	}
}

// TestUnansweredDataRequestTimesOut: a data request nobody answers ends
// at the execution's deadline with TimeoutError, and the child is gone.
func TestUnansweredDataRequestTimesOut(t *testing.T) {
	d := startDaemon(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, next := d.stream(t, ctx, acmeToken, map[string]any{"code": waitScript, "limits": map[string]any{"timeout_ms": 300}})
	for {
		e, ok := next()
		if !ok {
			t.Fatal("no result")
		}
		if e.typ != "result" {
			continue
		}
		res := e.ev.Result
		if res.Error == nil || res.Error.Type != contract.TimeoutError {
			t.Fatalf("want TimeoutError, got %+v", res)
		}
		if res.Stats.ChildPID == 0 {
			t.Fatal("no child pid in the envelope")
		}
		testutil.RequireGone(t, res.Stats.ChildPID, 5*time.Second)
		return
	}
}

// TestClientDisconnectAborts: a streaming client that goes away aborts
// its execution (AbortError), which frees its child.
func TestClientDisconnectAborts(t *testing.T) {
	d := startDaemon(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	_, next := d.stream(t, ctx, acmeToken, map[string]any{"code": "for(;;){}", "limits": map[string]any{"timeout_ms": 20000}})
	if e, ok := next(); !ok || e.typ != "started" {
		t.Fatalf("first event %+v", e)
	}
	cancel()
	waitFor(t, 5*time.Second, "the execution to be aborted", func() bool {
		return d.metric(t, `warden_executions_total{error_type="AbortError",outcome="error"}`) == 1
	})
	waitFor(t, 5*time.Second, "no busy child", func() bool { return d.sup.Stats().Pool.Busy == 0 })
}

// TestDeleteAborts: DELETE ends the execution with AbortError, whose
// envelope still reaches the streaming client; another tenant's DELETE
// is 404 and changes nothing.
func TestDeleteAborts(t *testing.T) {
	d := startDaemon(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.stream(t, ctx, acmeToken, map[string]any{"code": "for(;;){}", "limits": map[string]any{"timeout_ms": 20000}}, ExecutionIDHeader, "mine")
	if id := resp.Header.Get(ExecutionIDHeader); id != "mine" {
		t.Fatalf("execution id %q, want the one chosen", id)
	}
	if e, ok := next(); !ok || e.typ != "started" {
		t.Fatalf("first event %+v", e)
	}
	if r, _ := d.call(t, "DELETE", "/v1/executions/mine", umbrellaToken, nil); r.StatusCode != 404 {
		t.Fatalf("another tenant's DELETE: %d", r.StatusCode)
	}
	if r, _ := d.call(t, "DELETE", "/v1/executions/mine", "", nil); r.StatusCode != 401 {
		t.Fatalf("DELETE without a token: %d", r.StatusCode)
	}
	if r, b := d.call(t, "DELETE", "/v1/executions/mine", acmeToken, nil); r.StatusCode != 204 {
		t.Fatalf("DELETE: %d %s", r.StatusCode, b)
	}
	for {
		e, ok := next()
		if !ok {
			t.Fatal("no result")
		}
		if e.typ == "result" {
			if e.ev.Result.Error == nil || e.ev.Result.Error.Type != contract.AbortError {
				t.Fatalf("want AbortError, got %+v", e.ev.Result)
			}
			break
		}
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
}

// TestJSONClientDisconnectAborts: a plain JSON client that goes away
// aborts its execution too.
func TestJSONClientDisconnectAborts(t *testing.T) {
	d := startDaemon(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", d.url+"/v1/executions",
		strings.NewReader(`{"code":"for(;;){}","limits":{"timeout_ms":20000}}`))
	req.Header.Set("Authorization", "Bearer "+acmeToken)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitFor(t, 10*time.Second, "a busy child", func() bool { return d.sup.Stats().Pool.Busy == 1 })
	cancel()
	<-done
	waitFor(t, 5*time.Second, "the execution to be aborted", func() bool {
		return d.metric(t, `warden_executions_total{error_type="AbortError",outcome="error"}`) == 1
	})
}

// TestSlowReaderKeepsTheOutcome: a client that stops reading for 4 s
// (under the write timeout) while the script logs 8 MiB does not change
// the execution's outcome: the daemon takes the events from the child at
// the child's pace into the execution's bounded buffer, and the client
// gets every one of them, then the ok result. (Before, back-pressure
// from the client ate the guest's deadline: TimeoutError, the child
// killed, 6,448 of 16,000 log events.)
func TestSlowReaderKeepsTheOutcome(t *testing.T) {
	d := startDaemon(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const lines = 16000
	code := fmt.Sprintf(`const line = "x".repeat(500); for (let i = 0; i < %d; i++) console.log(i, line); return "done"`, lines)
	_, next := d.stream(t, ctx, acmeToken, map[string]any{"code": code,
		"limits": map[string]any{"timeout_ms": 3000, "output_bytes": 16 << 20}})
	time.Sleep(4 * time.Second)
	logs := 0
	var last sseEvent
	for {
		ev, ok := next()
		if !ok {
			break
		}
		if ev.typ == "log" {
			logs++
		}
		last = ev
	}
	if last.typ != "result" || last.ev.Result == nil || !last.ev.Result.OK || string(last.ev.Result.Value) != `"done"` {
		var e *contract.Error
		if last.ev.Result != nil {
			e = last.ev.Result.Error
		}
		t.Fatalf("last event %s (error %v) after %d log events, want the ok result", last.typ, e, logs)
	}
	if logs != lines {
		t.Fatalf("%d log events, want %d", logs, lines)
	}
}

// TestTooSlowClientLosesTheConnectionNotTheResult: a client that stops
// reading for longer than the write timeout loses its connection; the
// execution runs to its end (ok), and its result, which could not be
// delivered, is counted and logged with its id.
func TestTooSlowClientLosesTheConnectionNotTheResult(t *testing.T) {
	var logs testutil.SyncBuffer
	d := startDaemonLog(t, func(c *Config) { c.WriteTimeout = 300 * time.Millisecond },
		slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	c, err := net.Dial("tcp", d.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(256 << 10) // the socket buffers must fill: the events are 8 MiB
	body := `{"code":"const line = 'x'.repeat(500); for (let i = 0; i < 16000; i++) console.log(i, line); return 'done'","limits":{"timeout_ms":5000,"output_bytes":16777216}}`
	fmt.Fprintf(c, "POST /v1/executions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nAccept: text/event-stream\r\nWarden-Execution-Id: slowpoke\r\nContent-Length: %d\r\n\r\n%s", acmeToken, len(body), body)
	waitFor(t, 20*time.Second, "the undelivered result to be counted", func() bool {
		return d.metric(t, "warden_results_undelivered_total") == 1
	})
	if n := d.metric(t, `warden_executions_total{error_type="none",outcome="ok"}`); n != 1 {
		t.Errorf("ok executions counted: %v, want 1", n)
	}
	if !strings.Contains(logs.String(), `"execution":"slowpoke"`) || !strings.Contains(logs.String(), `"ok":true`) {
		t.Errorf("no log line for the undelivered result:\n%s", logs.String())
	}
	// The connection is closed: reading what was sent ends.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, c); err != nil {
		t.Errorf("the connection was not closed: %v", err)
	}
}

// TestHalfCloseIsADisconnect: a client that shuts down its sending side
// after the request (still reading) is taken as gone, as net/http takes
// any EOF on the request's connection: the execution is aborted
// (AbortError), and the envelope still goes out on the half that is
// open. docs/daemon.md says so.
func TestHalfCloseIsADisconnect(t *testing.T) {
	d := startDaemon(t, nil)
	c, err := net.Dial("tcp", d.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := `{"code":"for (;;) {}","limits":{"timeout_ms":10000}}`
	fmt.Fprintf(c, "POST /v1/executions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s", acmeToken, len(body), body)
	c.(*net.TCPConn).CloseWrite()
	c.SetReadDeadline(time.Now().Add(8 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no response after a half-close: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	res := envelope(t, b)
	if res.Error == nil || res.Error.Type != contract.AbortError {
		t.Fatalf("after a half-close: %d %s, want AbortError", resp.StatusCode, b)
	}
}
