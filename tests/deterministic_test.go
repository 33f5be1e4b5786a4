package tests

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/recording"
	"github.com/wardenhq/warden/supervisor"
)

// TestDeterministicAcrossChildren: a script that reads every source of
// entropy and time the engine pins, run 20 times in deterministic mode,
// each in its own child restored from the heap snapshot, gives
// byte-identical envelopes but for stats; so does a module that reads
// the clock when it loads, registered in the snapshot. Each run's
// recording replays to the same envelope.
func TestDeterministicAcrossChildren(t *testing.T) {
	src, err := os.ReadFile("../child/engine/testdata/deterministic.js")
	if err != nil {
		t.Fatal(err)
	}
	s := newSupervisor(t, func(c *supervisor.Config) {
		c.Modules = map[string]string{"loadclock": "export const loadedAt = Date.now(); export const r = Math.random();"}
	})
	echo := func(_ context.Context, _ string, args json.RawMessage) (json.RawMessage, error) { return args, nil }
	det := &contract.Deterministic{Seed: 7, NowMS: 1_000_000_000_000}
	run := func(ctx context.Context, req contract.Request, h contract.DataHandler) contract.Result {
		res, _ := s.Execute(ctx, req, h)
		return res
	}
	for _, req := range []contract.Request{
		{Code: string(src), Deterministic: det},
		{Code: `import { loadedAt, r } from "loadclock"; export default [loadedAt, r, Date.now(), Math.random()];`, Deterministic: det},
	} {
		var first string
		pids := map[int]bool{}
		for i := 0; i < 20; i++ {
			rec := recording.Record(context.Background(), run, req, echo)
			res := rec.Envelope
			if !res.OK {
				t.Fatalf("run %d: %+v", i, res.Error)
			}
			pids[res.Stats.ChildPID] = true
			res.Stats = contract.Stats{}
			b, _ := json.Marshal(res)
			if first == "" {
				first = string(b)
				t.Logf("envelope: %s", b)
			} else if string(b) != first {
				t.Fatalf("run %d in child %d differs:\n got %s\nwant %s", i, rec.Envelope.Stats.ChildPID, b, first)
			}
			if i%5 == 0 {
				if _, diff := recording.Replay(context.Background(), run, rec); diff != nil {
					t.Fatalf("replay of run %d differs: %v", i, diff)
				}
			}
		}
		if len(pids) < 20 {
			t.Errorf("20 runs took %d distinct children, want 20", len(pids))
		}
	}
}
