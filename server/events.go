package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
)

// eventStream writes an execution's events as server-sent events. The
// status (200) and headers go out with the first event: a request that
// never started (no child in time, a bad request) still gets its 4xx.
//
// Events are taken from the supervisor at the child's pace into a queue,
// and a writer goroutine gives the client what it can read: a slow
// client must not stall the supervisor's stream, since that would stall
// the child's sends and spend the guest's deadline (an ok result turned
// into a TimeoutError by a reader that paused). The queue is bounded by
// the execution's limits (its logs, data requests and result cannot
// exceed them); a client too slow for the write timeout, or one that
// falls further behind than that bound, loses its connection, never the
// execution: it runs to its end and its result is logged and counted.
type eventStream struct {
	s  *Server
	w  http.ResponseWriter
	rc *http.ResponseController

	// started and n belong to the handler's goroutine (send).
	started bool
	n       int

	mu     sync.Mutex
	ready  *sync.Cond
	queue  [][]byte
	queued int64
	limit  int64
	closed bool
	// finish bounds the writes left once closed: a client that reads a
	// trickle cannot hold the handler a write timeout per event.
	finish time.Time
	broken bool
	// slow is set when the client could not take a write within the
	// write timeout (or fell behind the queue's bound): its connection is
	// lost, but the execution goes on.
	slow bool
	// writing is set while the writer is in a write: net/http cancels
	// the request's context from inside a failing write, before the
	// writer can tell a timeout from a client that went away.
	writing bool
	done    chan struct{} // closed when the writer returns
}

// eventOverhead is room per event for what wraps its payload (the SSE
// lines, the event's JSON around a log text or a data request's args).
const eventOverhead = 256

// queueLimit is the most bytes of events an execution under limits can
// make the queue hold: its logs' and result's JSON (each within the
// output limit), its data requests' arguments (within data_bytes), and
// per event some overhead, with the number of log events bounded by the
// log bytes (each entry's JSON is at least a few bytes) and of data
// requests by data_requests.
func queueLimit(l contract.Limits) int64 {
	const minLogEntry = 16
	events := l.OutputBytes/minLogEntry + l.DataRequests + 3
	return 2*l.OutputBytes + l.DataBytes + events*eventOverhead
}

func newEventStream(s *Server, w http.ResponseWriter, limits contract.Limits) *eventStream {
	o := &eventStream{s: s, w: w, rc: http.NewResponseController(w), limit: queueLimit(limits), done: make(chan struct{})}
	o.ready = sync.NewCond(&o.mu)
	return o
}

// send queues ev; the first call writes the status and starts the
// writer.
func (o *eventStream) send(ev contract.Event) {
	b, err := json.Marshal(ev)
	if err != nil {
		return
	}
	o.n++
	frame := fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", o.n, ev.Type, b)
	if !o.started {
		h := o.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		o.w.WriteHeader(http.StatusOK)
		o.started = true
		go o.write()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken {
		return
	}
	if o.queued+int64(len(frame)) > o.limit {
		// More than the execution's limits can make: drop the client
		// rather than hold more.
		o.broken, o.slow = true, true
		o.queue, o.queued = nil, 0
		o.ready.Broadcast()
		return
	}
	o.queue = append(o.queue, frame)
	o.queued += int64(len(frame))
	o.ready.Broadcast()
}

// write is the writer goroutine: it writes queued events, each write
// bounded by the write timeout, until close and the queue is empty.
func (o *eventStream) write() {
	defer close(o.done)
	for {
		o.mu.Lock()
		for len(o.queue) == 0 && !o.closed && !o.broken {
			o.ready.Wait()
		}
		batch := o.queue
		o.queue, o.queued = nil, 0
		stop := o.broken || (o.closed && len(batch) == 0)
		finish := o.finish
		o.writing = !stop
		o.mu.Unlock()
		if stop {
			return
		}
		err := o.writeBatch(batch, finish)
		o.mu.Lock()
		o.writing = false
		if err != nil {
			// The client is gone (its execution is aborted through the
			// request's context) or too slow for the write timeout (it
			// loses the connection; the execution goes on).
			o.broken = true
			o.slow = errors.Is(err, os.ErrDeadlineExceeded)
			o.queue, o.queued = nil, 0
		}
		o.ready.Broadcast()
		o.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (o *eventStream) writeBatch(batch [][]byte, finish time.Time) error {
	for _, frame := range batch {
		deadline := time.Now().Add(o.s.opt.WriteTimeout)
		if !finish.IsZero() && finish.Before(deadline) {
			deadline = finish
		}
		o.rc.SetWriteDeadline(deadline)
		n, err := o.w.Write(frame)
		o.s.metrics.bytesOut.Add(float64(n))
		if err != nil {
			return err
		}
	}
	return o.rc.Flush()
}

// tooSlow reports whether the client lost its connection for being too
// slow, rather than by going away, once the write in progress (if any)
// has returned.
func (o *eventStream) tooSlow() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.writing {
		o.ready.Wait()
	}
	return o.slow
}

// close ends the stream once the writer has written every queued event
// (or given up on the client) and reports whether every event reached
// the connection. It may be called more than once.
func (o *eventStream) close() (delivered bool) {
	if !o.started {
		return true
	}
	o.mu.Lock()
	if !o.closed {
		o.closed = true
		o.finish = time.Now().Add(o.s.opt.WriteTimeout)
	}
	o.ready.Broadcast()
	o.mu.Unlock()
	<-o.done
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.broken
}
