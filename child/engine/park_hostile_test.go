package engine

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// encodeTestState writes h and data as saveState does, for hostile
// states made from a genuine one.
func encodeTestState(t *testing.T, h *parkHeader, data []byte) []byte {
	t.Helper()
	head, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.WriteString(parkMagic)
	binary.Write(&out, binary.LittleEndian, uint32(len(head)))
	out.Write(head)
	zw, _ := flate.NewWriter(&out, flate.BestSpeed)
	zw.Write(data)
	zw.Close()
	return out.Bytes()
}

// TestResumeHostileStates: a subverted child can write any state; under
// the supervisor it reaches only a later child of its own execution.
// That child must end it with an envelope whatever the state says
// (wrong sizes, ranges, page counts, pointers, counters, memory of
// garbage: refused, trapped, or a value the state's memory holds),
// never panic or hang past its deadline.
func TestResumeHostileStates(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	res := e.Execute(context.Background(), contract.Request{Code: parkJS, Park: true}, RunOptions{Handler: parkingHandler})
	if res.Parked == nil {
		t.Fatalf("want parked, got %+v", res)
	}
	h, data, err := decodeState(res.Parked.State, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	answer := map[int64]contract.Answer{1: {Value: json.RawMessage(`"yes"`)}}
	garbage := bytes.Repeat([]byte{0xAA}, len(data))
	for name, change := range map[string]func(h *parkHeader) []byte{
		"no pages":             func(h *parkHeader) []byte { h.Pages = 0; return data },
		"too many pages":       func(h *parkHeader) []byte { h.Pages = 1 << 16; return data },
		"range past memory":    func(h *parkHeader) []byte { h.Runs = append(h.Runs, pageRun{h.Pages * wasmPage, 4096}); return data },
		"ranges overlap":       func(h *parkHeader) []byte { h.Runs = append(h.Runs, h.Runs[0]); return data },
		"less data than runs":  func(h *parkHeader) []byte { return data[:len(data)/2] },
		"more data than runs":  func(h *parkHeader) []byte { return append(data, 1, 2, 3) },
		"negative counters":    func(h *parkHeader) []byte { h.DataBytes = -1 << 40; return data },
		"pending out of order": func(h *parkHeader) []byte { h.Pending = append(h.Pending, h.Pending[0]); return data },
		"another wasm":         func(h *parkHeader) []byte { h.Wasm = "00"; return data },
		"another snapshot":     func(h *parkHeader) []byte { h.Snapshot = "x"; return data },
		"timeout used up":      func(h *parkHeader) []byte { h.WallNS = int64(time.Hour); return data },
		"promise out of range": func(h *parkHeader) []byte { h.Promise = 0xFFFFFFF0; return data },
		"promise at zero":      func(h *parkHeader) []byte { h.Promise = 0; return data },
		"promise wild":         func(h *parkHeader) []byte { h.Promise = 64; return data },
		"stack pointer wild":   func(h *parkHeader) []byte { h.StackPointer = 0xFFFFFFFF; return data },
		"memory of garbage":    func(h *parkHeader) []byte { return garbage },
		"limits unresolved":    func(h *parkHeader) []byte { h.Request.Limits = contract.Limits{}; return data },
		"deterministic mismatch": func(h *parkHeader) []byte {
			h.Request.Deterministic = &contract.Deterministic{Seed: 1}
			return data
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := *h
			c.Runs = append([]pageRun(nil), h.Runs...)
			c.Pending = append([]contract.PendingRequest(nil), h.Pending...)
			d := change(&c)
			done := make(chan contract.Result, 1)
			go func() {
				done <- e.Resume(context.Background(), encodeTestState(t, &c, d), answer, RunOptions{Handler: parkingHandler})
			}()
			select {
			case got := <-done:
				// A state can hold any guest state, a settled promise
				// included: what matters is that the run ends with an
				// envelope, whatever it says.
				switch {
				case got.OK && !contract.ValidJSON(got.Value):
					t.Fatalf("ok with a value that is not JSON: %q", got.Value)
				case !got.OK && got.Error == nil && got.Parked == nil:
					t.Fatalf("no error and not parked: %+v", got)
				}
				if got.Error != nil {
					t.Logf("%s: %s", got.Error.Type, got.Error.Message)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the resume did not end")
			}
		})
	}
	// The engine is unharmed: a genuine resume still works.
	if got := e.Resume(context.Background(), res.Parked.State, answer, RunOptions{Handler: parkingHandler}); !got.OK {
		t.Fatalf("a genuine state after the hostile ones: %+v", got.Error)
	}
}
