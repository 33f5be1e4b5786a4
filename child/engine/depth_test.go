package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// deepArray builds an array nested just past the 10,000 levels
// encoding/json takes.
const deepArray = `let a = []; for (let i = 0; i < 10050; i++) a = [a];`

// TestResultDeeperThanAnEnvelope: a result nested deeper than any
// envelope can carry is the guest's error (UserCodeError), not an
// envelope that cannot be encoded, nor, under the supervisor, a child
// taken for broken (SandboxError).
func TestResultDeeperThanAnEnvelope(t *testing.T) {
	res := run(t, contract.Request{Code: deepArray + "return a;", Limits: contract.Limits{Timeout: 10 * time.Second}}, RunOptions{})
	if res.OK || res.Error.Type != contract.UserCodeError {
		t.Fatalf("got %+v, want a UserCodeError", res.Error)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("the envelope does not encode: %v", err)
	}
	ok := run(t, contract.Request{Code: `let a = []; for (let i = 0; i < 9990; i++) a = [a]; return a;`, Limits: contract.Limits{Timeout: 10 * time.Second}}, RunOptions{})
	if !ok.OK {
		t.Fatalf("9,990 levels: %+v, want ok", ok.Error)
	}
}

// TestDataArgsDeeperThanTheHostTakes: such arguments reject the guest's
// promise and never reach the handler.
func TestDataArgsDeeperThanTheHostTakes(t *testing.T) {
	called := false
	handler := func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		called = true
		return json.RawMessage("1"), nil
	}
	res := run(t, contract.Request{
		Code:   deepArray + `try { await host.request("x", a); return "sent"; } catch (e) { return e.message; }`,
		Limits: contract.Limits{Timeout: 10 * time.Second},
	}, RunOptions{Handler: handler})
	if !res.OK || string(res.Value) != `"host.request: arguments nested deeper than the 10000 levels the host takes"` || called {
		t.Fatalf("got %s %+v (handler called: %v)", res.Value, res.Error, called)
	}
}

// TestInputDeeperThanAnEnvelope: such input is the caller's error, and
// the message says why rather than calling it invalid JSON.
func TestInputDeeperThanAnEnvelope(t *testing.T) {
	deep := strings.Repeat("[", contract.MaxJSONDepth+1) + strings.Repeat("]", contract.MaxJSONDepth+1)
	res := run(t, contract.Request{Code: "return 1", Input: json.RawMessage(deep)}, RunOptions{})
	if res.OK || res.Error.Type != contract.ContractError || !strings.Contains(res.Error.Message, "nested deeper than the 10000 levels") {
		t.Fatalf("got %+v, want a ContractError saying the input is nested too deep", res.Error)
	}
}
