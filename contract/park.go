package contract

import (
	"context"
	"encoding/json"
	"errors"
)

// ErrPark is what a DataHandler returns to park the execution at that
// data request: when the request allows it (Request.Park), the
// execution's state is saved and its child exits, and the envelope is
// parked (Result.Parked) with every request still waiting for an answer.
// Resume continues it later, in a fresh child. When parking is not
// allowed or fails (the state over Limits.ParkBytes, no heap snapshot
// to save against), the handler is called again for the same request,
// with ParkRefused(ctx) saying why, and the execution waits for its
// answer as any other does.
var ErrPark = errors.New("park the execution at this data request")

// Parked is a parked execution: its sealed state, which only Resume
// reads, and the data requests waiting for answers, in order.
type Parked struct {
	// State is opaque: sealed by the supervisor (or, from the in-process
	// engine, the engine's own encoding), at most Limits.ParkBytes.
	State []byte `json:"state,omitempty"`
	// Pending are the data requests the execution waits on.
	Pending []PendingRequest `json:"pending"`
}

// PendingRequest is a data request waiting for its answer: Seq is its
// number within the execution, from 1.
type PendingRequest struct {
	Seq  int64           `json:"seq"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// Answer is the answer to a pending data request on Resume: a JSON value,
// or the message of the error the code's promise is rejected with.
type Answer struct {
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
}

type (
	parkRefusedKey struct{}
	requestSeqKey  struct{}
)

// WithRequestSeq is ctx carrying the sequence number of the data request
// a DataHandler is called for.
func WithRequestSeq(ctx context.Context, seq int64) context.Context {
	return context.WithValue(ctx, requestSeqKey{}, seq)
}

// RequestSeq is the sequence number (from 1) of the data request the
// DataHandler was called for, as Parked.Pending numbers them; 0 when ctx
// does not say.
func RequestSeq(ctx context.Context) int64 {
	seq, _ := ctx.Value(requestSeqKey{}).(int64)
	return seq
}

// WithParkRefused is ctx carrying why parking was refused, for the data
// handler's second call.
func WithParkRefused(ctx context.Context, why error) context.Context {
	return context.WithValue(ctx, parkRefusedKey{}, why)
}

// ParkRefused says why the execution could not park, when the data
// handler is called again after it returned ErrPark; nil otherwise.
func ParkRefused(ctx context.Context) error {
	err, _ := ctx.Value(parkRefusedKey{}).(error)
	return err
}
