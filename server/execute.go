package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
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
	// Language and Format are contract.Request's.
	Language string `json:"language,omitempty"`
	Format   string `json:"format,omitempty"`
	// Deterministic is contract.Request's: a seeded, virtual-clock run.
	Deterministic *contract.Deterministic `json:"deterministic,omitempty"`
	// Park is contract.Request's: the execution may park at a data
	// request (the answer {"park": true}, or the tenant's park_after).
	Park bool `json:"park,omitempty"`
}

// bodySlack is room for the JSON around the fields a body bound counts.
const bodySlack = 64 << 10

// maxExecuteBody bounds POST /v1/executions's body before it is parsed:
// the code cap (code and modules together, counted twice to leave room
// for JSON escaping), the input cap and some slack.
func (s *Server) maxExecuteBody() int64 {
	return 2*s.opt.Caps.CodeBytes + s.opt.MaxInputBytes + bodySlack
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

// readExecuteBody admits, reads and decodes an execution's body and
// resolves its limits under t's caps; on failure it writes the refusal.
func (s *Server) readExecuteBody(w http.ResponseWriter, r *http.Request, t *tenant) (body executeBody, limits contract.Limits, clamped []string, ok bool) {
	done := s.admitBody(w, r, t, s.maxExecuteBody())
	if done == nil {
		return body, limits, nil, false
	}
	defer done()
	raw, ok := s.readBody(w, r, s.maxExecuteBody())
	if !ok {
		return body, limits, nil, false
	}
	if err := decodeStrict(raw, &body); err != nil {
		e := contract.AsError(err)
		e.Type, e.Kind = contract.ContractError, KindMalformed
		s.fail(w, http.StatusBadRequest, e)
		return body, limits, nil, false
	}
	if name, bad := t.forbiddenModule(body.Modules); bad {
		s.fail(w, http.StatusForbidden, &contract.Error{Type: AuthError, Kind: KindForbidden,
			Message: fmt.Sprintf("module %q is not on tenant %s's allow-list", name, t.name)})
		return body, limits, nil, false
	}
	// The tenant's caps clamp first (the supervisor's are above them);
	// the supervisor then finds nothing more to clamp.
	limits, clamped, err := contract.Resolve(body.Limits, t.defaults, t.caps)
	if err != nil {
		s.fail(w, http.StatusBadRequest, contract.AsError(err))
		return body, limits, nil, false
	}
	return body, limits, clamped, true
}

func (s *Server) handleExecute(w http.ResponseWriter, r *http.Request) {
	a := s.admit(w, r)
	if a == nil {
		return
	}
	defer a.close()
	body, limits, clamped, ok := s.readExecuteBody(w, r, a.t)
	if !ok {
		return
	}
	a.e.setDataBytes(limits.DataBytes)
	req := contract.Request{ID: a.id, Code: body.Code, Input: body.Input, Limits: limits, Modules: body.Modules,
		Language: body.Language, Format: body.Format, Imports: a.t.imports(), Deterministic: body.Deterministic,
		Park: body.Park, ParkScope: a.t.name}
	s.run(w, r, a, req, clamped)
}

// admission is an execution admitted before its body is read: its
// tenant's quota slot taken and its id registered.
type admission struct {
	t      *tenant
	id     string
	e      *execution
	ctx    context.Context
	cancel context.CancelCauseFunc
	// close gives back what admit took, in reverse order.
	close func()
}

// admit runs every check of an execution that needs no body (admission.go
// says why first): draining, the token, the id, the body's declared
// size, the tenant's quotas, the id not in use. On refusal it writes it
// and returns nil.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) *admission {
	return s.admitAs(w, r, r.Header.Get(ExecutionIDHeader), s.maxExecuteBody())
}

// admitAs is admit for the execution id (a new one when empty), with a
// body of at most maxBody bytes.
func (s *Server) admitAs(w http.ResponseWriter, r *http.Request, id string, maxBody int64) *admission {
	if s.draining.Load() {
		s.failDraining(w)
		return nil
	}
	t := s.authenticate(w, r)
	if t == nil {
		return nil
	}
	if id == "" {
		id = newExecutionID()
	} else if !validID(id) {
		s.fail(w, http.StatusBadRequest, &contract.Error{Type: contract.ContractError, Kind: KindMalformed,
			Message: ExecutionIDHeader + " must be 1-64 of [A-Za-z0-9_-]"})
		return nil
	}
	if !s.checkBodySize(w, r, maxBody) {
		return nil
	}
	release, quota, retry := t.acquire(time.Now())
	if release == nil {
		s.metrics.rejections.WithLabelValues(t.name, quota).Inc()
		s.failRetry(w, http.StatusTooManyRequests, &contract.Error{Type: contract.CapacityError, Kind: quota,
			Message: fmt.Sprintf("tenant %s is over its %s quota", t.name, quota)}, retry)
		return nil
	}
	// The execution's context is the request's without its cancellation:
	// net/http cancels the request's when a write fails, and a client
	// too slow for the write timeout loses its connection, not the
	// execution. A client that goes away still aborts it (run).
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(r.Context()))
	e := &execution{key: execKey{t.name, id}, cancel: cancel,
		pending: map[int64]chan dataAnswer{}, answered: map[int64]bool{}, claimed: map[int64]bool{}}
	if err := s.execs.add(e); err != nil {
		cancel(nil)
		release()
		if errors.Is(err, errDraining) {
			s.failDraining(w)
		} else {
			s.fail(w, http.StatusConflict, &contract.Error{Type: contract.ContractError, Kind: KindConflict,
				Message: "execution id " + id + " is in use"})
		}
		return nil
	}
	return &admission{t: t, id: id, e: e, ctx: ctx, cancel: cancel, close: func() {
		s.execs.remove(e)
		cancel(nil)
		release()
	}}
}

// failDraining refuses a new execution while the daemon drains.
func (s *Server) failDraining(w http.ResponseWriter) {
	s.failRetry(w, http.StatusServiceUnavailable, &contract.Error{Type: contract.CapacityError, Kind: KindDraining,
		Message: "the daemon is draining"}, time.Second)
}

// run runs an admitted execution and writes its outcome: its events as
// they come when the client asked for a stream, else the envelope.
func (s *Server) run(w http.ResponseWriter, r *http.Request, a *admission, req contract.Request, clamped []string) {
	s.serve(w, r, a, req.Limits, clamped, func(h contract.DataHandler, onEvent func(contract.Event)) contract.Result {
		res, _ := s.sup.Stream(a.ctx, req, h, onEvent)
		return res
	})
}

// serve is run's, for an execution exec starts (or resumes): limits
// bound its event stream, and the data handler is the tenant's.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, a *admission, limits contract.Limits, clamped []string,
	exec func(contract.DataHandler, func(contract.Event)) contract.Result) {
	streaming := wantsEventStream(r)
	handler := contract.DataHandler(nil)
	switch {
	case a.t.webhook != nil:
		handler = s.webhookHandler(a.t, a.e)
	case streaming:
		a.e.endpoint = true
		handler = a.e.endpointHandler(s.metrics, a.t.parkAfter)
	}
	w.Header().Set(ExecutionIDHeader, a.id)
	start := time.Now()
	var out *eventStream
	if streaming {
		out = newEventStream(s, w, limits)
		defer out.close()
	}
	stop := context.AfterFunc(r.Context(), func() {
		if out == nil || !out.tooSlow() {
			a.cancel(errClientGone)
		}
	})
	defer stop()
	onEvent := func(ev contract.Event) {
		switch {
		case ev.Type == contract.EventDataRequest:
			// Before the event goes out: the answer may come at once.
			a.e.expect(ev.DataRequest.Seq, ev.DataRequest.ParkRefused != "")
		case ev.Type == contract.EventResult:
			return // written below, once the clamped names are in
		}
		if out != nil {
			out.send(ev)
		}
	}
	res := exec(handler, onEvent)
	s.keepParked(a, &res)
	if a.e.large.Load() || r.ContentLength >= reclaimAfter {
		// Only now are the body's and the answers' copies (on their way
		// to the child, held by gRPC's flow control) all garbage.
		s.reclaim.soon()
	}
	res.Clamped = append(clamped, res.Clamped...)
	s.metrics.observe(&res, time.Since(start))
	s.writeOutcome(w, a, out, &res)
}

// writeOutcome writes an execution's envelope: as the result event once
// the stream started (or when it ran), else as a JSON body with the
// status that says whether it was accepted.
func (s *Server) writeOutcome(w http.ResponseWriter, a *admission, out *eventStream, res *contract.Result) {
	status := resultStatus(res)
	if status == http.StatusTooManyRequests && res.Error.Kind == "" {
		res.Error.Kind = KindCapacity
	}
	if out != nil && (out.started || status == http.StatusOK) {
		out.send(contract.Event{Type: contract.EventResult, ExecutionID: a.id, Result: res})
		if !out.close() {
			s.metrics.undelivered.Inc()
			s.log.Warn("the client could not take the execution's events in time; its result was not delivered",
				"tenant", a.t.name, "execution", a.id, "ok", res.OK, "error_type", errorType(res))
		}
		return
	}
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Now().Add(s.opt.WriteTimeout))
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	s.writeJSON(w, status, res)
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
// events: text/event-stream is acceptable (q > 0) and preferred to
// application/json by its q-value (RFC 9110 section 12.5.1), each
// media type weighed by its most specific range in the header. On a
// tie the JSON envelope wins unless text/event-stream is named itself.
func wantsEventStream(r *http.Request) bool {
	sse, json := mediaQ{q: -1}, mediaQ{q: -1}
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			mt, params, _ := strings.Cut(part, ";")
			mt = strings.ToLower(strings.TrimSpace(mt))
			q := acceptQ(params)
			sse.weigh(mt, "text/event-stream", q)
			json.weigh(mt, "application/json", q)
		}
	}
	switch {
	case sse.q <= 0:
		return false
	case sse.q != json.q:
		return sse.q > json.q
	}
	return sse.specificity == 3
}

// mediaQ is the q-value the most specific matching range gave one media
// type (specificity 3: the type itself, 2: type/*, 1: */*).
type mediaQ struct {
	q           float64
	specificity int
}

func (m *mediaQ) weigh(rng, mediaType string, q float64) {
	typ, _, _ := strings.Cut(mediaType, "/")
	spec := 0
	switch rng {
	case mediaType:
		spec = 3
	case typ + "/*":
		spec = 2
	case "*/*":
		spec = 1
	}
	if spec > m.specificity {
		m.q, m.specificity = q, spec
	}
}

// acceptQ is the q parameter of an Accept member's parameters (1 when
// absent, 0 when malformed: a client that cannot spell it does not get
// a stream it may not parse).
func acceptQ(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || q < 0 || q > 1 {
			return 0
		}
		return q
	}
	return 1
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
