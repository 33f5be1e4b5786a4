package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// parkCode waits on an approval across a park, with a timer pending and
// logs on both sides, then makes one more data request.
const parkCode = `
let n = 1;
console.log("asking");
const t = new Promise((r) => setTimeout(() => r("tick"), 20));
const ok = await host.request("approve", { amount: 42 });
n++;
console.log("got", JSON.stringify(ok));
return { n, ok, t: await t, more: await host.request("more", n) };
`

// parkOn parks at "approve" and answers the rest.
func parkOn(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if name == "approve" {
		return nil, contract.ErrPark
	}
	return json.RawMessage(`{"more":` + string(args) + `}`), nil
}

// TestParkAndResumeInChildren: an execution parks at a data request and
// its child exits; the sealed state resumes in another child of a
// supervisor sharing the key, and goes on as if it had waited.
func TestParkAndResumeInChildren(t *testing.T) {
	key := make([]byte, 32)
	key[0] = 7
	withKey := func(c *Config) { c.ParkKey, c.ParkKeyID = key, "k1" }
	s := newSup(t, withKey)
	res, err := s.Execute(context.Background(), contract.Request{Code: parkCode, Park: true, ParkScope: "tenant-a"}, parkOn)
	if err != nil || res.Parked == nil {
		t.Fatalf("want parked, got %+v (%v)", res, err)
	}
	if p := res.Parked.Pending; len(p) != 1 || p[0].Seq != 1 || p[0].Name != "approve" {
		t.Fatalf("pending %+v", p)
	}
	if len(res.Logs) != 1 || res.Logs[0].Text != "asking" {
		t.Errorf("logs %+v", res.Logs)
	}
	parkedPID := res.Stats.ChildPID
	t.Logf("sealed state: %d bytes", len(res.Parked.State))

	other := newSup(t, withKey)
	got, err := other.Resume(context.Background(), ResumeRequest{State: res.Parked.State, Scope: "tenant-a",
		Answers: map[int64]contract.Answer{1: {Value: json.RawMessage(`"approved"`)}}}, parkOn)
	if err != nil || !got.OK {
		t.Fatalf("resume: %+v (%v)", got, err)
	}
	if want := `{"n":2,"ok":"approved","t":"tick","more":{"more":2}}`; string(got.Value) != want {
		t.Errorf("value %s, want %s", got.Value, want)
	}
	if got.Stats.ChildPID == parkedPID || got.Stats.DataRequests != 2 || len(got.Logs) != 2 {
		t.Errorf("stats %+v, logs %+v", got.Stats, got.Logs)
	}
	// Once: the same state again is refused, a fork of it is not.
	if again, _ := other.Resume(context.Background(), ResumeRequest{State: res.Parked.State, Scope: "tenant-a"}, parkOn); again.Error == nil || !strings.Contains(again.Error.Message, "resumed already") {
		t.Errorf("second resume: %+v", again.Error)
	}
	fork, _ := other.Resume(context.Background(), ResumeRequest{State: res.Parked.State, Scope: "tenant-a", Fork: true,
		Answers: map[int64]contract.Answer{1: {Error: "denied"}}}, parkOn)
	if fork.OK || fork.Error == nil || !strings.Contains(fork.Error.Message, "denied") {
		t.Errorf("fork answered with an error: %+v", fork)
	}
}

// TestResumeRefusals: a state for another scope, under a key the
// supervisor lacks, with one flipped bit, cut short, or over the caps of
// the supervisor resuming it, and answers that do not fit, are refused
// with a ContractError before any child sees them.
func TestResumeRefusals(t *testing.T) {
	key := make([]byte, 32)
	s := newSup(t, func(c *Config) { c.ParkKey = key })
	res, _ := s.Execute(context.Background(), contract.Request{Code: parkCode, Park: true, ParkScope: "a",
		Limits: contract.Limits{Timeout: 5 * time.Second}}, parkOn)
	if res.Parked == nil {
		t.Fatalf("want parked, got %+v", res)
	}
	state := res.Parked.State
	flipped := append([]byte(nil), state...)
	flipped[len(flipped)-40] ^= 1
	otherKey := make([]byte, 32)
	otherKey[0] = 1
	lowCaps := newSup(t, func(c *Config) { c.ParkKey = key; c.Caps.Timeout = 2 * time.Second })
	stranger := newSup(t, func(c *Config) { c.ParkKey = otherKey })
	// Another build: the same key, but another child binary (or wasm,
	// or registered modules) makes another build digest.
	otherBuild := newSup(t, func(c *Config) { c.ParkKey = key })
	otherBuild.build = func() string { return "another build" }
	old := newSup(t, func(c *Config) { c.ParkKey = key; c.ParkTTL = time.Nanosecond })
	unknownID := newSup(t, func(c *Config) { c.ParkKey, c.ParkKeyID = otherKey, "k2" })
	ans := map[int64]contract.Answer{1: {Value: json.RawMessage(`1`)}}
	for _, c := range []struct {
		name string
		s    *Supervisor
		r    ResumeRequest
		want string
	}{
		{"another scope", s, ResumeRequest{State: state, Scope: "b", Answers: ans}, "another scope"},
		{"no scope", s, ResumeRequest{State: state, Answers: ans}, "another scope"},
		{"a flipped bit", s, ResumeRequest{State: flipped, Scope: "a", Answers: ans}, "changed since"},
		{"cut short", s, ResumeRequest{State: state[:30], Scope: "a", Answers: ans}, "cut short"},
		{"not a state", s, ResumeRequest{State: []byte("hello"), Scope: "a"}, "not a state"},
		{"another key", stranger, ResumeRequest{State: state, Scope: "a", Answers: ans}, "changed since"},
		{"a key id it lacks", unknownID, ResumeRequest{State: state, Scope: "a", Answers: ans}, `under key "default"`},
		{"another build", otherBuild, ResumeRequest{State: state, Scope: "a", Answers: ans}, "by another build"},
		{"expired", old, ResumeRequest{State: state, Scope: "a", Answers: ans}, "longer than"},
		{"over the caps", lowCaps, ResumeRequest{State: state, Scope: "a", Answers: ans}, "over this supervisor's caps"},
		{"unknown seq", s, ResumeRequest{State: state, Scope: "a", Answers: map[int64]contract.Answer{9: {Value: json.RawMessage(`1`)}}}, "not waiting on"},
		{"both value and error", s, ResumeRequest{State: state, Scope: "a", Answers: map[int64]contract.Answer{1: {Value: json.RawMessage(`1`), Error: "x"}}}, "exactly one"},
		{"not JSON", s, ResumeRequest{State: state, Scope: "a", Answers: map[int64]contract.Answer{1: {Value: json.RawMessage(`{`)}}}, "not valid JSON"},
	} {
		got, err := c.s.Resume(context.Background(), c.r, parkOn)
		if got.Error == nil || got.Error.Type != contract.ContractError || !strings.Contains(got.Error.Message, c.want) || err == nil {
			t.Errorf("%s: got %+v, want a ContractError with %q", c.name, got.Error, c.want)
		}
	}
	// None of those took the state: it still resumes, on a supervisor
	// whose key was rotated (the old one kept under its id) too.
	rotated := newSup(t, func(c *Config) {
		c.ParkKey, c.ParkKeyID, c.ParkOldKeys = otherKey, "k2", map[string][]byte{"default": key}
	})
	if got, _ := rotated.Resume(context.Background(), ResumeRequest{State: state, Scope: "a", Answers: ans, Fork: true}, parkOn); !got.OK {
		t.Errorf("after a key rotation: %+v", got.Error)
	}
	if got, _ := s.Resume(context.Background(), ResumeRequest{State: state, Scope: "a", Answers: ans}, parkOn); !got.OK {
		t.Errorf("after the refusals: %+v", got.Error)
	}
}

// TestParkedExecutionsHoldNoChild: 100 executions parked hold nothing:
// each one's child is gone (its pid has no /proc entry once the pool
// has reaped it), the pool has no busy child and no more children alive
// than it keeps idle, and ten of them, resumed, still run to their end.
// WARDEN_PARK_N sets another count (BENCHMARKS.md parks 1,000).
func TestParkedExecutionsHoldNoChild(t *testing.T) {
	s := newSup(t, nil)
	n := 100
	if v, err := strconv.Atoi(os.Getenv("WARDEN_PARK_N")); err == nil && v > 0 {
		n = v
	}
	states := make([][]byte, 0, n)
	var pids []int
	for i := 0; i < n; i++ {
		res, _ := s.Execute(context.Background(), contract.Request{Code: parkCode, Park: true}, parkOn)
		if res.Parked == nil {
			t.Fatalf("execution %d did not park: %+v", i, res.Error)
		}
		states = append(states, res.Parked.State)
		pids = append(pids, res.Stats.ChildPID)
	}
	waitIdle(t, s, 2)
	if st := s.Stats().Pool; st.Busy != 0 || st.Live > 2 {
		t.Errorf("%d busy and %d live children with %d executions parked", st.Busy, st.Live, n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the child %d of a parked execution is still alive", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for i, st := range states[:10] {
		got, _ := s.Resume(context.Background(), ResumeRequest{State: st, Answers: map[int64]contract.Answer{1: {Value: json.RawMessage(`1`)}}}, parkOn)
		if !got.OK {
			t.Fatalf("resume %d: %+v", i, got.Error)
		}
	}
}

// BenchmarkParkResume: what parking and resuming cost against a plain
// execution in the same run, each on a warm child (the timer stops
// while the pool refills): "plain" answers its data request at once,
// "park" runs until it parks there, "resume" resumes a parked state to
// the end; big holds 10 MiB of random bytes across the park (what
// compresses least). Each reports the state's size.
func BenchmarkParkResume(b *testing.B) {
	s := newSup(b, func(c *Config) { c.PrewarmMemory = []int64{64 << 20} })
	answer := func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`1`), nil
	}
	var mem int64
	warm := func(b *testing.B) {
		b.StopTimer()
		for idle := 0; idle < 2; time.Sleep(time.Millisecond) {
			for _, p := range s.Stats().Pool.ByProfile {
				if p.MemoryBytes == mem && !p.TypeScript {
					idle = p.Idle
				}
			}
		}
		b.StartTimer()
	}
	for _, c := range []struct {
		name, code string
		memory     int64
	}{
		{"small", `const a = await host.request("x"); return a + 1`, 16 << 20},
		// 10 MiB of xorshift32 output, which DEFLATE cannot shrink.
		{"big", `const keep = []; let x = 2463534242;
for (let i = 0; i < 160; i++) { const a = new Uint32Array(16384); for (let j = 0; j < 16384; j++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; a[j] = x; } keep.push(a); }
const a = await host.request("x"); return keep.length + a`, 64 << 20},
	} {
		mem = c.memory
		req := contract.Request{Code: c.code, Park: true, Limits: contract.Limits{MemoryBytes: c.memory, Timeout: 20 * time.Second}}
		park := func(context.Context, string, json.RawMessage) (json.RawMessage, error) { return nil, contract.ErrPark }
		b.Run(c.name+"/plain", func(b *testing.B) {
			for b.Loop() {
				warm(b)
				if res, _ := s.Execute(context.Background(), req, answer); !res.OK {
					b.Fatal(res.Error)
				}
			}
		})
		var state []byte
		b.Run(c.name+"/park", func(b *testing.B) {
			for b.Loop() {
				warm(b)
				res, _ := s.Execute(context.Background(), req, park)
				if res.Parked == nil {
					b.Fatal(res.Error)
				}
				state = res.Parked.State
			}
			b.ReportMetric(float64(len(state)), "state-bytes")
		})
		b.Run(c.name+"/resume", func(b *testing.B) {
			for b.Loop() {
				warm(b)
				res, _ := s.Resume(context.Background(), ResumeRequest{State: state, Fork: true,
					Answers: map[int64]contract.Answer{1: {Value: json.RawMessage(`1`)}}}, answer)
				if !res.OK {
					b.Fatal(res.Error)
				}
			}
		})
	}
}
