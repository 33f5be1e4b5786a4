package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// deterministicJS reads every source of entropy and time a guest can
// reach; tests/ runs the same file in real children.
var deterministicJS = func() string {
	b, err := os.ReadFile("testdata/deterministic.js")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func echoHandler(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	return args, nil
}

// envelope is res as JSON without its stats: what two deterministic
// runs must agree on byte for byte.
func envelope(t *testing.T, res contract.Result) string {
	t.Helper()
	res.Stats = contract.Stats{}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDeterministicRunsAgree: the same deterministic request gives the
// same envelope in every fresh VM, whether it ran init itself or was
// restored from a heap snapshot; another seed or start time gives
// another; the clock starts at now_ms and moves only with timers.
func TestDeterministicRunsAgree(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	engines := map[string]*Engine{"init": testEngine, "snapshot": snapshotEngine(t, path, digest)}
	det := &contract.Deterministic{Seed: 42, NowMS: 1767225600000} // 2026-01-01T00:00:00Z
	req := contract.Request{Code: deterministicJS, Deterministic: det}
	opts := RunOptions{Handler: echoHandler}
	var first string
	for _, name := range []string{"init", "snapshot"} {
		for i := 0; i < 10; i++ {
			res := engines[name].Execute(context.Background(), req, opts)
			if !res.OK {
				t.Fatalf("%s run %d: %+v", name, i, res.Error)
			}
			got := envelope(t, res)
			if first == "" {
				first = got
				t.Logf("envelope: %s", got)
				continue
			}
			if got != first {
				t.Fatalf("%s run %d differs:\n got %s\nwant %s", name, i, got, first)
			}
		}
	}
	var v struct {
		Now    int64     `json:"now"`
		Date   string    `json:"date"`
		Origin int64     `json:"origin"`
		Perf0  float64   `json:"perf0"`
		Slept  int64     `json:"slept"`
		Perf1  float64   `json:"perf1"`
		Ticks  []float64 `json:"ticks"`
	}
	if err := json.Unmarshal([]byte(gjson(t, first)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Now != det.NowMS || v.Date != "2026-01-01T00:00:00.000Z" || v.Origin != det.NowMS || v.Perf0 != 0 {
		t.Errorf("the clock does not start at now_ms: %+v", v)
	}
	if v.Slept != 250 || v.Perf1 != 250 || len(v.Ticks) != 3 || v.Ticks[0] != 257 || v.Ticks[2] != 271 {
		t.Errorf("the virtual clock did not move by exactly the timers' delays: %+v", v)
	}

	for _, other := range []contract.Deterministic{{Seed: 43, NowMS: det.NowMS}, {Seed: 42, NowMS: det.NowMS + 1}} {
		res := testEngine.Execute(context.Background(), contract.Request{Code: deterministicJS, Deterministic: &other}, opts)
		if !res.OK {
			t.Fatalf("%+v", res.Error)
		}
		if envelope(t, res) == first {
			t.Errorf("deterministic %+v gave the envelope of %+v", other, *det)
		}
	}
	plain := testEngine.Execute(context.Background(), contract.Request{Code: deterministicJS}, opts)
	if !plain.OK || envelope(t, plain) == first {
		t.Errorf("a request without deterministic mode gave the deterministic envelope (or failed: %+v)", plain.Error)
	}
}

// gjson is the value of res's JSON envelope.
func gjson(t *testing.T, envelope string) string {
	var e struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(envelope), &e); err != nil {
		t.Fatal(err)
	}
	return string(e.Value)
}

// TestDeterministicTimersDoNotWait: timers fire on the virtual clock,
// so a minute of setTimeout fits in a 2-second deadline, and a timer
// loop without end still meets the real deadline.
func TestDeterministicTimersDoNotWait(t *testing.T) {
	det := &contract.Deterministic{Seed: 1}
	res := run(t, contract.Request{Code: sleepJS + "const t = Date.now(); for (let i = 0; i < 60; i++) await sleep(1000); return [t, Date.now() - t]",
		Deterministic: det, Limits: contract.Limits{Timeout: 2 * time.Second}}, RunOptions{})
	check(t, res, want{value: "[0,60000]"})
	res = run(t, contract.Request{Code: "setInterval(() => {}, 1000); await new Promise(() => {})",
		Deterministic: det, Limits: contract.Limits{Timeout: 300 * time.Millisecond}}, RunOptions{})
	check(t, res, want{errType: contract.TimeoutError})
}

// TestDeterministicRefusesBadValues: a seed past Number.MAX_SAFE_INTEGER
// or a start outside Date's range is a ContractError.
func TestDeterministicRefusesBadValues(t *testing.T) {
	for _, d := range []contract.Deterministic{{Seed: contract.MaxSafeSeed + 1}, {NowMS: -1}, {NowMS: contract.MaxNowMS + 1}} {
		res := run(t, contract.Request{Code: "return 1", Deterministic: &d}, RunOptions{})
		if res.OK || res.Error.Type != contract.ContractError || !strings.Contains(res.Error.Message, "deterministic.") {
			t.Errorf("%+v: want a ContractError naming the field, got %+v", d, res.Error)
		}
	}
}

// BenchmarkDeterministic: what deterministic mode adds to a trivial
// execution, on a VM restored from the snapshot (which names the
// Math.random state) and on one that ran init (probed for it).
func BenchmarkDeterministic(b *testing.B) {
	path, digest := writeTestSnapshot(b, preludeSource())
	engines := map[string]*Engine{"init": testEngine, "snapshot": snapshotEngine(b, path, digest)}
	for _, name := range []string{"init", "snapshot"} {
		for _, det := range []*contract.Deterministic{nil, {Seed: 1}} {
			b.Run(fmt.Sprintf("%s/deterministic=%v", name, det != nil), func(b *testing.B) {
				req := contract.Request{Code: "return Math.random() + Date.now()", Deterministic: det}
				for b.Loop() {
					if res := engines[name].Execute(context.Background(), req, RunOptions{}); !res.OK {
						b.Fatal(res.Error)
					}
				}
			})
		}
	}
}
