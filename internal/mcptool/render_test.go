package mcptool

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wardenhq/warden/contract"
)

// TestCut: a long text is cut on a UTF-8 boundary, with how much was
// left out; a short one is whole.
func TestCut(t *testing.T) {
	if got := cut("short", 10); got != "short" {
		t.Fatalf("%q", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes
	got := cut(long, 51)
	head, note, _ := strings.Cut(got, "\n")
	if !utf8.ValidString(got) || len(head) != 50 || !strings.Contains(note, "150 more bytes cut") {
		t.Fatalf("%q", got)
	}
}

// TestText: how an envelope reads to a model.
func TestText(t *testing.T) {
	ok := contract.Result{OK: true, Value: json.RawMessage(`{"a":1}`), Logs: []contract.LogEntry{{Level: "warn", Text: "careful"}}, Clamped: []string{"timeout_ms"}}
	if got, want := Text(ok), "value: {\"a\":1}\nlogs:\n[warn] careful\nclamped to the caps: timeout_ms\n"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
	failed := contract.Result{Error: &contract.Error{Type: contract.ResourceError, Kind: contract.KindMemory, Message: "out of memory"}}
	if got, want := Text(failed), "error: ResourceError (memory)\nout of memory\n"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}

// TestDescription: the description a model reads names the limits,
// modules and data sources in force, not fixed ones.
func TestDescription(t *testing.T) {
	cfg := Config{Modules: []string{"lodash-es", "zod"}, Data: map[string]json.RawMessage{"user": []byte(`{}`)}}
	cfg.Defaults, cfg.Caps, _ = contract.ConfigLimits(contract.Limits{}, contract.Limits{Timeout: 5e9})
	d := Description(cfg)
	for _, want := range []string{"lodash-es, zod", "host.request(name, args) answers: user", "1000 ms (timeout_ms, at most 5000)", "`return` the result"} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	var schema map[string]any
	json.Unmarshal(inputSchema(cfg), &schema)
	if schema["additionalProperties"] != false || schema["properties"].(map[string]any)["timeout_ms"].(map[string]any)["maximum"] != float64(5000) {
		t.Fatalf("schema %v", schema)
	}
}
