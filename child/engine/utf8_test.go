package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wardenhq/warden/contract"
)

// TestEnvelopeJSONIsUTF8: JSON.rawJSON puts a lone surrogate in the
// stringified text as it is (QuickJS's WTF-8, bytes ED A0 80); the
// envelope carries it as the escape JSON.stringify writes for one, so
// the value is valid UTF-8 JSON (RFC 8259 section 8.1) and keeps the
// code unit. A pair stays one character.
func TestEnvelopeJSONIsUTF8(t *testing.T) {
	mods := map[string]string{"m": `export const v = JSON.rawJSON('"\udfff"');`}
	tests := []struct{ name, code, want string }{
		{"rawJSON", `return JSON.rawJSON('"\ud800"')`, `"\ud800"`},
		{"stringify writes the same", `return "\ud800"`, `"\ud800"`},
		{"nested", `return {a: [JSON.rawJSON('"x\udc00y"')], b: "\ud800", c: JSON.rawJSON('"\ud83d"')}`, `{"a":["x\udc00y"],"b":"\ud800","c":"\ud83d"}`},
		{"pair", `return JSON.rawJSON('"\ud83d\ude00"')`, `"😀"`},
		{"high then low apart", `return [JSON.rawJSON('"\ud83d"'), JSON.rawJSON('"\ude00"')]`, `["\ud83d","\ude00"]`},
		{"from a module", `return (await import("m")).v`, `"\udfff"`},
		{"as an object key", `return JSON.parse('{"\\ud800": 1}')`, `{"\ud800":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: tt.code, Modules: mods}, RunOptions{})
			check(t, res, want{value: tt.want})
			if !utf8.Valid(res.Value) {
				t.Fatalf("value %x is not UTF-8", []byte(res.Value))
			}
		})
	}
}

// TestDataRequestArgsAreUTF8: host.request arguments follow the same
// rule, and what the escapes add counts towards data_bytes.
func TestDataRequestArgsAreUTF8(t *testing.T) {
	var got []string
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		got = append(got, string(args))
		return args, nil
	}
	res := run(t, contract.Request{Code: `return await host.request("n", [JSON.rawJSON('"\ud800"'), {k: JSON.rawJSON('"a\udbffb"')}])`}, RunOptions{Handler: handler})
	wantArgs := `["\ud800",{"k":"a\udbffb"}]`
	check(t, res, want{value: wantArgs})
	if len(got) != 1 || got[0] != wantArgs {
		t.Fatalf("handler saw %q, want %q", got, wantArgs)
	}
	// The arguments as sent take 2 + 2*8 + 1 bytes (each lone surrogate
	// six), the guest's WTF-8 only 2 + 2*5 + 1; with the name and a null
	// answer, 18 bytes would be enough for the WTF-8.
	answerNull := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) { return nil, nil }
	args := `[JSON.rawJSON('"\ud800"'), JSON.rawJSON('"\ud800"')]`
	res = run(t, contract.Request{Code: `return await host.request("n", ` + args + `)`, Limits: contract.Limits{DataBytes: 18}}, RunOptions{Handler: answerNull})
	check(t, res, want{errType: contract.ResourceError, kind: contract.KindDataBytes})
	res = run(t, contract.Request{Code: `return await host.request("n", ` + args + `)`, Limits: contract.Limits{DataBytes: 24}}, RunOptions{Handler: answerNull})
	check(t, res, want{value: "null"})
}

// TestEscapedResultWithinOutputLimit: the output limit holds on the
// escaped text, which is longer than what the guest stringified.
func TestEscapedResultWithinOutputLimit(t *testing.T) {
	code := `return JSON.rawJSON('"' + '\ud800'.repeat(100) + '"')`
	res := run(t, contract.Request{Code: code, Limits: contract.Limits{OutputBytes: 400}}, RunOptions{})
	check(t, res, want{errType: contract.ResourceError, kind: contract.KindOutput, msg: "602 bytes"})
	res = run(t, contract.Request{Code: code, Limits: contract.Limits{OutputBytes: 602}}, RunOptions{})
	check(t, res, want{value: `"` + strings.Repeat(`\ud800`, 100) + `"`})
}
