package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// fakeServer follows the surface the daemon agreed to (the routes, the
// bodies, the status mapping, the SSE framing), with scripted
// "executions" instead of children, so the client's own logic is tested
// without the daemon. The tests against the real daemon are in
// server_test.go.
//
// A script is the code string:
//
//	"value JSON"  returns JSON, after logging "hi"
//	"throw"       fails with a UserCodeError
//	"ask N"       asks host.request("q", i) N times, returns the answers
//	"hang"        waits for a DELETE (or 10 s), then ends with AbortError
//	"big N"       returns a string of N bytes
type fakeServer struct {
	t     *testing.T
	token string
	srv   *httptest.Server

	mu      sync.Mutex
	live    map[string]*fakeExec
	deleted []string
	ids     []string
	bodies  []string
	// status, when set, refuses every execution with this status.
	status     int
	retryAfter string
	// silentAbort: a DELETE is taken but the execution never ends.
	silentAbort bool
	// answerStatus, when set, refuses every data answer with it.
	answerStatus int
}

type fakeExec struct {
	answers chan answerBody // by seq order
	abort   chan struct{}
	once    sync.Once
}

func newFake(t *testing.T) *fakeServer {
	f := &fakeServer{t: t, token: "s3cret", live: map[string]*fakeExec{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/executions", f.execute)
	mux.HandleFunc("POST /v1/executions/{id}/data/{seq}", f.answer)
	mux.HandleFunc("DELETE /v1/executions/{id}", f.delete)
	f.srv = httptest.NewServer(f.auth(mux))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) client(t *testing.T, opts Options) *Client {
	t.Helper()
	if opts.Token == "" {
		opts.Token = f.token
	}
	c, err := New(f.srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fail(w http.ResponseWriter, status int, typ, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"ok": false, "logs": []any{},
		"error": map[string]string{"type": typ, "kind": kind, "message": msg}})
}

func (f *fakeServer) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+f.token {
			fail(w, 401, "AuthError", "unauthenticated", "no or unknown token")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (f *fakeServer) execute(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Code    string            `json:"code"`
		Input   json.RawMessage   `json:"input"`
		Limits  contract.Limits   `json:"limits"`
		Modules map[string]string `json:"modules"`
	}
	raw, _ := io.ReadAll(r.Body)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		fail(w, 400, "ContractError", "", err.Error())
		return
	}
	id := r.Header.Get(IDHeader)
	f.mu.Lock()
	f.ids = append(f.ids, id)
	f.bodies = append(f.bodies, string(raw))
	status, retry := f.status, f.retryAfter
	ex := &fakeExec{answers: make(chan answerBody, 1), abort: make(chan struct{})}
	f.live[id] = ex
	f.mu.Unlock()
	defer func() { f.mu.Lock(); delete(f.live, id); f.mu.Unlock() }()
	if status != 0 {
		if retry != "" {
			w.Header().Set("Retry-After", retry)
		}
		fail(w, status, "CapacityError", "rate", "tenant over its rate quota")
		return
	}
	w.Header().Set(IDHeader, id)
	stream := r.Header.Get("Accept") == "text/event-stream"
	n := 0
	emit := func(ev contract.Event) {
		if !stream {
			return
		}
		if n == 0 {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
		}
		n++
		ev.ExecutionID = id
		b, _ := json.Marshal(ev)
		fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", n, ev.Type, b)
		w.(http.Flusher).Flush()
	}
	res := contract.Result{OK: true, Logs: []contract.LogEntry{}, Limits: body.Limits}
	emit(contract.Event{Type: contract.EventStarted})
	verb, arg, _ := strings.Cut(body.Code, " ")
	switch verb {
	case "value":
		l := contract.LogEntry{Level: "log", Text: "hi"}
		res.Logs = append(res.Logs, l)
		emit(contract.Event{Type: contract.EventLog, Log: &l})
		res.Value = json.RawMessage(arg)
	case "throw":
		res = contract.Fail(contract.Errorf(contract.UserCodeError, "Error: boom"), body.Limits)
	case "ask":
		var count int
		fmt.Sscan(arg, &count)
		var got []any
		for i := 1; i <= count; i++ {
			emit(contract.Event{Type: contract.EventDataRequest, DataRequest: &contract.DataRequest{Seq: int64(i), Name: "q", Args: json.RawMessage(fmt.Sprint(i))}})
			select {
			case a := <-ex.answers:
				if a.Error != "" {
					got = append(got, "error: "+a.Error)
				} else {
					got = append(got, a.Value)
				}
			case <-ex.abort:
				res = contract.Fail(contract.Errorf(contract.AbortError, "aborted by DELETE"), body.Limits)
			case <-time.After(5 * time.Second):
				res = contract.Fail(contract.Errorf(contract.TimeoutError, "no answer"), body.Limits)
			}
			if !res.OK {
				break
			}
		}
		if res.OK {
			res.Value, _ = json.Marshal(got)
		}
	case "hang":
		select {
		case <-ex.abort:
			res = contract.Fail(contract.Errorf(contract.AbortError, "aborted by DELETE"), body.Limits)
		case <-r.Context().Done():
			return
		case <-time.After(10 * time.Second):
		}
	case "big":
		var size int
		fmt.Sscan(arg, &size)
		res.Value, _ = json.Marshal(strings.Repeat("x", size))
	}
	if stream {
		emit(contract.Event{Type: contract.EventResult, Result: &res})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(res)
}

func (f *fakeServer) lookup(w http.ResponseWriter, r *http.Request) *fakeExec {
	f.mu.Lock()
	defer f.mu.Unlock()
	ex := f.live[r.PathValue("id")]
	if ex == nil {
		fail(w, 404, "NotFound", "", "no such execution")
	}
	return ex
}

func (f *fakeServer) answer(w http.ResponseWriter, r *http.Request) {
	ex := f.lookup(w, r)
	if ex == nil {
		return
	}
	if f.answerStatus != 0 {
		fail(w, f.answerStatus, "ContractError", "body_too_large", "answer refused")
		return
	}
	var a answerBody
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		fail(w, 400, "ContractError", "", err.Error())
		return
	}
	select {
	case ex.answers <- a:
		w.WriteHeader(204)
	default:
		fail(w, 409, "ContractError", "conflict", "already answered")
	}
}

func (f *fakeServer) delete(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.deleted = append(f.deleted, r.PathValue("id"))
	silent := f.silentAbort
	f.mu.Unlock()
	ex := f.lookup(w, r)
	if ex == nil {
		return
	}
	if !silent {
		ex.once.Do(func() { close(ex.abort) })
	}
	w.WriteHeader(204)
}
