package attacks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Executor runs one request, as supervisor.Supervisor.Execute does,
// returning its envelope.
type Executor func(ctx context.Context, req contract.Request, handler contract.DataHandler) contract.Result

// Margin is how far past its deadline an execution may end: the engine
// stops JavaScript within ms and the supervisor kills at the deadline
// plus 20 ms, but a loaded 2-core machine needs slack.
const Margin = 2 * time.Second

// Report is what one run of a script ended in.
type Report struct {
	Script *Script
	// Result is the envelope of the last execution that ran (the one the
	// expectation is about, unless an earlier step failed).
	Result contract.Result
	// Err is nil when the expectation held.
	Err     error
	Elapsed time.Duration
}

// Run runs every step of s through exec with handler (nil: Handler) and
// checks the last step's envelope against the expectation, each step's
// time in the sandbox against its deadline plus Margin, and that every
// earlier step ended ok.
func (s *Script) Run(ctx context.Context, exec Executor, handler contract.DataHandler) Report {
	if handler == nil {
		handler = Handler
	}
	rep := Report{Script: s}
	start := time.Now()
	var prev json.RawMessage
	for i, st := range s.Steps {
		req := st.Request
		if st.InputFromPrevious {
			req.Input = prev
		}
		t := time.Now()
		res := exec(ctx, req, handler)
		rep.Result = res
		if err := checkTime(req, res, time.Since(t)); err != nil {
			rep.Err = err
			break
		}
		if err := checkStack(res); err != nil {
			rep.Err = err
			break
		}
		if i < len(s.Steps)-1 {
			if !res.OK {
				rep.Err = fmt.Errorf("step %d of %d: want ok, got %v", i+1, len(s.Steps), res.Error)
				break
			}
			prev = res.Value
			continue
		}
		rep.Err = s.Expect.Check(res)
	}
	rep.Elapsed = time.Since(start)
	return rep
}

// checkTime fails an execution that ran past its deadline plus Margin
// (the time it waited for a child does not count).
func checkTime(req contract.Request, res contract.Result, took time.Duration) error {
	deadline := req.Limits.Timeout
	if res.Limits.Timeout > 0 {
		deadline = res.Limits.Timeout
	}
	if deadline == 0 {
		deadline = contract.DefaultLimits.Timeout
	}
	queued := time.Duration(res.Stats.QueueWaitMS * float64(time.Millisecond))
	if took-queued > deadline+Margin {
		return fmt.Errorf("ended %v after it started, over its %v deadline plus %v", (took - queued).Round(time.Millisecond), deadline, Margin)
	}
	return nil
}

// hostPath matches what in a stack would tell the guest's caller where
// Warden runs: an absolute path under a usual root, or a Go or C source
// position.
// Compiled on first use: every child runs this binary's package inits.
var hostPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`/(work|home|root|tmp|usr|var|proc|etc|opt|srv|dev)/|\.go:\d|\.c:\d`)
})

// checkStack fails an envelope whose JS stack names a host path, or
// shows a frame of the prelude's (which the user's stacks leave out):
// every frame should be the guest's code, its modules, code it eval'd, or
// a native it called.
func checkStack(res contract.Result) error {
	if res.Error != nil && hostPath().MatchString(res.Error.Stack) {
		return fmt.Errorf("the envelope's stack names a host path: %.300q", res.Error.Stack)
	}
	if res.Error != nil && preludeFrame().MatchString(res.Error.Stack) {
		return fmt.Errorf("the envelope's stack shows the prelude's frames: %.300q", res.Error.Stack)
	}
	return nil
}

// preludeFrame matches a frame of the prelude's in a stack.
var preludeFrame = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<warden-prelude>|    at apply \(native\)`)
})

// ErrNoData is the error Handler answers an unknown name with.
var ErrNoData = errors.New("no such data")

// Handler is the data handler the corpus is written against:
//
//	echo(args)      answers args
//	fail(args)      rejects with "refused"
//	size({n})       answers a string of n "x" (at most 64 MiB)
//	anything else   rejects with ErrNoData
func Handler(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "echo":
		return args, nil
	case "fail":
		return nil, errors.New("refused")
	case "size":
		var a struct{ N int }
		if err := json.Unmarshal(args, &a); err != nil || a.N < 0 || a.N > 64<<20 {
			return nil, fmt.Errorf("size: want {\"n\": 0..64Mi}")
		}
		return json.Marshal(strings.Repeat("x", a.N))
	}
	return nil, fmt.Errorf("%q: %w", name, ErrNoData)
}
