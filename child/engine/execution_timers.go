package engine

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Timers: the prelude keeps the queue (web/15-timers.js) and runs the
// callbacks; the engine's loop (settle) asks it, whenever no job is
// pending, to run the next due callback, and otherwise waits, without
// spending CPU, until the next one is due, the deadline passes or the
// caller goes. RATIONALE.md, "Timers: the queue in the prelude, the
// waiting in Go", says why the queue is not Go's.

// timerStep is what the prelude's timers entry point answered.
type timerStep int

const (
	timerRan  timerStep = iota // a callback ran: drain its jobs, ask again
	timerWait                  // the next timer is due after the wait
	timerNone                  // no timer keeps the execution waiting
)

// runTimers calls the prelude's timers entry point once.
func (x *execution) runTimers() (timerStep, time.Duration, error) {
	vm := x.vm
	box, err := vm.callFunction(vm.api.timers)
	if err != nil {
		return 0, 0, err
	}
	ms, err := vm.float64Of(box)
	vm.freeValue(box)
	switch {
	case err != nil:
		return 0, 0, err
	case ms == 0:
		return timerRan, 0, nil
	case ms < 0:
		return timerNone, 0, nil
	case math.IsNaN(ms) || math.IsInf(ms, 0):
		return 0, 0, fmt.Errorf("engine: the prelude's timers answered %v", ms)
	}
	// Round up: waking before the timer is due would only ask again.
	return timerWait, time.Duration(math.Ceil(ms * float64(time.Millisecond))), nil
}

// modeText is what the prelude's run and setTimers take (its setMode):
// the timers limit in decimal, then " virtual-clock" when x is
// deterministic.
func (x *execution) modeText() string {
	s := strconv.FormatInt(x.limits.Timers, 10)
	if x.det != nil {
		s += " virtual-clock"
	}
	return s
}

// sleep blocks for d, or until the deadline passes or the caller's
// context ends, whichever comes first (settle then reports which).
func (x *execution) sleep(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-x.deadlineCtx.Done():
	}
}

// float64Of reads a number value as a float64. call cannot: it keeps the
// low 32 bits of an export's result.
func (vm *VM) float64Of(box uint32) (float64, error) {
	if vm.broken != nil {
		return 0, vm.broken
	}
	res, err := vm.fn.getFloat64.Call(vm.callCtx, uint64(box))
	if err != nil {
		vm.broken = &errTrap{err}
		return 0, vm.broken
	}
	if len(res) != 1 {
		return 0, errors.New("engine: qjs_get_float64 returned no value")
	}
	return math.Float64frombits(res[0]), nil
}
