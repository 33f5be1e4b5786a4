//go:build wardenfaults

package child

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// Faults that overload the child (CPU, memory, the wire) or break its
// result: what the supervisor must survive from a child whose Go side no
// longer honours the limits.

// burnSink keeps the spinning faults' loops from being optimised away.
var burnSink uint64

// overloadBurn spins on the CPU, deaf to the deadline, until something
// kills the child.
func overloadBurn(context.Context, string) (*contract.Result, error) {
	for n := uint64(0); ; n++ {
		burnSink = n
	}
}

// overloadOOM allocates and touches Go memory until something stops it.
func overloadOOM(context.Context, string) (*contract.Result, error) {
	var keep [][]byte
	for {
		b := make([]byte, 4<<20)
		for i := range b {
			b[i] = 1
		}
		keep = append(keep, b)
		time.Sleep(time.Millisecond)
	}
}

// overloadBroker sends many large messages through go-plugin's broker
// (arg says how many, of how many bytes, as "N,SIZE"), then waits for the
// supervisor to kill this child.
func overloadBroker(ctx context.Context, arg string) (*contract.Result, error) {
	var n, size int
	if _, err := fmt.Sscanf(arg, "%d,%d", &n, &size); err != nil {
		return nil, err
	}
	if err := ipc.FaultFloodBroker(n, size); err != nil {
		return nil, err
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// resultFlood is a result far over what the limits allow.
func resultFlood(context.Context, string) (*contract.Result, error) {
	return quoted(strings.Repeat("x", 8<<20))
}

// resultBadValue is a result whose value is not JSON.
func resultBadValue(context.Context, string) (*contract.Result, error) {
	res := faultValue([]byte(`{"a":`))
	return &res, nil
}

// resultWTF8Value is a result whose value is JSON but not UTF-8: a lone
// surrogate as QuickJS's WTF-8 writes it, which the engine escapes.
func resultWTF8Value(context.Context, string) (*contract.Result, error) {
	res := faultValue([]byte("[\"\xed\xa0\x80\"]"))
	return &res, nil
}

// parkJunk parks with arg as the engine's state, waiting on a data
// request the execution never made: what a subverted child could make
// the supervisor seal.
func parkJunk(_ context.Context, arg string) (*contract.Result, error) {
	return &contract.Result{Logs: []contract.LogEntry{}, Parked: &contract.Parked{State: []byte(arg),
		Pending: []contract.PendingRequest{{Seq: 1, Name: "x", Args: []byte("null")}}}}, nil
}

// parkHuge parks with a 17 MiB state, over the default park_bytes.
func parkHuge(ctx context.Context, _ string) (*contract.Result, error) {
	return parkJunk(ctx, strings.Repeat("s", 17<<20))
}
