package supervisor

// The request path: one execution from the caller's request to its
// envelope, on one child taken from the pool.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/pool"
)

// Execute runs req in a fresh child and returns its envelope. The error is
// the envelope's error (nil when it is ok), so errors.Is(err,
// contract.ErrTimeout) and friends work.
func (s *Supervisor) Execute(ctx context.Context, req contract.Request, handler contract.DataHandler) (contract.Result, error) {
	return s.Stream(ctx, req, handler, nil)
}

// Stream is Execute that also calls onEvent, on the calling goroutine, for
// every event as it happens: started, log, data_request and finally
// result.
func (s *Supervisor) Stream(ctx context.Context, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event)) (contract.Result, error) {
	res := s.run(ctx, req, handler, onEvent)
	if onEvent != nil {
		r := res
		onEvent(contract.Event{Type: contract.EventResult, ExecutionID: req.ID, Result: &r})
	}
	s.executions.Add(1)
	if !res.OK && res.Parked == nil {
		s.failures.Add(1)
	}
	return res, res.Err()
}

// DefaultMaxInputBytes is Config.MaxInputBytes's default, 16 MiB: far
// above what a script's input is meant for (bulk data belongs in
// host.request answers, which the data limits bound), and small enough
// that the supervisor's copy and the child's decode stay cheap.
const DefaultMaxInputBytes = 16 << 20

// checkSize refuses, before a child is taken, a request larger than the
// wire to a child carries (ipc.DeriveWireCaps counts on these bounds):
// its input over MaxInputBytes, its id over contract.MaxIDBytes, its code
// and modules over its code limit (the engine's own check, made here so
// that such code never crosses the wire).
func (s *Supervisor) checkSize(req contract.Request) *contract.Error {
	if n := int64(len(req.Input)); n > s.cfg.MaxInputBytes {
		return contract.Errorf(contract.ContractError,
			"input is %d bytes, over the supervisor's cap of %d bytes (MaxInputBytes)", n, s.cfg.MaxInputBytes)
	}
	if err := contract.CheckID(req.ID); err != nil {
		return err
	}
	return contract.CheckCodeSize(req, req.Limits)
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Supervisor) run(ctx context.Context, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event)) contract.Result {
	start := time.Now()
	if req.ID == "" {
		req.ID = newID()
	}
	limits, clamped, err := contract.Resolve(req.Limits, s.cfg.Defaults, s.cfg.Caps)
	if err != nil {
		return contract.Fail(err, limits)
	}
	req.Limits = limits
	if err := s.checkSize(req); err != nil {
		res := contract.Fail(err, limits)
		res.Clamped = clamped
		return res
	}
	if err := errors.Join(req.Check(), checkShadowing(s.registry, req)); err != nil {
		res := contract.Fail(err, limits)
		res.Clamped = clamped
		return res
	}
	if s.closed.Load() {
		res := contract.Fail(contract.Errorf(contract.CapacityError, "supervisor is closed"), limits)
		res.Clamped = clamped
		return res
	}

	res := s.attempts(ctx, req, nil, handler, onEvent, start)
	res.Clamped = clamped
	return res
}

// resumeJob is what a run needs to resume a parked execution rather
// than start one: the engine's state, the answers given, the last data
// request seq the child sent, and the time the execution used before.
type resumeJob struct {
	state     []byte
	answers   map[int64]contract.Answer
	lastSeq   int64
	dataBytes int64
	used      time.Duration
}

// attempts runs req (or resumes rj) on a child, taking another when one
// dies before it starts, and seals the state of an execution that parks.
func (s *Supervisor) attempts(ctx context.Context, req contract.Request, rj *resumeJob, handler contract.DataHandler, onEvent func(contract.Event), start time.Time) contract.Result {
	lastSeq := int64(0)
	if rj != nil {
		lastSeq = rj.lastSeq
	}
	seen := func(ev contract.Event) {
		if ev.Type == contract.EventDataRequest {
			lastSeq = max(lastSeq, ev.DataRequest.Seq)
		}
		if onEvent != nil {
			onEvent(ev)
		}
	}
	queued := time.Now()
	for attempt := 1; ; attempt++ {
		res, traffic, retry := s.runOnce(ctx, req, rj, handler, seen, start, queued)
		// A child that died while idle (killed from outside, say) can be
		// handed out before the pool notices. If it never started the
		// execution, nothing of it ran: take another child.
		if !retry || attempt == maxAttempts || ctx.Err() != nil {
			if res.Parked != nil {
				// The supervisor's own measure of the time used, not the
				// child's: a child cannot buy its execution more time.
				used := time.Since(start)
				if rj != nil {
					used += rj.used
				}
				if err := s.seal(req, &res, lastSeq, traffic, used); err != nil {
					return contract.Fail(contract.Errorf(contract.SandboxError, "seal the parked state: %v", err), req.Limits)
				}
			}
			return res
		}
		s.log.Warn("child died before starting the execution; retrying on another", "attempt", attempt, "error", res.Error)
	}
}

// maxAttempts bounds the children one execution may try when they die
// before starting it.
const maxAttempts = 3

// runOnce takes one child and runs req on it (or resumes rj). retry is
// true when the child failed before it started the execution; traffic
// is its data traffic, as the wire counted it. start is when the call
// began (for Stats.Execution), queued when it began to wait for a child.
func (s *Supervisor) runOnce(ctx context.Context, req contract.Request, rj *resumeJob, handler contract.DataHandler, onEvent func(contract.Event), start, queued time.Time) (res contract.Result, traffic int64, retry bool) {
	res, p, retry := s.takeAndRun(ctx, req, rj, handler, onEvent, start, queued)
	if p != nil {
		traffic = p.client().DataBytes()
	}
	return res, traffic, retry
}

// takeAndRun is runOnce's work; p is the child it took, if it took one.
func (s *Supervisor) takeAndRun(ctx context.Context, req contract.Request, rj *resumeJob, handler contract.DataHandler, onEvent func(contract.Event), start, queued time.Time) (res contract.Result, p *process, retry bool) {
	limits := req.Limits
	fail := func(err error) contract.Result { return contract.Fail(err, limits) }
	p, err := s.pool.Get(ctx, profileOf(req, s.buckets))
	wait := time.Since(queued)
	switch {
	case err == nil:
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		if errors.Is(err, context.Canceled) {
			return fail(contract.Errorf(contract.AbortError, "cancelled while waiting for a child")), nil, false
		}
		return fail(contract.Errorf(contract.TimeoutError, "deadline passed while waiting for a child")), nil, false
	case errors.Is(err, pool.ErrExhausted):
		st := s.pool.Stats()
		msg := fmt.Sprintf("no child became free within %v (%d busy, %d starting; %d of at most %d children alive)",
			wait.Round(time.Millisecond), st.Busy, st.Spawning, st.Live, st.MaxChildren)
		if st.LastSpawnError != "" {
			msg += "; last spawn error: " + st.LastSpawnError
		}
		return fail(contract.Errorf(contract.CapacityError, "%s", msg)), nil, false
	default:
		return fail(contract.Errorf(contract.CapacityError, "%v", err)), nil, false
	}
	sent := time.Now()
	res, reported, started := s.execOn(ctx, p, req, rj, handler, onEvent)
	received := time.Now()
	if peak, ok := p.cgroupPeakBytes(); ok {
		res.Stats.CgroupPeakBytes = peak
	}
	if !reported && p.oomKilled() {
		res.OK, res.Value = false, nil
		res.Error = contract.ResourceErrorf(contract.KindOOMKill,
			"the child was OOM-killed by its cgroup (memory cap %d bytes)", p.memoryCap())
	}
	res.Stats.QueueWaitMS = contract.Millis(wait)
	res.Stats.ChildPID = p.pid()
	p.killGroup()
	if reported {
		if s.cfg.ReapedUsage {
			// The caller wants the kernel's figures: wait for the reap
			// (not for the cgroup's removal).
			p.reap()
			p.reportKernelUsage(&res.Stats)
		}
		// The child reported with the result; removing it (several ms of
		// process teardown) happens off the caller's path.
		s.discardLater(p)
		s.execPhases.addExecution(start, sent, received, time.Now(), res.Stats.WallMS)
		return res, p, false
	}
	if res.Error != nil && res.Error.Type == contract.TimeoutError && !s.cfg.ReapedUsage {
		// Killed at its deadline: its exit tells nothing the envelope
		// lacks, and the reap (milliseconds of the kernel tearing the
		// process down) would only make the caller later past the
		// deadline.
		s.discardLater(p)
		return res, p, false
	}
	// The child could not report: reap it now and take the kernel's
	// figures, and its exit signal.
	s.pool.Done(p)
	p.reportKernelUsage(&res.Stats)
	if p.killedBySeccomp() && res.Error != nil && res.Error.Type == contract.SandboxError {
		res.Error.Message = "the child was killed by its seccomp filter: it made a forbidden system call (" + res.Error.Message + ")"
	}
	return res, p, !started && res.Error != nil && res.Error.Type == contract.SandboxError
}

// discardLater hands p back to the pool, which removes it, off the
// caller's path; Close waits for it.
func (s *Supervisor) discardLater(p *process) {
	s.reaping.Add(1)
	go func() {
		defer s.reaping.Done()
		s.pool.Done(p)
	}()
}

// execOn runs req on child p with the three timeout layers. reported is
// true when the envelope came from the child itself, started when the
// child said it began the execution.
//
// An envelope the child could not send (it was killed, or died) is the
// supervisor's: it carries the logs the child streamed before the end
// (runawayLogs) and, as stats.wall_ms, the supervisor's own measure from
// sending the request to the kill.
func (s *Supervisor) execOn(ctx context.Context, p *process, req contract.Request, rj *resumeJob, handler contract.DataHandler, onEvent func(contract.Event)) (res contract.Result, reported, started bool) {
	sent := time.Now()
	timeout := req.Limits.Timeout
	if rj != nil {
		// What the execution used before it parked counts; the time it
		// spent parked does not.
		timeout -= rj.used
	}
	deadline := sent.Add(timeout)
	hard := deadline.Add(s.cfg.KillGrace)
	streamCtx, cancel := context.WithDeadline(ctx, hard)
	defer cancel()
	// The kill happens once, from the timer at the hard deadline or from
	// here when the stream ends without a result; killOnce.Do returns
	// only once it did, so what it records is final after kill.
	var (
		killOnce sync.Once
		killedAt time.Time
		timedOut bool
	)
	kill := func(atDeadline bool) {
		killOnce.Do(func() {
			killedAt = time.Now()
			if atDeadline {
				timedOut = true
				s.kills.Add(1)
			}
			p.killGroup()
		})
	}
	killer := time.AfterFunc(time.Until(hard), func() { kill(true) })
	defer killer.Stop()

	var logs runawayLogs
	forward := func(ev contract.Event) {
		switch ev.Type {
		case contract.EventStarted:
			started = true
		case contract.EventLog:
			logs.add(ev.Log)
		}
		if onEvent != nil {
			onEvent(ev)
		}
	}
	var err error
	if rj != nil {
		res, err = p.client().Resume(streamCtx, req, rj.state, rj.answers, rj.lastSeq, rj.dataBytes, forward, boundHandler(handler))
	} else {
		res, err = p.client().Execute(streamCtx, req, forward, boundHandler(handler))
	}
	if err == nil {
		return res, true, true
	}
	// Classify from what the supervisor knows; the child is finished
	// either way. The stream's deadline, unless the caller's came first,
	// is the timer's: whichever fires first, it is the hard kill.
	kill(errors.Is(streamCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil)
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		res = contract.Fail(contract.Errorf(contract.AbortError, "execution cancelled by the caller"), req.Limits)
	case timedOut || errors.Is(streamCtx.Err(), context.DeadlineExceeded):
		res = contract.Fail(contract.Errorf(contract.TimeoutError,
			"execution exceeded its %v deadline; the child was killed", req.Limits.Timeout), req.Limits)
	default:
		e := contract.AsError(err)
		if e.Type != contract.SandboxError {
			e = &contract.Error{Type: contract.SandboxError, Message: err.Error()}
		}
		res = contract.Fail(e, req.Limits)
	}
	res.Logs, res.Stats.LogBytes = logs.bounded(req.Limits.OutputBytes)
	res.Stats.WallMS = contract.Millis(killedAt.Sub(sent))
	return res, false, started
}

// boundHandler bounds handler by the execution: it runs on its own
// goroutine, and the execution stops waiting for it when the handler's
// ctx ends (the stream's, at the deadline plus the grace), even when the
// handler ignores its ctx. The child's own deadline answers the guest
// first; the kill is the backstop. Everything else about data requests
// (the events, their count and size, no handler, null, JSON) is
// ipc.Client's, under contract.CallDataHandler's policy.
func boundHandler(handler contract.DataHandler) contract.DataHandler {
	if handler == nil {
		return nil
	}
	return func(hctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		type answer struct {
			v   json.RawMessage
			err error
		}
		ch := make(chan answer, 1)
		go func() {
			v, err := handler(hctx, name, args)
			ch <- answer{v, err}
		}()
		select {
		case a := <-ch:
			return a.v, a.err
		case <-hctx.Done():
			return nil, fmt.Errorf("host.request %q: the data handler did not answer before the deadline", name)
		}
	}
}
