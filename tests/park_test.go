//go:build wardenfaults

package tests

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// parkFault runs fault name, in a request that may park.
func parkFault(t *testing.T, s *supervisor.Supervisor, name, arg string, park bool) contract.Result {
	t.Helper()
	in, _ := json.Marshal(arg)
	res, _ := s.Execute(context.Background(), contract.Request{Code: "//fault:" + name, Input: in, Park: park,
		Limits: contract.Limits{Timeout: 10 * time.Second}}, nil)
	return res
}

// TestSubvertedChildParks: what a taken-over child can do with parking.
// A state over park_bytes, or a park the request did not allow, is a
// protocol violation the caller never sees as parked. A state of its own
// making is sealed like any other (the supervisor cannot read the
// engine's state) but reaches only a later child of the same execution,
// which refuses it: nothing else is touched, and the supervisor serves on.
func TestSubvertedChildParks(t *testing.T) {
	s := newSupervisor(t, nil)
	for _, c := range []struct {
		name string
		park bool
		want string
	}{
		{"parkhuge", true, "over its park_bytes limit"},
		{"parkjunk", false, "does not allow parking"},
	} {
		res := parkFault(t, s, c.name, "junk", c.park)
		if res.Parked != nil || res.Error == nil || res.Error.Type != contract.SandboxError || !strings.Contains(res.Error.Message, c.want) {
			t.Errorf("%s: want a SandboxError naming %q, got parked=%v %+v", c.name, c.want, res.Parked != nil, res.Error)
		}
	}
	res := parkFault(t, s, "parkjunk", "warden-parked-1\n\xff\xff\xff\xff garbage", true)
	if res.Parked == nil {
		t.Fatalf("want the junk state sealed, got %+v", res.Error)
	}
	got, _ := s.Resume(context.Background(), supervisor.ResumeRequest{State: res.Parked.State,
		Answers: map[int64]contract.Answer{1: {Value: json.RawMessage(`1`)}}}, nil)
	if got.OK || got.Error == nil || got.Error.Type != contract.ContractError || !strings.Contains(got.Error.Message, "parked state") {
		t.Errorf("resume of a subverted child's state: %+v", got.Error)
	}
	requireServing(t, s)
}
