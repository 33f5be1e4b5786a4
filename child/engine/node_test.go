package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// Node 20 is the reference for how a web global behaves: sameAsNode runs
// the same function body in Warden's engine and in Node, and compares
// the outcomes (the value's JSON, or the error's name and message).

// nodeRunner is the script Node runs: the code as the body of an async
// function of input, as Warden runs it, printing the outcome as JSON.
const nodeRunner = `"use strict";
const fs = require("fs");
const code = fs.readFileSync(process.argv[2], "utf8");
const input = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const fn = new (Object.getPrototypeOf(async function () {}).constructor)("input", code);
fn(input).then(
  (v) => process.stdout.write(JSON.stringify({ ok: true, value: v === undefined ? null : v })),
  (e) => process.stdout.write(JSON.stringify({ ok: false, name: String(e && e.name), message: String(e && e.message) })));
`

// nodeOutcome is what both sides are reduced to.
type nodeOutcome struct {
	OK      bool            `json:"ok"`
	Value   json.RawMessage `json:"value,omitempty"`
	Name    string          `json:"name,omitempty"`
	Message string          `json:"message,omitempty"`
}

// nodePath is node's path, or why the comparisons with Node do not run:
// node is not installed, or the tests run with -short (the second pass
// of make test, on stock wazero, where what Node says has not changed).
var nodePath = sync.OnceValues(func() (string, error) {
	if testing.Short() {
		return "", errors.New("-short: the comparisons with Node 20 run in the full pass")
	}
	return exec.LookPath("node")
})

// requireNode skips the test, saying why, when the comparisons with Node
// do not run; the helpers call it before they run anything in Warden.
func requireNode(t *testing.T) string {
	t.Helper()
	node, err := nodePath()
	if err != nil {
		t.Skipf("the comparison with Node 20 does not run: %v", err)
	}
	return node
}

// runInNode runs code in Node with input (JSON, "" for null), in an empty
// environment but for TZ=UTC (Warden's guest runs in UTC).
func runInNode(t *testing.T, code, input string) nodeOutcome {
	t.Helper()
	node := requireNode(t)
	if input == "" {
		input = "null"
	}
	dir := t.TempDir()
	files := map[string]string{"runner.js": nodeRunner, "code.js": code, "input.json": input}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, filepath.Join(dir, "runner.js"), filepath.Join(dir, "code.js"), filepath.Join(dir, "input.json"))
	cmd.Env = []string{"TZ=UTC"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var o nodeOutcome
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	return o
}

// wardenOutcome reduces an envelope to a nodeOutcome.
func wardenOutcome(res contract.Result) nodeOutcome {
	if res.OK {
		return nodeOutcome{OK: true, Value: res.Value}
	}
	return nodeOutcome{Name: res.Error.Name, Message: res.Error.Message}
}

// sameAsNode runs code (a function body of input) in Warden and in Node
// and fails the test when the outcomes differ. It returns Warden's.
func sameAsNode(t *testing.T, code, input string) contract.Result {
	t.Helper()
	requireNode(t)
	res := run(t, contract.Request{Code: code, Input: json.RawMessage(input)}, RunOptions{})
	got, want := wardenOutcome(res), runInNode(t, code, input)
	if !equalOutcomes(got, want) {
		t.Errorf("differs from Node for\n%s\nwarden: %s\n  node: %s", code, jsonText(got), jsonText(want))
	}
	return res
}

func equalOutcomes(a, b nodeOutcome) bool {
	if a.OK != b.OK {
		return false
	}
	if a.OK {
		return compactJSON(a.Value) == compactJSON(b.Value)
	}
	return a.Name == b.Name && a.Message == b.Message
}

func compactJSON(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

func jsonText(o nodeOutcome) string {
	b, _ := json.Marshal(o)
	return string(b)
}

// TestSameAsNodeSeesADifference: the comparison fails on a value Node
// computes differently, and passes what both compute alike.
func TestSameAsNodeSeesADifference(t *testing.T) {
	if _, err := nodePath(); err != nil {
		t.Skipf("the comparison with Node 20 does not run: %v", err)
	}
	same := wardenOutcome(run(t, contract.Request{Code: "return [1, 'a', {b: null}]"}, RunOptions{}))
	if want := runInNode(t, "return [1, 'a', {b: null}]", ""); !equalOutcomes(same, want) {
		t.Fatalf("the same value compared different: %s vs %s", jsonText(same), jsonText(want))
	}
	// Node has process; Warden has not.
	code := "return typeof process"
	if equalOutcomes(wardenOutcome(run(t, contract.Request{Code: code}, RunOptions{})), runInNode(t, code, "")) {
		t.Fatal("typeof process compared equal")
	}
	code = "null.x"
	w, n := wardenOutcome(run(t, contract.Request{Code: code}, RunOptions{})), runInNode(t, code, "")
	if w.Name != "TypeError" || n.Name != "TypeError" {
		t.Fatalf("errors not reduced to their names: %s vs %s", jsonText(w), jsonText(n))
	}
}
