package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/wardenhq/warden/contract"
)

// host.request is asynchronous inside the engine: the host function
// queues the request (hostRequest) and the engine's loop, once no job is
// left to run, calls the data handler for the first one and settles its
// promise. No WebAssembly frame is live at that point, which is what
// lets an execution park there: its whole state is the instance's
// memory, its stack pointer and what this file and park.go keep.

// parkedOutcome is what settle returns once the execution has parked
// (x.parked holds the state): not an error, the end of this run.
var parkedOutcome = &contract.Error{Type: "Parked"}

// serveRequest calls the data handler for the first queued request and
// settles its promise. A handler that returns ErrPark parks the
// execution here when it may; when it may not, or the state does not
// fit, the handler is called again with the reason (ParkRefused).
func (x *execution) serveRequest() *contract.Error {
	r := x.queued[0]
	ctx := contract.WithRequestSeq(x.deadlineCtx, r.Seq)
	ans, err := contract.CallDataHandler(ctx, x.opts.Handler, r.Name, r.Args)
	if errors.Is(err, contract.ErrPark) {
		why := x.tryPark()
		if why == nil {
			return parkedOutcome
		}
		ans, err = contract.CallDataHandler(contract.WithParkRefused(ctx, why), x.opts.Handler, r.Name, r.Args)
		if errors.Is(err, contract.ErrPark) {
			err = fmt.Errorf("host.request %q: parking was refused (%v), and the data handler asked to park again", r.Name, why)
		}
	}
	x.queued = x.queued[1:]
	return x.deliver(r.Seq, ans, err)
}

// deliver settles request seq's promise with the handler's answer (or
// its error), counting the answer against data_bytes first.
func (x *execution) deliver(seq int64, ans json.RawMessage, handlerErr error) *contract.Error {
	vm := x.vm
	head, body := "1", ans
	if handlerErr != nil {
		head, body = "0", []byte(handlerErr.Error())
	}
	if int64(len(body)) > x.limits.DataBytes-x.dataBytes {
		return contract.ResourceErrorf(contract.KindDataBytes, "host.request traffic over the %d-byte data_bytes limit", x.limits.DataBytes)
	}
	x.dataBytes += int64(len(body))
	seqBox, err := vm.newString(strconv.FormatInt(seq, 10))
	if err != nil {
		return x.classify(err)
	}
	defer vm.freeValue(seqBox)
	ansBox, err := vm.newStringBytes([]byte(head), body)
	if err != nil {
		return x.classify(err)
	}
	defer vm.freeValue(ansBox)
	if _, err := vm.callFunction(vm.api.answer, seqBox, ansBox); err != nil {
		return x.classify(err)
	}
	return nil
}

// dropRequests calls the data handler for the requests still queued when
// the result settled, whose answers no code can read any more: a
// request the code made and did not wait for still reaches the handler,
// as it did when the handler was called at once.
func (x *execution) dropRequests() {
	for _, r := range x.queued {
		contract.CallDataHandler(contract.WithRequestSeq(x.deadlineCtx, r.Seq), x.opts.Handler, r.Name, r.Args)
	}
	x.queued = nil
}

// tryPark saves the execution's state (park.go) and reports why it could
// not, if it could not.
func (x *execution) tryPark() error {
	if !x.park {
		return errors.New("the request does not allow parking")
	}
	state, err := x.saveState()
	if err != nil {
		return err
	}
	if int64(len(state)) > x.limits.ParkBytes {
		return fmt.Errorf("the state is %d bytes, over the %d-byte park_bytes limit", len(state), x.limits.ParkBytes)
	}
	x.parked = &contract.Parked{State: state, Pending: slices.Clone(x.queued)}
	return nil
}
