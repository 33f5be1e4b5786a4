package tests

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
)

// The data limits end an execution the same way whether the child's
// engine finds them crossed (names and arguments sent, answers received)
// or the supervisor does (an answer that would not fit is never sent): a
// ResourceError the guest cannot catch, in process and supervised alike.
func TestDataLimitsSameEverywhere(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t)
	s := newSupervisor(t, nil)
	handler := func(_ context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
		if name == "big" {
			return json.RawMessage(`"` + strings.Repeat("x", 5000) + `"`), nil
		}
		return json.RawMessage(`1`), nil
	}
	tests := []struct{ name, code, kind string }{
		{"arguments", "for (let i = 0; i < 100; i++) await host.request('a', 'x'.repeat(100)); return 1", contract.KindDataBytes},
		{"non-ASCII arguments", "for (let i = 0; i < 100; i++) await host.request('a', '\u20ac'.repeat(30)); return 1", contract.KindDataBytes},
		{"answer", "try { await host.request('big') } catch (e) { return 'caught' } return 1", contract.KindDataBytes},
		{"count", "for (let i = 0; i < 60; i++) try { await host.request('a') } catch (e) {} return 1", contract.KindDataRequests},
	}
	limits := contract.Limits{DataBytes: 4000, DataRequests: 50}
	for _, tt := range tests {
		req := contract.Request{Code: tt.code, Limits: limits}
		in := eng.Execute(ctx, req, engine.RunOptions{Handler: handler})
		sup, _ := s.Execute(ctx, req, handler)
		for where, res := range map[string]contract.Result{"in process": in, "supervised": sup} {
			if res.OK || res.Error.Type != contract.ResourceError || res.Error.Kind != tt.kind {
				t.Errorf("%s, %s: want ResourceError/%s, got ok=%v %s %+v", tt.name, where, tt.kind, res.OK, res.Value, res.Error)
			}
		}
	}
}
