package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// parkJS holds state across a park: a closure, a Map, a pending timer,
// logs before and after, a data request answered after the resume.
const parkJS = `
const seen = new Map([["a", 1]]);
let n = 0;
const counter = () => ++n;
counter();
console.log("before", n);
const timer = new Promise((r) => setTimeout(() => r("timer fired"), 30));
const approval = await host.request("approve", { amount: 42 });
counter();
seen.set("b", approval);
console.log("after", n);
return { n, seen: [...seen], timer: await timer, more: await host.request("more", null) };
`

func parkingHandler(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if name == "approve" {
		return nil, contract.ErrPark
	}
	return json.RawMessage(`"more:` + name + `"`), nil
}

// TestParkAndResume: an execution parks at a data request; its state,
// resumed in a fresh VM from the same snapshot with the answer, goes on
// as if it had waited: the closure, the Map, the timer and the logs are
// there, and the next data request reaches the resumed run's handler.
func TestParkAndResume(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	res := e.Execute(context.Background(), contract.Request{Code: parkJS, Park: true}, RunOptions{Handler: parkingHandler})
	if res.Parked == nil || res.OK || res.Error != nil {
		t.Fatalf("want parked, got %+v", res)
	}
	p := res.Parked
	if len(p.Pending) != 1 || p.Pending[0].Name != "approve" || p.Pending[0].Seq != 1 || string(p.Pending[0].Args) != `{"amount":42}` {
		t.Fatalf("pending %+v", p.Pending)
	}
	if len(res.Logs) != 1 || res.Logs[0].Text != "before 1" {
		t.Errorf("logs so far %+v", res.Logs)
	}
	t.Logf("state: %d bytes", len(p.State))
	time.Sleep(50 * time.Millisecond) // parked time does not count, and does not fire the timer early

	got := e.Resume(context.Background(), p.State, map[int64]contract.Answer{1: {Value: json.RawMessage(`"yes"`)}}, RunOptions{Handler: parkingHandler})
	if !got.OK {
		t.Fatalf("resume: %+v", got.Error)
	}
	if want := `{"n":2,"seen":[["a",1],["b","yes"]],"timer":"timer fired","more":"more:more"}`; string(got.Value) != want {
		t.Errorf("value %s, want %s", got.Value, want)
	}
	if len(got.Logs) != 2 || got.Logs[1].Text != "after 2" || got.Stats.DataRequests != 2 {
		t.Errorf("logs %+v, stats %+v", got.Logs, got.Stats)
	}

	// An error answer rejects the promise.
	got = e.Resume(context.Background(), p.State, map[int64]contract.Answer{1: {Error: "denied"}}, RunOptions{Handler: parkingHandler})
	if got.OK || got.Error == nil || !strings.Contains(got.Error.Message, "denied") {
		t.Errorf("error answer: %+v", got)
	}
}

// TestParkRefused: a request that does not allow parking, a VM without
// a snapshot, a state over park_bytes: the handler is asked again with
// the reason, and the execution goes on.
func TestParkRefused(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	var why []string
	h := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		if err := contract.ParkRefused(ctx); err != nil {
			why = append(why, err.Error())
			return json.RawMessage(`"answered"`), nil
		}
		return nil, contract.ErrPark
	}
	for _, c := range []struct {
		eng  *Engine
		req  contract.Request
		want string
	}{
		{e, contract.Request{Code: `return await host.request("x")`}, "does not allow parking"},
		{testEngine, contract.Request{Code: `return await host.request("x")`, Park: true}, "no heap snapshot"},
		{e, contract.Request{Code: `return await host.request("x")`, Park: true, Limits: contract.Limits{ParkBytes: 1000}}, "park_bytes"},
	} {
		why = nil
		res := c.eng.Execute(context.Background(), c.req, RunOptions{Handler: h})
		if !res.OK || string(res.Value) != `"answered"` || len(why) != 1 || !strings.Contains(why[0], c.want) {
			t.Errorf("%+v: %+v, refusals %q, want one naming %q", c.req, res, why, c.want)
		}
	}
}

// TestResumeRefusesBadStates: a state cut short, with a flipped byte in
// its header, from another snapshot, or with answers that do not fit is
// a ContractError, and nothing runs.
func TestResumeRefusesBadStates(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	res := e.Execute(context.Background(), contract.Request{Code: parkJS, Park: true}, RunOptions{Handler: parkingHandler})
	if res.Parked == nil {
		t.Fatalf("want parked, got %+v", res)
	}
	state := res.Parked.State
	ok := map[int64]contract.Answer{1: {Value: json.RawMessage(`1`)}}
	for name, c := range map[string]struct {
		state   []byte
		answers map[int64]contract.Answer
	}{
		"empty":           {nil, ok},
		"cut":             {state[:len(state)/2], ok},
		"magic":           {append([]byte("x"), state[1:]...), ok},
		"unknown seq":     {state, map[int64]contract.Answer{7: {Value: json.RawMessage(`1`)}}},
		"value and error": {state, map[int64]contract.Answer{1: {Value: json.RawMessage(`1`), Error: "e"}}},
		"not JSON":        {state, map[int64]contract.Answer{1: {Value: json.RawMessage(`{`)}}},
	} {
		got := e.Resume(context.Background(), c.state, c.answers, RunOptions{Handler: parkingHandler})
		if got.OK || got.Error == nil || got.Error.Type != contract.ContractError {
			t.Errorf("%s: want a ContractError, got %+v", name, got)
		}
	}
	if got := testEngine.Resume(context.Background(), state, ok, RunOptions{}); got.Error == nil || !errors.Is(got.Error, contract.ErrContract) {
		t.Errorf("an engine without a snapshot: %+v", got.Error)
	}
}
