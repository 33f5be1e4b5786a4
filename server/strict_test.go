package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// strictBodies are execute bodies that encoding/json would take (folding
// names, keeping the last of two, rewriting bad UTF-8 to U+FFFD, taking
// null for absent) and the daemon refuses, each with what its message
// must say.
var strictBodies = []struct{ name, body, says string }{
	{"upper-case names", `{"CODE":"return 1","Limits":{"Timeout_MS":5}}`, `unknown field "CODE"`},
	{"upper-case limit", `{"code":"return 1","limits":{"Timeout_MS":5}}`, `/limits: unknown field "Timeout_MS"`},
	{"unicode-folded name", `{"code":"return 1","limit\u017f":{"timeout_ms":5}}`, `unknown field "limitſ"`},
	{"kelvin-folded limit", `{"code":"return 1","limits":{"stac\u212a_bytes":1}}`, "/limits: unknown field \"stac\u212a_bytes\""},
	{"code twice", `{"code":"return 1","code":"return 2"}`, `duplicate member name "code"`},
	{"limit twice", `{"code":"return 1","limits":{"timeout_ms":5,"timeout_ms":30000}}`, `/limits: duplicate member name "timeout_ms"`},
	{"module twice", `{"code":"return 1","modules":{"m":"export default 1","m":"export default 2"}}`, `/modules: duplicate member name "m"`},
	{"name twice in input", `{"code":"return input.a","input":{"a":1,"a":2}}`, `/input: duplicate member name "a"`},
	{"invalid UTF-8 in code", "{\"code\":\"return '\xff'\"}", "/code: invalid UTF-8"},
	{"WTF-8 in input", "{\"code\":\"return input\",\"input\":\"\xed\xa0\x80\"}", "/input: invalid UTF-8"},
	{"invalid UTF-8 in a name", "{\"code\":\"return 1\",\"\xfe\":1}", "invalid UTF-8"},
	{"lone surrogate in code", `{"code":"return '\ud800'"}`, `/code: lone surrogate \ud800`},
	{"null body", `null`, "null is not allowed here, want an object"},
	{"null code", `{"code":null}`, "/code: null is not allowed here, want a string"},
	{"null limits", `{"code":"return 1","limits":null}`, "/limits: null is not allowed here, want an object"},
	{"null limit", `{"code":"return 1","limits":{"timeout_ms":null}}`, "/limits/timeout_ms: null is not allowed here, want an integer"},
	{"null modules", `{"code":"return 1","modules":null}`, "/modules: null is not allowed here, want an object"},
	{"null module", `{"code":"return 1","modules":{"m":null}}`, "/modules/m: null is not allowed here, want a string"},
	{"fractional limit", `{"code":"return 1","limits":{"timeout_ms":1.5}}`, "/limits/timeout_ms: 1.5 is not an integer"},
	{"null timers", `{"code":"return 1","limits":{"timers":null}}`, "/limits/timers: null is not allowed here, want an integer"},
	{"fractional timers", `{"code":"return 1","limits":{"timers":1.5}}`, "/limits/timers: 1.5 is not an integer"},
	{"limit past int64", `{"code":"return 1","limits":{"data_bytes":9223372036854775808}}`, "/limits/data_bytes: 9223372036854775808 is not an integer"},
}

// TestStrictExecuteBodies: each body of strictBodies is a 400,
// ContractError (malformed), whose message names the problem; and
// "input": null is still the JSON null input.
func TestStrictExecuteBodies(t *testing.T) {
	d := startDaemon(t, nil)
	for _, tc := range strictBodies {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := d.call(t, "POST", "/v1/executions", acmeToken, tc.body)
			res := envelope(t, b)
			if resp.StatusCode != 400 || res.Error == nil || res.Error.Type != contract.ContractError || res.Error.Kind != KindMalformed {
				t.Fatalf("status %d, want 400 ContractError (malformed): %s", resp.StatusCode, b)
			}
			if !strings.Contains(res.Error.Message, tc.says) {
				t.Fatalf("message %q does not say %q", res.Error.Message, tc.says)
			}
		})
	}
	resp, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return input === null","input":null}`)
	if res := envelope(t, b); resp.StatusCode != 200 || !res.OK || string(res.Value) != "true" {
		t.Fatalf(`"input": null: status %d: %s`, resp.StatusCode, b)
	}
}

// strictAnswers are data answers refused the same way, with what the
// message must say.
var strictAnswers = []struct{ body, says string }{
	{`{"value":1,"value":2}`, `duplicate member name "value"`},
	{`{"Value":1}`, `unknown field "Value"`},
	{`{"valu\u0065":1,"value":2}`, `duplicate member name "value"`},
	{`{"ERROR":"no"}`, `unknown field "ERROR"`},
	{`{"error":null}`, `/error: null is not allowed here, want a string`},
	{`{"error":"a","error":"b"}`, `duplicate member name "error"`},
	{`{"value":{"a":1,"a":2}}`, `/value: duplicate member name "a"`},
	{"{\"value\":\"\xff\"}", "/value: invalid UTF-8"},
	{`{"error":"\udfff"}`, `lone surrogate \udfff`},
	{`null`, "null is not allowed here"},
	{`{}`, `want exactly one field`},
	{`{"value":1,"error":"x"}`, `want exactly one field`},
}

// TestParseAnswerStrict: both ways a data answer comes (the endpoint and
// a webhook) go through parseAnswer: each of strictAnswers is a
// ContractError naming the problem; "value": null is the null answer.
func TestParseAnswerStrict(t *testing.T) {
	for _, tc := range strictAnswers {
		_, err := parseAnswer([]byte(tc.body))
		if e := contract.AsError(err); err == nil || e.Type != contract.ContractError || !strings.Contains(e.Message, tc.says) {
			t.Errorf("%s: got %v, want a ContractError saying %q", tc.body, err, tc.says)
		}
	}
	if a, err := parseAnswer([]byte(`{"value":null}`)); err != nil || string(a.value) != "null" {
		t.Fatalf(`{"value":null}: %+v, %v`, a, err)
	}
}

// TestStrictDataAnswerEndpoint: the endpoint answers each refused data
// answer with 400 (malformed) and the request stays pending: a good
// answer after them is taken.
func TestStrictDataAnswerEndpoint(t *testing.T) {
	d := startDaemon(t, nil)
	id := d.hold(t, acmeToken)
	path := fmt.Sprintf("/v1/executions/%s/data/1", id)
	for _, tc := range strictAnswers {
		resp, b := d.call(t, "POST", path, acmeToken, tc.body)
		res := envelope(t, b)
		if resp.StatusCode != 400 || res.Error == nil || res.Error.Kind != KindMalformed || !strings.Contains(res.Error.Message, tc.says) {
			t.Errorf("%s: status %d, want 400 (malformed) saying %q: %s", tc.body, resp.StatusCode, tc.says, b)
		}
	}
	if resp, b := d.call(t, "POST", path, acmeToken, `{"value":1}`); resp.StatusCode != 204 {
		t.Fatalf("a good answer after the bad ones: status %d: %s", resp.StatusCode, b)
	}
}

// TestDecodeStrictRoundTrip: what decodeStrict accepts as an execute
// body encodes back to a body it accepts, with the same value.
func TestDecodeStrictRoundTrip(t *testing.T) {
	in := `{"code":"return 1","input":{"a":[1,"\ud83d\ude00"]},"limits":{"timeout_ms":5,"data_bytes":9223372036854775807},"modules":{"m":"export default 1"}}`
	var a, b executeBody
	if err := decodeStrict([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(a)
	if err := decodeStrict(out, &b); err != nil || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("%s: %v, %+v != %+v", out, err, a, b)
	}
}

// TestStrictConfig: the YAML configuration is held to the API's
// strictness. yaml.v3 already refused a key given twice, a case-folded
// key and invalid UTF-8 (the first cases, kept as proof); it took null
// for absent, truncated 1.5 to 1, read 5 as the string "5" and yes as
// true, let a merge key give a key twice and ignored a second document.
func TestStrictConfig(t *testing.T) {
	for _, tc := range []struct{ name, yaml, says string }{
		{"key twice", "listen: 127.0.0.1:1\nlisten: 127.0.0.1:2\n", `"listen"`},
		{"case-folded key", "Listen: 127.0.0.1:1\n", "Listen"},
		{"case-folded nested key", "supervisor:\n  Pool_Size: 1\n", "Pool_Size"},
		{"invalid UTF-8", "listen: \"\xff\"\n", "UTF-8"},
		{"null limit", "supervisor:\n  defaults:\n    timeout_ms: null\n", "supervisor.defaults.timeout_ms (line 3): null"},
		{"empty limit", "supervisor:\n  caps:\n    timeout_ms:\n", "supervisor.caps.timeout_ms (line 3): null"},
		{"null section", "supervisor: ~\n", "supervisor (line 1): null"},
		{"null tenants", "tenants: null\n", "tenants (line 1): null"},
		{"null tenant", "tenants:\n  - null\n", "tenants[0] (line 2): null"},
		{"null webhook", "tenants:\n  - name: a\n    webhook: null\n", "tenants[0].webhook (line 3): null"},
		{"null modules", "tenants:\n  - name: a\n    modules:\n", "tenants[0].modules (line 3): null"},
		{"null document", "null\n", "the document (line 1): null"},
		{"fractional limit", "supervisor:\n  defaults:\n    timeout_ms: 1.5\n", `supervisor.defaults.timeout_ms (line 3): want an integer, got float "1.5"`},
		{"number for a string", "anonymous: 5\n", `anonymous (line 1): want a string (quote it), got int "5"`},
		{"yes for a bool", "anonymous_non_loopback: yes\n", `anonymous_non_loopback (line 1): want true or false, got str "yes"`},
		{"number for a duration", "drain_timeout: 5\n", `drain_timeout (line 1): want a duration like 5s`},
		{"list for a scalar", "listen: [a]\n", "listen (line 1): want a single value, got a list"},
		{"merge key", "supervisor:\n  defaults: &d {timeout_ms: 5}\n  caps:\n    <<: *d\n    timeout_ms: 7\n", "supervisor.caps (line 4): merge keys"},
		{"two documents", "listen: 127.0.0.1:1\n---\nlisten: 127.0.0.1:2\n", "more than one YAML document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			if err := ParseConfig([]byte(tc.yaml), &cfg); err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %v, want an error saying %q", err, tc.says)
			}
		})
	}
	// What stays valid: no document, comments only, aliases (checked once
	// however often used), hex integers, quoted strings.
	for _, ok := range []string{"", "# nothing\n", "supervisor:\n  defaults: &d {timeout_ms: 5}\n  caps: *d\n",
		"supervisor:\n  pool_size: 0x2\n", "anonymous: \"5\"\nanonymous_non_loopback: true\ntenants:\n  - name: a\n    rate: 2\n    modules: []\n"} {
		cfg := DefaultConfig()
		if err := ParseConfig([]byte(ok), &cfg); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// TestLoneSurrogateRoundTrips: a value the daemon returns with a lone
// surrogate escaped (README, the contract) is accepted back as input
// and comes back the same.
func TestLoneSurrogateRoundTrips(t *testing.T) {
	d := startDaemon(t, nil)
	resp, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return JSON.rawJSON('\"\\ud800\"')"}`)
	res := envelope(t, b)
	if resp.StatusCode != 200 || !res.OK {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	resp, b = d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return [input, input.length, input.charCodeAt(0)]","input":`+string(res.Value)+`}`)
	if again := envelope(t, b); resp.StatusCode != 200 || !again.OK || string(again.Value) != `["\ud800",1,55296]` {
		t.Fatalf("%s fed back as input: %d %s", res.Value, resp.StatusCode, b)
	}
}
