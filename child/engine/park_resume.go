package engine

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/wardenhq/warden/contract"
)

// Resume continues a parked execution (Result.Parked.State, as this
// engine's VMs write it) on vm, a VM fresh from the same heap snapshot:
// its memory gets the state's pages, the execution its counters, logs,
// queued requests and clocks back, answers settles the requests it
// names (by sequence number), and the run goes on to its end, the next
// park or the deadline. The time it used before it parked counts
// against its timeout; the time it spent parked does not.
func (vm *VM) Resume(ctx context.Context, state []byte, answers map[int64]contract.Answer, opts RunOptions) contract.Result {
	start := time.Now()
	h, data, err := decodeState(state, vm.maxPages)
	if err != nil {
		return contract.Fail(err, contract.Limits{})
	}
	limits := h.Request.Limits
	res := contract.Result{Logs: []contract.LogEntry{}, Limits: limits}
	if e := vm.admitResume(h); e != nil {
		res.Error = e
		return res
	}
	if err := restoreMemory(vm.mod, h, data); err != nil {
		res.Error = contract.AsError(err)
		return res
	}
	ts := transpile(h.Request)

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()
	left := limits.Timeout - time.Duration(h.WallNS)
	x, cancel := vm.startExecution(ctx, limits, opts, h.Request.Modules, start.Add(left))
	defer cancel()
	x.imports, x.ts, x.req, x.park, x.started, x.cpu0 = h.Request.Imports, ts, h.Request, h.Request.Park, start, cpu0
	x.ph, x.source, x.promise = phaseRun, h.Source, h.Promise
	x.requests, x.dataBytes, x.logs, x.logBytes, x.logsCut, x.queued = h.Requests, h.DataBytes, h.Logs, h.LogBytes, h.LogsCut, h.Pending
	x.monoOffset = h.MonotonicNS - monotonicNS()
	if d := h.Det; d != nil {
		x.det = newDeterminism(*h.Request.Deterministic)
		x.det.stream.UnmarshalBinary(d.Stream) // decodeState checked it
		x.det.nowNS, x.det.elapsed = d.NowNS, time.Duration(d.ElapsedNS)
	}
	value, runErr := x.resumeWith(answers)
	return x.envelope(res, value, runErr, time.Duration(h.WallNS), time.Duration(h.CPUNS))
}

// Resume is VM.Resume on a VM of this engine, fresh from its heap
// snapshot, of the memory profile the state's limits need.
func (e *Engine) Resume(ctx context.Context, state []byte, answers map[int64]contract.Answer, opts RunOptions) contract.Result {
	if !e.FromSnapshot() {
		return contract.Fail(contract.Errorf(contract.ContractError, "parked state: this engine has no heap snapshot to resume it on"), contract.Limits{})
	}
	limits, err := stateLimits(state)
	if err != nil {
		return contract.Fail(err, contract.Limits{})
	}
	vm, err := e.NewVM(ctx, limits.MemoryBytes)
	if err != nil {
		return contract.Fail(contract.Errorf(contract.SandboxError, "start engine: %v", err), limits)
	}
	defer vm.Close(context.WithoutCancel(ctx))
	return vm.Resume(ctx, state, answers, opts)
}

// admitResume checks that h was written by this build, from this VM's
// snapshot, for limits this VM can hold, and takes the VM's one run.
func (vm *VM) admitResume(h *parkHeader) *contract.Error {
	switch {
	case vm.used:
		return contract.Errorf(contract.SandboxError, "engine: a VM runs exactly one execution")
	case h.Wasm != WasmSHA256:
		return contract.Errorf(contract.ContractError, "parked state: made with another QuickJS module")
	case vm.snapshotKey == "" || h.Snapshot != vm.snapshotKey:
		return contract.Errorf(contract.ContractError, "parked state: made from another heap snapshot (another build, prelude or set of registered modules)")
	}
	vm.used = true
	limits := h.Request.Limits
	if err := limits.CheckResolved(); err != nil {
		return contract.AsError(err)
	}
	if limits.MemoryBytes > vm.memoryBytes {
		return contract.Errorf(contract.SandboxError, "engine: VM was prepared for %d bytes of memory, the state needs %d", vm.memoryBytes, limits.MemoryBytes)
	}
	if h.WallNS < 0 || time.Duration(h.WallNS) >= limits.Timeout {
		return contract.Errorf(contract.ContractError, "parked state: it used %v of its %v timeout", time.Duration(h.WallNS), limits.Timeout)
	}
	if h.Request.Deterministic == nil && h.Det != nil || h.Request.Deterministic != nil && h.Det == nil {
		return contract.Errorf(contract.ContractError, "parked state: its deterministic mode and its request disagree")
	}
	return nil
}

// restoreMemory gives mod the state's memory: grown to its pages, its
// ranges written over the snapshot's image, its stack pointer set.
func restoreMemory(mod api.Module, h *parkHeader, data []byte) error {
	m := mod.Memory()
	if cur := m.Size() / wasmPage; h.Pages > cur {
		if _, ok := m.Grow(h.Pages - cur); !ok {
			return contract.Errorf(contract.ContractError, "parked state: cannot grow memory to %d pages", h.Pages)
		}
	}
	if m.Size() != h.Pages*wasmPage {
		return contract.Errorf(contract.ContractError, "parked state: %d pages, memory has %d bytes", h.Pages, m.Size())
	}
	for _, r := range h.Runs {
		if !m.Write(r.Offset, data[:r.Len]) {
			return fmt.Errorf("engine: parked state: range %d+%d out of memory", r.Offset, r.Len)
		}
		data = data[r.Len:]
	}
	sp, ok := mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok {
		return fmt.Errorf("engine: the module has no mutable __stack_pointer")
	}
	sp.Set(uint64(h.StackPointer))
	return nil
}

// resumeWith settles the queued requests answers names, then goes on
// settling the result's promise.
func (x *execution) resumeWith(answers map[int64]contract.Answer) (string, *contract.Error) {
	vm := x.vm
	if _, err := vm.call(vm.fn.setMemoryLimit, uint64(x.heapLimit())); err != nil {
		return "", x.classify(err)
	}
	if _, err := vm.call(vm.fn.setMaxStackSize, uint64(x.limits.StackBytes)); err != nil {
		return "", x.classify(err)
	}
	queued := map[int64]bool{}
	for _, r := range x.queued {
		queued[r.Seq] = true
	}
	for seq, a := range answers {
		switch {
		case !queued[seq]:
			return "", contract.Errorf(contract.ContractError, "an answer to data request %d, which the execution is not waiting on", seq)
		case (a.Value == nil) == (a.Error == ""):
			return "", contract.Errorf(contract.ContractError, "the answer to data request %d must have exactly one of value and error", seq)
		case a.Value != nil && !contract.ValidJSON(a.Value):
			return "", contract.Errorf(contract.ContractError, "the answer to data request %d is %s", seq, contract.WhyNotJSON(a.Value))
		}
	}
	rest := x.queued[:0:0]
	for _, r := range x.queued {
		a, ok := answers[r.Seq]
		if !ok {
			rest = append(rest, r)
			continue
		}
		var err error
		if a.Value == nil {
			err = answerError(a.Error)
		}
		if e := x.deliver(r.Seq, a.Value, err); e != nil {
			return "", e
		}
	}
	x.queued = rest
	return x.settle(x.promise)
}

// answerError is an Answer's error as the handler's would have been.
type answerError string

func (e answerError) Error() string { return string(e) }
