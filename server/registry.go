package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardenhq/warden/contract"
)

// execKey names a live execution. Executions are keyed by tenant and id
// together, so one tenant can neither reach another's execution nor
// learn that an id is in use by someone else.
type execKey struct{ tenant, id string }

// execution is one execution in flight: what DELETE and data answers
// reach.
type execution struct {
	key    execKey
	cancel context.CancelCauseFunc
	// lastSeq is the seq of the last data_request event: the supervisor
	// calls the data handler for it right after the event, on the same
	// stream, one request at a time.
	lastSeq atomic.Int64
	// large is set when a body or data answer of reclaimAfter bytes or
	// more came with it: its end hands the freed memory back to the OS.
	large atomic.Bool

	mu sync.Mutex
	// dataBytes bounds one data answer's body (the execution's limit),
	// set once its body is decoded.
	dataBytes int64
	endpoint  bool // data requests are answered over the endpoint
	pending   map[int64]chan dataAnswer
	// claimed are the seqs whose answer is being read: one reader per
	// seq, so a second answer is refused before its body is read.
	claimed  map[int64]bool
	answered map[int64]bool
}

func (e *execution) setDataBytes(n int64) {
	e.mu.Lock()
	e.dataBytes = n
	e.mu.Unlock()
}

func (e *execution) dataLimit() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dataBytes
}

type dataAnswer struct {
	value json.RawMessage
	err   error
}

// errAnswered, errAnswering and errNoRequest are claim's and answer's
// refusals (409, 409 and 404).
var (
	errAnswered  = errors.New("server: data request already answered")
	errAnswering = errors.New("server: an answer to this data request is being read")
	errNoRequest = errors.New("server: no such pending data request")
)

// expect registers data request seq before its event reaches the client,
// so that an answer can never arrive before there is a place for it.
func (e *execution) expect(seq int64, parkRefused bool) {
	e.lastSeq.Store(seq)
	e.mu.Lock()
	defer e.mu.Unlock()
	if parkRefused {
		// Asked again: the answer that said park could not be taken.
		delete(e.answered, seq)
	}
	if e.endpoint {
		e.pending[seq] = make(chan dataAnswer, 1)
	}
}

// claim reserves data request seq for one answer about to be read: it
// refuses a seq that is not pending, already answered, or being
// answered, before the answer's body is read. The claim ends with answer
// or unclaim.
func (e *execution) claim(seq int64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.answered[seq]:
		return errAnswered
	case e.claimed[seq]:
		return errAnswering
	case e.pending[seq] == nil:
		return errNoRequest
	}
	e.claimed[seq] = true
	return nil
}

// unclaim gives up a claim whose answer could not be read or parsed, so
// that the client may send it again.
func (e *execution) unclaim(seq int64) {
	e.mu.Lock()
	delete(e.claimed, seq)
	e.mu.Unlock()
}

// answer delivers the answer to claimed data request seq.
func (e *execution) answer(seq int64, a dataAnswer) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.claimed, seq)
	ch, ok := e.pending[seq]
	if !ok {
		// The handler gave up (the deadline) while the body was read.
		return errNoRequest
	}
	// The channel stays in pending for the handler to take: a fast client
	// answers before the supervisor has called the handler for seq.
	e.answered[seq] = true
	ch <- a
	return nil
}

// endpointHandler answers each data request with what the client POSTs
// to /v1/executions/{id}/data/{seq}, waiting until the execution's
// deadline at most (the supervisor's ctx).
func (e *execution) endpointHandler(m *metrics, parkAfter time.Duration) contract.DataHandler {
	return func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		seq := requestSeq(ctx, e)
		e.mu.Lock()
		ch := e.pending[seq]
		e.mu.Unlock()
		if ch == nil {
			return nil, fmt.Errorf("host.request %q: no pending request %d", name, seq)
		}
		defer func() {
			e.mu.Lock()
			delete(e.pending, seq)
			e.mu.Unlock()
		}()
		var parkTimer <-chan time.Time
		if parkAfter > 0 && contract.ParkRefused(ctx) == nil {
			// The tenant's policy: an answer slower than this parks the
			// execution (when its request allows it).
			t := time.NewTimer(parkAfter)
			defer t.Stop()
			parkTimer = t.C
		}
		select {
		case a := <-ch:
			result := "ok"
			switch {
			case errors.Is(a.err, contract.ErrPark):
				result = "park"
			case a.err != nil:
				result = "error"
			}
			m.data.WithLabelValues("endpoint", result).Inc()
			return a.value, a.err
		case <-parkTimer:
			m.data.WithLabelValues("endpoint", "park_after").Inc()
			return nil, contract.ErrPark
		case <-ctx.Done():
			return nil, fmt.Errorf("host.request %q: no answer before the deadline", name)
		}
	}
}

// requestSeq is the seq of the data request a handler is called for:
// the supervisor's word, or the last data_request event's.
func requestSeq(ctx context.Context, e *execution) int64 {
	if seq := contract.RequestSeq(ctx); seq > 0 {
		return seq
	}
	return e.lastSeq.Load()
}

// parkRefusal is why parking was refused, when the handler is asked
// again for that reason ("" otherwise).
func parkRefusal(ctx context.Context) string {
	if err := contract.ParkRefused(ctx); err != nil {
		return err.Error()
	}
	return ""
}

// registry holds the executions in flight, and counts them for drain.
type registry struct {
	mu       sync.Mutex
	m        map[execKey]*execution
	draining bool
	n        int
	idle     chan struct{} // closed when n drops to 0 while draining
}

// add registers e; it fails with errDraining once drain started, and
// with errInUse when the id is taken.
func (r *registry) add(e *execution) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.draining {
		return errDraining
	}
	if _, ok := r.m[e.key]; ok {
		return errInUse
	}
	r.m[e.key] = e
	r.n++
	return nil
}

// errClientGone is the cause an execution is cancelled with when its
// client went away.
var errClientGone = errors.New("server: the client went away")

var (
	errDraining = errors.New("server: draining")
	errInUse    = errors.New("server: execution id in use")
)

func (r *registry) remove(e *execution) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m[e.key] == e {
		delete(r.m, e.key)
	}
	r.n--
	if r.n == 0 && r.idle != nil {
		close(r.idle)
		r.idle = nil
	}
}

// release frees e's id before e is removed (remove still counts it
// out): a parked execution's id can be resumed as soon as its client
// reads the envelope, which goes out before e is removed.
func (r *registry) release(e *execution) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m[e.key] == e {
		delete(r.m, e.key)
	}
}

// live counts the executions in flight.
func (r *registry) live() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.m)
}

func (r *registry) get(k execKey) *execution {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[k]
}

// startDrain refuses new executions and returns a channel closed when
// none is left in flight.
func (r *registry) startDrain() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.draining = true
	done := make(chan struct{})
	if r.n == 0 {
		close(done)
		return done
	}
	if r.idle == nil {
		r.idle = make(chan struct{})
	}
	return r.idle
}

// abortAll cancels every execution in flight and says how many.
func (r *registry) abortAll(why string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.m {
		e.cancel(errors.New(why))
	}
	return len(r.m)
}

// newExecutionID makes an unguessable id: 128 random bits.
func newExecutionID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// validID reports whether a client-chosen id is 1-64 of [A-Za-z0-9_-].
func validID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
