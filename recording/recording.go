// Package recording records an execution so that it can be run again
// exactly, and replays it: the request, in deterministic mode
// (contract.Deterministic: a seed and a start time), every data answer
// in the order the code asked for them, and the envelope it gave. A
// replay runs the same request with the recorded answers and compares
// the envelopes but for their stats. It works over any executor:
// `supervisor.Supervisor.Execute`, the in-process engine, or a daemon
// through `client.Client.Stream`, whose data requests are answered by
// the caller's handler, here the recorder's or the replayer's.
package recording

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Version is the format of a Recording (its "warden_recording" field).
const Version = 1

// Recording is one recorded execution.
type Recording struct {
	Version int `json:"warden_recording"`
	// Request is what ran, with its Deterministic set.
	Request contract.Request `json:"request"`
	// Answers are the data requests the code made and what answered
	// each, in order.
	Answers []Answer `json:"answers"`
	// Envelope is the result it gave.
	Envelope contract.Result `json:"envelope"`
}

// Answer is one data request and its answer: a value, or the error
// message the code's promise was rejected with.
type Answer struct {
	Name  string          `json:"name"`
	Args  json.RawMessage `json:"args"`
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
}

// Deterministic returns req in deterministic mode: its own seed and
// start time if it has them, else a seed drawn from the operating
// system's generator and the current time.
func Deterministic(req contract.Request) contract.Request {
	if req.Deterministic != nil {
		return req
	}
	var b [8]byte
	rand.Read(b[:])
	req.Deterministic = &contract.Deterministic{
		Seed:  binary.LittleEndian.Uint64(b[:]) & contract.MaxSafeSeed,
		NowMS: time.Now().UnixMilli(),
	}
	return req
}

// Recorder records the answers a data handler gives.
type Recorder struct {
	handler contract.DataHandler
	mu      sync.Mutex
	answers []Answer
}

// NewRecorder records what h answers (nil: every request refused, as
// with no handler).
func NewRecorder(h contract.DataHandler) *Recorder { return &Recorder{handler: h} }

// Handler is the handler to run the execution with.
func (r *Recorder) Handler() contract.DataHandler {
	return func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		v, err := contract.CallDataHandler(ctx, r.handler, name, args)
		a := Answer{Name: name, Args: append(json.RawMessage(nil), orNull(args)...)}
		if err != nil {
			a.Error = err.Error()
		} else {
			a.Value = append(json.RawMessage(nil), v...)
		}
		r.mu.Lock()
		r.answers = append(r.answers, a)
		r.mu.Unlock()
		return v, err
	}
}

// Recording is what was recorded, given the request that ran and the
// envelope it gave.
func (r *Recorder) Recording(req contract.Request, res contract.Result) *Recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &Recording{Version: Version, Request: req, Answers: slices.Clone(r.answers), Envelope: res}
}

// Replayer answers a replay's data requests from rec, in order. A
// request that is not the recorded one (another name or arguments, or
// one more than were recorded) is answered with an error that says so,
// and the replay's envelope will differ.
func Replayer(rec *Recording) contract.DataHandler {
	var mu sync.Mutex
	next := 0
	return func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		mu.Lock()
		i := next
		next++
		mu.Unlock()
		if i >= len(rec.Answers) {
			return nil, fmt.Errorf("replay: data request %d (%q) was not recorded: the recording has %d", i+1, name, len(rec.Answers))
		}
		a := rec.Answers[i]
		if a.Name != name || !sameJSON(a.Args, orNull(args)) {
			return nil, fmt.Errorf("replay: data request %d is %q with %s, the recording's is %q with %s", i+1, name, compact(orNull(args)), a.Name, compact(a.Args))
		}
		if a.Value == nil {
			return nil, errors.New(a.Error)
		}
		return a.Value, nil
	}
}

// Executor runs a request, as Supervisor.Execute does.
type Executor func(ctx context.Context, req contract.Request, h contract.DataHandler) contract.Result

// Record runs req in deterministic mode (Deterministic) with h answering
// its data requests, and returns the recording.
func Record(ctx context.Context, run Executor, req contract.Request, h contract.DataHandler) *Recording {
	req = Deterministic(req)
	rec := NewRecorder(h)
	res := run(ctx, req, rec.Handler())
	return rec.Recording(req, res)
}

// Replay runs rec's request again with its recorded answers, and returns
// the envelope and how it differs from the recorded one but for stats
// (nil when it does not).
func Replay(ctx context.Context, run Executor, rec *Recording) (contract.Result, []string) {
	res := run(ctx, rec.Request, Replayer(rec))
	return res, Diff(rec.Envelope, res)
}

// compact is b without insignificant space (b itself if it is not JSON).
func compact(b json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return string(a) == string(b)
	}
	return diffValues("", va, vb, nil) == nil
}

// Read reads a recording of at most limit bytes, refusing unknown fields
// and another version.
func Read(r io.Reader, limit int64) (*Recording, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("the recording is over %d bytes", limit)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var rec Recording
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("not a recording: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not a recording: more than one JSON value")
	}
	if rec.Version != Version {
		return nil, fmt.Errorf("a recording of version %d, not %d", rec.Version, Version)
	}
	// The file is indented; the answers go back to the code compact,
	// as an encoder (the recorder's, the wire's) writes them.
	for i := range rec.Answers {
		a := &rec.Answers[i]
		a.Args = json.RawMessage(compact(a.Args))
		if a.Value != nil {
			a.Value = json.RawMessage(compact(a.Value))
		}
	}
	if rec.Request.Deterministic == nil {
		return nil, errors.New("the recording's request is not deterministic: it cannot be replayed")
	}
	if err := rec.Request.Check(); err != nil {
		return nil, fmt.Errorf("the recording's request: %w", err)
	}
	return &rec, nil
}

// Write writes rec as indented JSON.
func Write(w io.Writer, rec *Recording) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rec)
}
