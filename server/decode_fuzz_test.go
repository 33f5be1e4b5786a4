package server

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/wardenhq/warden/contract"
)

// FuzzDecodeExecuteBody: whatever body a client sends, decodeStrict
// either refuses it with a ContractError or accepts a body with only
// exact names (at the top and in limits), no null where a type is
// declared, valid UTF-8, which encoding/json (unknown fields refused)
// decodes to the same value, and which re-encodes to a body decoded the
// same again. The same for data answers through parseAnswer.
func FuzzDecodeExecuteBody(f *testing.F) {
	for _, tc := range strictBodies {
		f.Add([]byte(tc.body))
	}
	for _, tc := range strictAnswers {
		f.Add([]byte(tc.body))
	}
	for _, s := range []string{`{"code":"return 1","input":{"a":[1,null]},"limits":{"timeout_ms":5},"modules":{"m":"x"}}`,
		`{"code":"","input":null}`, `{"value":null}`, `{"error":"no"}`, `{}`} {
		f.Add([]byte(s))
	}
	limitNames := []string{"timeout_ms", "memory_bytes", "stack_bytes", "output_bytes", "code_bytes", "data_requests", "data_bytes", "timers"}
	f.Fuzz(func(t *testing.T, b []byte) {
		if a, err := parseAnswer(b); err == nil {
			if !utf8.Valid(b) || (a.value == nil) == (a.err == nil) {
				t.Fatalf("answer %q accepted as %+v", b, a)
			}
		} else if contract.AsError(err).Type != contract.ContractError {
			t.Fatalf("answer %q: %v is not a ContractError", b, err)
		}
		var body executeBody
		if err := decodeStrict(b, &body); err != nil {
			if e := contract.AsError(err); e.Type != contract.ContractError {
				t.Fatalf("%q: %v is not a ContractError", b, err)
			}
			return
		}
		if !utf8.Valid(b) {
			t.Fatalf("%q: accepted invalid UTF-8", b)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(b, &top); err != nil {
			t.Fatalf("%q: accepted, not an object: %v", b, err)
		}
		for k, v := range top {
			if !slices.Contains([]string{"code", "input", "limits", "modules"}, k) {
				t.Fatalf("%q: accepted the name %q", b, k)
			}
			if string(v) == "null" && k != "input" {
				t.Fatalf("%q: accepted null for %q", b, k)
			}
		}
		if raw, ok := top["limits"]; ok {
			var limits map[string]json.RawMessage
			json.Unmarshal(raw, &limits)
			for k := range limits {
				if !slices.Contains(limitNames, k) {
					t.Fatalf("%q: accepted the limit %q", b, k)
				}
			}
		}
		var want executeBody
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&want); err != nil || !reflect.DeepEqual(body, want) {
			t.Fatalf("%q: encoding/json: %v, %+v != %+v", b, err, want, body)
		}
		out, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		var again executeBody
		if err := decodeStrict(out, &again); err != nil || !reflect.DeepEqual(normal(body), normal(again)) {
			t.Fatalf("%q re-encoded as %q: %v, %+v != %+v", b, out, err, again, body)
		}
	})
}

// normal is b with its input compacted and HTML-escaped, as
// encoding/json writes a RawMessage: it drops the input's whitespace
// and writes <, >, &, U+2028 and U+2029 as \u escapes.
func normal(b executeBody) executeBody {
	if len(b.Input) > 0 {
		var c, e bytes.Buffer
		json.Compact(&c, b.Input)
		json.HTMLEscape(&e, c.Bytes())
		b.Input = e.Bytes()
	}
	if len(b.Modules) == 0 {
		b.Modules = nil
	}
	return b
}
