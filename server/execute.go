package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/strictjson"
)

// executeBody is POST /v1/executions's body: contract.Request without id.
type executeBody struct {
	Code    string            `json:"code"`
	Input   json.RawMessage   `json:"input,omitempty"`
	Limits  contract.Limits   `json:"limits"`
	Modules map[string]string `json:"modules,omitempty"`
}

// bodySlack is room for the JSON around the fields a body bound counts.
const bodySlack = 64 << 10

// maxExecuteBody bounds POST /v1/executions's body before it is parsed:
// the code cap (code and modules together, counted twice to leave room
// for JSON escaping), the input cap and some slack.
func (s *Server) maxExecuteBody() int64 {
	return 2*s.opt.Caps.CodeBytes + s.opt.MaxInputBytes + bodySlack
}

// writeTimeout bounds each write to a client, so that one that stops
// reading cannot hold an execution's goroutine.
const writeTimeout = 10 * time.Second

// readBody reads r's body, at most limit bytes, within the body timeout.
// On failure it writes the 4xx and returns false.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	if r.ContentLength > limit {
		s.fail(w, http.StatusRequestEntityTooLarge, &contract.Error{Type: contract.ContractError, Kind: KindBodyTooLarge,
			Message: fmt.Sprintf("the body is %d bytes, over the cap of %d", r.ContentLength, limit)})
		return nil, false
	}
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.opt.BodyTimeout))
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	// No deadline once the body is in: the server's background read,
	// which notices a client that goes away, must not time out.
	rc.SetReadDeadline(time.Time{})
	s.metrics.bytesIn.Add(float64(len(b)))
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return b, true
	case errors.As(err, &tooLarge):
		s.fail(w, http.StatusRequestEntityTooLarge, &contract.Error{Type: contract.ContractError, Kind: KindBodyTooLarge,
			Message: fmt.Sprintf("the body is over the cap of %d bytes", limit)})
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		s.fail(w, http.StatusRequestTimeout, &contract.Error{Type: contract.ContractError, Kind: KindBodyTimeout,
			Message: fmt.Sprintf("the body was not read within %v", s.opt.BodyTimeout)})
	default:
		s.fail(w, http.StatusBadRequest, &contract.Error{Type: contract.ContractError, Kind: KindMalformed,
			Message: "reading the body: " + err.Error()})
	}
	return nil, false
}

// decodeStrict decodes exactly one JSON value into v with
// internal/strictjson: names exactly v's, none twice, valid UTF-8, no
// null where v's type has no room for one, nothing after the value.
func decodeStrict(b []byte, v any) error {
	if err := strictjson.Unmarshal(b, v); err != nil {
		var ce *contract.Error
		if errors.As(err, &ce) {
			return ce
		}
		return contract.Errorf(contract.ContractError, "body: %v", err)
	}
	return nil
}

func (s *Server) handleExecute(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		s.failRetry(w, http.StatusServiceUnavailable, &contract.Error{Type: contract.CapacityError, Kind: KindDraining,
			Message: "the daemon is draining"}, time.Second)
		return
	}
	t := s.authenticate(w, r)
	if t == nil {
		return
	}
	id := r.Header.Get(ExecutionIDHeader)
	if id == "" {
		id = newExecutionID()
	} else if !validID(id) {
		s.fail(w, http.StatusBadRequest, &contract.Error{Type: contract.ContractError, Kind: KindMalformed,
			Message: ExecutionIDHeader + " must be 1-64 of [A-Za-z0-9_-]"})
		return
	}
	raw, ok := s.readBody(w, r, s.maxExecuteBody())
	if !ok {
		return
	}
	var body executeBody
	if err := decodeStrict(raw, &body); err != nil {
		e := contract.AsError(err)
		e.Type, e.Kind = contract.ContractError, KindMalformed
		s.fail(w, http.StatusBadRequest, e)
		return
	}
	if name, bad := t.forbiddenModule(body.Modules); bad {
		s.fail(w, http.StatusForbidden, &contract.Error{Type: AuthError, Kind: KindForbidden,
			Message: fmt.Sprintf("module %q is not on tenant %s's allow-list", name, t.name)})
		return
	}
	// The tenant's caps clamp first (the supervisor's are above them);
	// the supervisor then finds nothing more to clamp.
	limits, clamped, err := contract.Resolve(body.Limits, t.defaults, t.caps)
	if err != nil {
		s.fail(w, http.StatusBadRequest, contract.AsError(err))
		return
	}
	release, quota, retry := t.acquire(time.Now())
	if release == nil {
		s.metrics.rejections.WithLabelValues(t.name, quota).Inc()
		s.failRetry(w, http.StatusTooManyRequests, &contract.Error{Type: contract.CapacityError, Kind: quota,
			Message: fmt.Sprintf("tenant %s is over its %s quota", t.name, quota)}, retry)
		return
	}
	defer release()

	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	e := &execution{key: execKey{t.name, id}, cancel: cancel, dataBytes: limits.DataBytes,
		pending: map[int64]chan dataAnswer{}, answered: map[int64]bool{}}
	switch err := s.execs.add(e); {
	case errors.Is(err, errDraining):
		s.failRetry(w, http.StatusServiceUnavailable, &contract.Error{Type: contract.CapacityError, Kind: KindDraining,
			Message: "the daemon is draining"}, time.Second)
		return
	case err != nil:
		s.fail(w, http.StatusConflict, &contract.Error{Type: contract.ContractError, Kind: KindConflict,
			Message: "execution id " + id + " is in use"})
		return
	}
	defer s.execs.remove(e)

	streaming := wantsEventStream(r)
	handler := contract.DataHandler(nil)
	switch {
	case t.webhook != nil:
		handler = s.webhookHandler(t, e)
	case streaming:
		e.endpoint = true
		handler = e.endpointHandler(s.metrics)
	}
	req := contract.Request{ID: id, Code: body.Code, Input: body.Input, Limits: limits, Modules: body.Modules}
	w.Header().Set(ExecutionIDHeader, id)
	start := time.Now()
	var out *eventStream
	if streaming {
		out = &eventStream{s: s, w: w, rc: http.NewResponseController(w)}
	}
	onEvent := func(ev contract.Event) {
		switch {
		case ev.Type == contract.EventDataRequest:
			// Before the event goes out: the answer may come at once.
			e.expect(ev.DataRequest.Seq)
		case ev.Type == contract.EventResult:
			return // written below, once the clamped names are in
		}
		if out != nil {
			out.send(ev)
		}
	}
	res, _ := s.sup.Stream(ctx, req, handler, onEvent)
	res.Clamped = append(clamped, res.Clamped...)
	s.metrics.observe(&res, time.Since(start))
	status := resultStatus(&res)
	if status == http.StatusTooManyRequests && res.Error.Kind == "" {
		res.Error.Kind = KindCapacity
	}
	if streaming && (out.started || status == http.StatusOK) {
		out.send(contract.Event{Type: contract.EventResult, ExecutionID: id, Result: &res})
		return
	}
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	s.writeJSON(w, status, &res)
}

// resultStatus is the status of an envelope: 200 for any execution that
// ran; 400 for a ContractError and 429 for a CapacityError, which mean
// it was not accepted.
func resultStatus(res *contract.Result) int {
	switch {
	case res.OK || res.Error == nil:
		return http.StatusOK
	case res.Error.Type == contract.ContractError:
		return http.StatusBadRequest
	case res.Error.Type == contract.CapacityError:
		return http.StatusTooManyRequests
	}
	return http.StatusOK
}

// wantsEventStream reports whether the client asked for server-sent
// events.
func wantsEventStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(mt), "text/event-stream") {
				return true
			}
		}
	}
	return false
}

// eventStream writes an execution's events as server-sent events. The
// status (200) and headers go out with the first event: a request that
// never started (no child in time, a bad request) still gets its 4xx.
type eventStream struct {
	s       *Server
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
	n       int
	broken  bool
}

func (o *eventStream) send(ev contract.Event) {
	if o.broken {
		return
	}
	if !o.started {
		h := o.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		o.w.WriteHeader(http.StatusOK)
		o.started = true
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return
	}
	o.n++
	o.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	n, err := fmt.Fprintf(o.w, "id: %d\nevent: %s\ndata: %s\n\n", o.n, ev.Type, b)
	o.s.metrics.bytesOut.Add(float64(n))
	if err == nil {
		err = o.rc.Flush()
	}
	if err != nil {
		// The client is gone; the request's ctx ends with it and aborts
		// the execution.
		o.broken = true
	}
}

func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) {
	t := s.authenticate(w, r)
	if t == nil {
		return
	}
	e := s.execs.get(execKey{t.name, r.PathValue("id")})
	if e == nil {
		s.fail(w, http.StatusNotFound, &contract.Error{Type: NotFound, Message: "no live execution with this id"})
		return
	}
	e.cancel(errors.New("aborted by DELETE"))
	w.WriteHeader(http.StatusNoContent)
}
