package tests

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
)

// What a data request's guest sees when the handler is missing, answers
// nothing or answers what is not JSON is one policy, written once
// (contract.DataAnswer): the same in process and supervised.
func TestDataPolicySameEverywhere(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t)
	s := newSupervisor(t, nil)
	answers := func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		switch name {
		case "nothing":
			return nil, nil
		case "args":
			return args, nil
		}
		return json.RawMessage(`{not json`), nil
	}
	tests := []struct {
		name    string
		handler contract.DataHandler
		code    string
		want    string
	}{
		{"no handler", nil, "try { await host.request('x') } catch (e) { return e.message }", contract.ErrNoDataHandler.Error()},
		{"nil answer is null", answers, "return await host.request('nothing')", "null"},
		{"no arguments are null", answers, "return await host.request('args')", "null"},
		{"invalid JSON", answers, "try { await host.request('bad') } catch (e) { return e.message }", ""},
	}
	for _, tt := range tests {
		req := contract.Request{Code: tt.code}
		in := eng.Execute(ctx, req, engine.RunOptions{Handler: tt.handler})
		sup, _ := s.Execute(ctx, req, tt.handler)
		if !in.OK || !sup.OK {
			t.Errorf("%s: in process %+v, supervised %+v", tt.name, in.Error, sup.Error)
			continue
		}
		if string(in.Value) != string(sup.Value) {
			t.Errorf("%s: in process %s, supervised %s", tt.name, in.Value, sup.Value)
		}
		want, _ := json.Marshal(tt.want)
		if tt.want != "" && string(in.Value) != tt.want && string(in.Value) != string(want) {
			t.Errorf("%s: got %s, want %s", tt.name, in.Value, want)
		}
	}
}
