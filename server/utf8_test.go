package server

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// lonelySurrogates puts lone surrogates everywhere a script can: the
// value (JSON.rawJSON, nested, and as JSON.stringify writes them), a
// host.request's arguments and name, and the logs.
const lonelySurrogates = `console.log("log \ud800");
const a = await host.request("name \udc00", [JSON.rawJSON('"\ud800"')]);
return {raw: JSON.rawJSON('"\ud800"'), nested: [{x: JSON.rawJSON('"a\udbffb"')}], plain: "\udfff", answer: a}`

// TestEnvelopesAreUTF8: whatever lone surrogates a script makes, every
// body the daemon sends (the JSON envelope, each server-sent event) is
// valid UTF-8 (RFC 8259 section 8.1): in JSON values they are escapes,
// in text U+FFFD.
func TestEnvelopesAreUTF8(t *testing.T) {
	d := startDaemon(t, nil)
	code := strings.Replace(lonelySurrogates, `await host.request("name \udc00", [JSON.rawJSON('"\ud800"')])`, `1`, 1)
	resp, body := d.call(t, "POST", "/v1/executions", acmeToken, map[string]any{"code": code})
	if resp.StatusCode != 200 || !utf8.Valid(body) {
		t.Fatalf("status %d, UTF-8 %t: %q", resp.StatusCode, utf8.Valid(body), body)
	}
	wantValue := `{"raw":"\ud800","nested":[{"x":"a\udbffb"}],"plain":"\udfff","answer":1}`
	if !bytes.Contains(body, []byte(`"value":`+wantValue)) || !bytes.Contains(body, []byte("log \uFFFD")) {
		t.Fatalf("body %s: want value %s and the log with U+FFFD", body, wantValue)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.stream(t, ctx, acmeToken, map[string]any{"code": lonelySurrogates, "limits": map[string]any{"timeout_ms": 10000}})
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	id := resp.Header.Get(ExecutionIDHeader)
	var result []byte
	for {
		e, ok := next()
		if !ok {
			break
		}
		if !utf8.Valid(e.raw) {
			t.Fatalf("%s event is not UTF-8: %q", e.typ, e.raw)
		}
		switch e.typ {
		case "data_request":
			dr := e.ev.DataRequest
			if string(dr.Args) != `["\ud800"]` || dr.Name != "name \uFFFD" {
				t.Fatalf("data request name %q args %s", dr.Name, dr.Args)
			}
			path := fmt.Sprintf("/v1/executions/%s/data/%d", id, dr.Seq)
			if r, b := d.call(t, "POST", path, acmeToken, `{"value":1}`); r.StatusCode != 204 {
				t.Fatalf("answer: %d %s", r.StatusCode, b)
			}
		case "result":
			result = e.raw
		}
	}
	if !bytes.Contains(result, []byte(`"value":`+wantValue)) {
		t.Fatalf("result event %s: want value %s", result, wantValue)
	}
}
