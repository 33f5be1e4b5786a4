package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Request bodies are admitted before a byte of them is read: every check
// that does not need the body (auth, route, ownership, a pending seq,
// quotas, draining) comes first, and then the body's bytes are reserved
// from two budgets, the tenant's and the daemon's, for as long as it is
// being read and decoded. A body the budgets cannot take is refused at
// once (429 for the tenant's, 503 for the daemon's) rather than queued:
// a queue of unread bodies is what the budget is there to prevent.

// Defaults of the body budgets (Config.BodyBudgetBytes and a tenant's
// body_budget_bytes).
const (
	DefaultBodyBudgetBytes = 64 << 20
	// A tenant may take half of the daemon's budget unless it says
	// otherwise, so that one tenant cannot hold all of it.
	defaultTenantBodyBudgetDivisor = 2
)

// KindBodyBudget is the kind of a refusal for a body the budgets cannot
// take now.
const KindBodyBudget = "body_budget"

// byteBudget counts the bytes of bodies being read against a limit.
type byteBudget struct {
	mu   sync.Mutex
	used int64
}

// take reserves n bytes under limit. A body larger than the whole limit
// reserves all of it, so it is read only when nothing else is: the
// budget bounds what is held at once (max(limit, the largest body))
// without refusing a body the contract allows.
func (b *byteBudget) take(n, limit int64) (int64, bool) {
	n = min(n, limit)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > limit {
		return 0, false
	}
	b.used += n
	return n, true
}

// inUse is how many bytes are reserved now.
func (b *byteBudget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

func (b *byteBudget) give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

// reclaimAfter is how big a body must be for its release to hand the
// freed memory back to the OS: the Go runtime would keep it until its
// next GC and scavenge, which an idle daemon may not reach for minutes.
const reclaimAfter = 4 << 20

// reclaimPasses are when, after the last large body, the heap is handed
// back: a second after, when the body's copies on their way to the
// child are usually gone, and again later for those a child's
// connection holds while it is torn down (seen here: 82 MiB still held
// 10 s after a burst with one pass only).
var reclaimPasses = []time.Duration{time.Second, 5 * time.Second}

// reclaimer returns freed heap to the OS once large bodies stop coming
// (debounced debug.FreeOSMemory passes, not one per body).
type reclaimer struct {
	mu     sync.Mutex
	timers []*time.Timer
}

func (rc *reclaimer) soon() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.timers == nil {
		for _, d := range reclaimPasses {
			rc.timers = append(rc.timers, time.AfterFunc(d, debug.FreeOSMemory))
		}
		return
	}
	for i, d := range reclaimPasses {
		rc.timers[i].Reset(d)
	}
}

// checkBodySize refuses (413) a body whose declared length is over
// limit, before anything else is reserved for it.
func (s *Server) checkBodySize(w http.ResponseWriter, r *http.Request, limit int64) bool {
	if r.ContentLength > limit {
		s.fail(w, http.StatusRequestEntityTooLarge, &contract.Error{Type: contract.ContractError, Kind: KindBodyTooLarge,
			Message: fmt.Sprintf("the body is %d bytes, over the cap of %d", r.ContentLength, limit)})
		return false
	}
	return true
}

// admitBody reserves r's body (its Content-Length, or limit when it has
// none) from t's budget and the daemon's. On refusal it writes the 429
// or 503 and returns nil; otherwise the caller must call the release
// once the body is read and decoded.
func (s *Server) admitBody(w http.ResponseWriter, r *http.Request, t *tenant, limit int64) (release func()) {
	n := limit
	if r.ContentLength >= 0 {
		n = min(r.ContentLength, limit)
	}
	tn, ok := t.st.bodies.take(n, t.bodyBudget)
	if !ok {
		s.metrics.rejections.WithLabelValues(t.name, KindBodyBudget).Inc()
		s.failRetry(w, http.StatusTooManyRequests, &contract.Error{Type: contract.CapacityError, Kind: KindBodyBudget,
			Message: fmt.Sprintf("tenant %s is reading as many bytes of bodies at once as its budget of %d allows", t.name, t.bodyBudget)}, time.Second)
		return nil
	}
	dn, ok := s.bodies.take(n, s.bodyBudget())
	if !ok {
		t.st.bodies.give(tn)
		s.metrics.rejections.WithLabelValues(t.name, "daemon_"+KindBodyBudget).Inc()
		s.failRetry(w, http.StatusServiceUnavailable, &contract.Error{Type: contract.CapacityError, Kind: KindBodyBudget,
			Message: fmt.Sprintf("the daemon is reading its budget of %d bytes of bodies at once", s.bodyBudget())}, time.Second)
		return nil
	}
	return func() {
		t.st.bodies.give(tn)
		s.bodies.give(dn)
		if n >= reclaimAfter {
			s.reclaim.soon()
		}
	}
}

// readBody reads r's body, at most limit bytes, within the body timeout,
// into a buffer of its declared length (no doubling growth). On failure
// it writes the 4xx and returns false.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.opt.BodyTimeout))
	body := http.MaxBytesReader(w, r.Body, limit)
	var b []byte
	var err error
	if r.ContentLength >= 0 {
		// One buffer of the declared length (io.ReadAll or a
		// bytes.Buffer would grow by doubling: two copies at the peak).
		b = make([]byte, r.ContentLength)
		var n int
		n, err = io.ReadFull(body, b)
		b = b[:n]
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = fmt.Errorf("the body ended after %d of its %d bytes", n, r.ContentLength)
		}
	} else {
		b, err = io.ReadAll(body)
	}
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
