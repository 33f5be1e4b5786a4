package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// Parked executions in the daemon: an execution that parks (its request
// said park: true, and a data answer said park or the tenant's
// park_after passed) leaves its sealed state in the store, under its
// tenant and id; the envelope says parked and lists the requests it
// waits on. POST /v1/executions/{id}/resume continues it, with answers,
// on this replica or any other that shares the store and the park key;
// GET /v1/executions/{id}/state exports the state; POST /v1/resume
// takes an exported state in its body.

// resumeBody is what the resume routes take: answers by seq (decimal),
// fork to resume a copy, and, for POST /v1/resume, the state itself.
type resumeBody struct {
	Answers map[string]contract.Answer `json:"answers,omitempty"`
	Fork    bool                       `json:"fork,omitempty"`
	State   []byte                     `json:"state,omitempty"`
}

// maxResumeBody bounds a resume body: a state (base64 of at most the
// park_bytes cap), answers within the data_bytes cap (as JSON, escaped),
// and slack.
func (s *Server) maxResumeBody() int64 {
	return s.opt.Caps.ParkBytes/3*4 + 4 + 2*s.opt.Caps.DataBytes + bodySlack
}

// keepParked moves a parked envelope's state into the store; the client
// gets the envelope without it. A store at its caps leaves the state in
// the envelope (base64), so that nothing is lost: the client can resume
// it with POST /v1/resume.
func (s *Server) keepParked(a *admission, res *contract.Result) {
	if res.Parked == nil {
		return
	}
	s.metrics.parks.WithLabelValues(a.t.name).Inc()
	err := s.states.Put(a.ctx, a.t.name, a.id, res.Parked.State)
	// Nothing of the execution runs any more: its id is free for the
	// resume its client may send the moment it reads the envelope.
	s.execs.release(a.e)
	if err != nil {
		s.metrics.parksInline.WithLabelValues(a.t.name).Inc()
		s.log.Warn("parked state not stored; the envelope carries it", "tenant", a.t.name, "execution", a.id, "error", err)
		return
	}
	res.Parked.State = nil
}

// handleResume continues the parked execution {id} from the store.
func (s *Server) handleResume(w http.ResponseWriter, r *http.Request) {
	s.resume(w, r, r.PathValue("id"), false)
}

// handleResumeState continues the parked execution whose state the body
// carries (exported with GET .../state), as a new execution.
func (s *Server) handleResumeState(w http.ResponseWriter, r *http.Request) {
	s.resume(w, r, r.Header.Get(ExecutionIDHeader), true)
}

func (s *Server) resume(w http.ResponseWriter, r *http.Request, id string, inBody bool) {
	if !inBody && !validID(id) {
		s.fail(w, http.StatusNotFound, &contract.Error{Type: NotFound, Message: "no parked execution with this id"})
		return
	}
	a := s.admitAs(w, r, id, s.maxResumeBody())
	if a == nil {
		return
	}
	defer a.close()
	body, answers, ok := s.readResumeBody(w, r, a.t)
	if !ok {
		return
	}
	state := body.State
	switch {
	case inBody && len(state) == 0:
		s.fail(w, http.StatusBadRequest, &contract.Error{Type: contract.ContractError, Kind: KindMalformed, Message: `body: "state" is required`})
		return
	case !inBody && len(state) > 0:
		s.fail(w, http.StatusBadRequest, &contract.Error{Type: contract.ContractError, Kind: KindMalformed,
			Message: `body: "state" is for POST /v1/resume; this route resumes the state the daemon keeps`})
		return
	case !inBody:
		var err error
		if body.Fork {
			state, err = s.states.Get(a.ctx, a.t.name, id)
		} else {
			state, err = s.states.Take(a.ctx, a.t.name, id)
		}
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				s.log.Warn("parked state unreadable", "tenant", a.t.name, "execution", id, "error", err)
			}
			s.fail(w, http.StatusNotFound, &contract.Error{Type: NotFound, Message: "no parked execution with this id"})
			return
		}
	}
	rr := supervisor.ResumeRequest{State: state, Answers: answers, Scope: a.t.name, Fork: body.Fork}
	s.serve(w, r, a, a.t.caps, nil, func(h contract.DataHandler, onEvent func(contract.Event)) contract.Result {
		res, _ := s.sup.ResumeStream(a.ctx, rr, h, onEvent)
		// It ran (or was refused): the id is free before its envelope goes
		// out, so that a second resume sent on reading it finds no state
		// (404) rather than the id in use.
		s.execs.release(a.e)
		if !inBody && !body.Fork && res.Error != nil && res.Error.Type == contract.ContractError {
			// Refused before any child saw it: the state stays resumable.
			if err := s.states.Put(a.ctx, a.t.name, id, state); err != nil {
				s.log.Warn("refused parked state could not be put back", "tenant", a.t.name, "execution", id, "error", err)
			}
		}
		s.metrics.resumes.WithLabelValues(a.t.name, resumeResult(&res)).Inc()
		return res
	})
}

func resumeResult(res *contract.Result) string {
	switch {
	case res.Parked != nil:
		return "parked"
	case res.OK:
		return "ok"
	case res.Error.Type == contract.ContractError:
		return "refused"
	}
	return "error"
}

// readResumeBody reads and strictly decodes a resume body, and its
// answers' seqs.
func (s *Server) readResumeBody(w http.ResponseWriter, r *http.Request, t *tenant) (body resumeBody, answers map[int64]contract.Answer, ok bool) {
	done := s.admitBody(w, r, t, s.maxResumeBody())
	if done == nil {
		return body, nil, false
	}
	defer done()
	raw, ok := s.readBody(w, r, s.maxResumeBody())
	if !ok {
		return body, nil, false
	}
	malformed := func(err error) {
		e := contract.AsError(err)
		e.Type, e.Kind = contract.ContractError, KindMalformed
		s.fail(w, http.StatusBadRequest, e)
	}
	if len(raw) > 0 {
		if err := decodeStrict(raw, &body); err != nil {
			malformed(err)
			return body, nil, false
		}
	}
	answers = map[int64]contract.Answer{}
	for k, a := range body.Answers {
		seq, err := strconv.ParseInt(k, 10, 64)
		if err != nil || seq < 1 || strconv.FormatInt(seq, 10) != k {
			malformed(fmt.Errorf("answers: %q is not a data request's seq", k))
			return body, nil, false
		}
		answers[seq] = a
	}
	return body, answers, true
}

// handleState exports the parked state of execution {id}, as it is kept
// (sealed): another replica with the park key resumes it with POST
// /v1/resume.
func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	t := s.authenticate(w, r)
	if t == nil {
		return
	}
	id := r.PathValue("id")
	var state []byte
	err := fs.ErrNotExist
	if validID(id) {
		state, err = s.states.Get(r.Context(), t.name, id)
	}
	if err != nil {
		s.fail(w, http.StatusNotFound, &contract.Error{Type: NotFound, Message: "no parked execution with this id"})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(state)))
	w.WriteHeader(http.StatusOK)
	w.Write(state)
}
