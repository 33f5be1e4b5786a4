package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

func TestExecuteJSON(t *testing.T) {
	f := newFake(t)
	c := f.client(t, Options{})
	res, err := c.Execute(context.Background(), contract.Request{Code: `value {"a":1}`, Input: json.RawMessage(`2`)}, nil)
	if err != nil || !res.OK || string(res.Value) != `{"a":1}` || len(res.Logs) != 1 || res.Logs[0].Text != "hi" {
		t.Fatalf("Execute: %+v, %v", res, err)
	}
	// The body is contract.Request without its id (the server rejects
	// unknown fields); the id travels in the header, chosen by the client.
	if strings.Contains(f.bodies[0], `"id"`) || !validID(f.ids[0]) || len(f.ids[0]) != 32 {
		t.Errorf("body %s, id %q", f.bodies[0], f.ids[0])
	}
	// A chosen id is sent as it is; a malformed one is a ContractError
	// before anything is sent.
	if _, err := c.Execute(context.Background(), contract.Request{ID: "mine-1", Code: "value 1"}, nil); err != nil || f.ids[1] != "mine-1" {
		t.Errorf("chosen id: %v, sent %q", err, f.ids[1])
	}
	if _, err := c.Execute(context.Background(), contract.Request{ID: "a/b", Code: "value 1"}, nil); !errors.Is(err, contract.ErrContract) || len(f.ids) != 2 {
		t.Errorf("bad id: %v (%d requests sent)", err, len(f.ids))
	}
}

// A failed envelope comes back with an error that errors.Is its
// sentinel, as the supervisor's does.
func TestExecuteUserCodeError(t *testing.T) {
	c := newFake(t).client(t, Options{})
	res, err := c.Execute(context.Background(), contract.Request{Code: "throw"}, nil)
	if res.OK || !errors.Is(err, contract.ErrUserCode) || errors.Is(err, contract.ErrTimeout) {
		t.Fatalf("throw: %+v, %v", res, err)
	}
	var ce *contract.Error
	if !errors.As(err, &ce) || ce.Message != "Error: boom" {
		t.Errorf("errors.As: %v", ce)
	}
}

// Refusals: auth and routing errors are *APIError matching the client's
// sentinels and none of the contract's; a quota refusal unwraps to its
// CapacityError, returns its envelope and carries Retry-After.
func TestRefusals(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()

	_, err := f.client(t, Options{Token: "wrong"}).Execute(ctx, contract.Request{Code: "value 1"}, nil)
	var api *APIError
	if !errors.As(err, &api) || api.Status != 401 || !errors.Is(err, ErrUnauthenticated) || errors.Is(err, ErrNotFound) || errors.Is(err, contract.ErrContract) {
		t.Errorf("wrong token: %v", err)
	}
	var ce *contract.Error
	if errors.As(err, &ce) {
		t.Errorf("an auth error must not pass for a contract error: %v", ce)
	}

	f.status, f.retryAfter = http.StatusTooManyRequests, "2"
	res, err := f.client(t, Options{}).Execute(ctx, contract.Request{Code: "value 1"}, nil)
	if !errors.As(err, &api) || api.Status != 429 || api.RetryAfter != 2*time.Second || !errors.Is(err, contract.ErrCapacity) {
		t.Errorf("429: %v", err)
	}
	if res.OK || res.Error == nil || res.Error.Type != contract.CapacityError || res.Error.Kind != "rate" || res.Logs == nil {
		t.Errorf("429 envelope: %+v", res)
	}
	f.status = 0

	// A DELETE of an execution that is not live: 404, ErrNotFound (the
	// client ignores it when aborting; here asked directly).
	ex := &execution{c: f.client(t, Options{}), id: "gone"}
	err = ex.answer(ctx, 1, json.RawMessage(`1`), nil)
	if err != nil {
		t.Errorf("an answer to an execution that ended is no failure: %v", err)
	}
}

// The stream delivers every event in order, and the handler's answers
// (values and errors) reach the script over the answer endpoint.
func TestStreamDataHandler(t *testing.T) {
	c := newFake(t).client(t, Options{})
	var types []contract.EventType
	var ids []string
	h := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		if string(args) == "2" {
			return nil, errors.New("no second answer")
		}
		return json.RawMessage(`{"name":"` + name + `","args":` + string(args) + `}`), nil
	}
	res, err := c.Stream(context.Background(), contract.Request{Code: "ask 3"}, h, func(ev contract.Event) {
		types = append(types, ev.Type)
		ids = append(ids, ev.ExecutionID)
	})
	if err != nil || !res.OK {
		t.Fatalf("Stream: %+v, %v", res, err)
	}
	want := `[{"args":1,"name":"q"},"error: no second answer",{"args":3,"name":"q"}]`
	if got := normJSON(t, res.Value); got != want {
		t.Errorf("answers: %s, want %s", got, want)
	}
	if strings.Join(evNames(types), ",") != "started,data_request,data_request,data_request,result" || ids[0] == "" || ids[0] != ids[4] {
		t.Errorf("events %v ids %v", types, ids)
	}
	// Execute with a handler streams too.
	res, err = c.Execute(context.Background(), contract.Request{Code: "ask 1"}, h)
	if err != nil || normJSON(t, res.Value) != `[{"args":1,"name":"q"}]` {
		t.Errorf("Execute with a handler: %s, %v", res.Value, err)
	}
	// No handler: the script's request is refused as a local one is.
	res, err = c.Stream(context.Background(), contract.Request{Code: "ask 1"}, nil, nil)
	if err != nil || !strings.Contains(string(res.Value), contract.ErrNoDataHandler.Error()) {
		t.Errorf("no handler: %s, %v", res.Value, err)
	}
}

// An answer the server refuses (not 404 or 409, which mean the
// execution or the request is gone) would leave the script waiting until
// its deadline: the client aborts the execution at once and returns the
// envelope with the answer's failure.
func TestRefusedAnswerAborts(t *testing.T) {
	f := newFake(t)
	f.answerStatus = http.StatusRequestEntityTooLarge
	c := f.client(t, Options{})
	h := func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`1`), nil
	}
	res, err := c.Stream(context.Background(), contract.Request{Code: "ask 1"}, h, nil)
	var api *APIError
	if !errors.Is(err, contract.ErrAbort) || !errors.As(err, &api) || api.Status != 413 || res.Error == nil || res.Error.Type != contract.AbortError {
		t.Errorf("%+v, %v", res, err)
	}
	if len(f.deleted) != 1 {
		t.Errorf("DELETEs: %v", f.deleted)
	}
}

func evNames(ts []contract.EventType) []string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return s
}

func normJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// Cancelling ctx sends DELETE for the execution and returns the
// server's AbortError envelope, in both forms; a server that never
// answers the abort still lets the call return, after the grace, with
// an AbortError made by the client.
func TestCancelSendsDelete(t *testing.T) {
	for _, stream := range []bool{false, true} {
		f := newFake(t)
		c := f.client(t, Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		var res contract.Result
		var err error
		if stream {
			res, err = c.Stream(ctx, contract.Request{Code: "hang"}, nil, nil)
		} else {
			res, err = c.Execute(ctx, contract.Request{Code: "hang"}, nil)
		}
		cancel()
		if !errors.Is(err, contract.ErrAbort) || res.Error == nil || res.Error.Message != "aborted by DELETE" {
			t.Errorf("stream %v: %+v, %v", stream, res, err)
		}
		if len(f.deleted) != 1 || f.deleted[0] != f.ids[0] {
			t.Errorf("stream %v: DELETEs %v for %v", stream, f.deleted, f.ids)
		}
	}

	f := newFake(t)
	f.silentAbort = true
	c := f.client(t, Options{AbortGrace: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := c.Execute(ctx, contract.Request{Code: "hang"}, nil)
	if !errors.Is(err, contract.ErrAbort) || !errors.Is(err, context.DeadlineExceeded) || res.Error == nil || res.Error.Type != contract.AbortError {
		t.Errorf("silent server: %+v, %v", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("silent server: returned after %v", d)
	}
}

// What the client reads is capped: a response or an event over
// MaxResponseBytes fails instead of being read whole.
func TestBoundedReads(t *testing.T) {
	c := newFake(t).client(t, Options{MaxResponseBytes: 4096})
	if res, err := c.Execute(context.Background(), contract.Request{Code: "big 1000"}, nil); err != nil || !res.OK {
		t.Fatalf("under the cap: %v", err)
	}
	_, err := c.Execute(context.Background(), contract.Request{Code: "big 8000"}, nil)
	if err == nil || !strings.Contains(err.Error(), "larger than the cap of 4096") {
		t.Errorf("JSON over the cap: %v", err)
	}
	_, err = c.Stream(context.Background(), contract.Request{Code: "big 8000"}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "larger than the cap of 4096") {
		t.Errorf("event over the cap: %v", err)
	}
}

func TestNewRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"", "127.0.0.1:8080", "ftp://x", "http://"} {
		if _, err := New(u, Options{}); err == nil {
			t.Errorf("New(%q) took it", u)
		}
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"a": true, "A-z_09": true, strings.Repeat("x", 64): true,
		"": false, strings.Repeat("x", 65): false, "a/b": false, "a b": false, "é": false, "a.b": false,
	} {
		if validID(id) != want {
			t.Errorf("validID(%q) = %v", id, !want)
		}
	}
}
