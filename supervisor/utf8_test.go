package supervisor

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/wardenhq/warden/contract"
)

// TestEnvelopeIsUTF8: through a real child, the lone surrogates
// JSON.rawJSON leaves in a result, in host.request arguments (which the
// supervisor checks are UTF-8 JSON before the handler sees them) and in a
// module's value arrive as escapes, and a handler's answer that is not
// UTF-8 rejects the guest's promise.
func TestEnvelopeIsUTF8(t *testing.T) {
	s := newSup(t, nil)
	var seen []string
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		seen = append(seen, string(args))
		if name == "bad" {
			return json.RawMessage("\"\xed\xa0\x80\""), nil
		}
		return args, nil
	}
	req := contract.Request{
		Code: `const a = await host.request("echo", {k: JSON.rawJSON('"\ud800"')});
let e; try { await host.request("bad") } catch (x) { e = x.message }
return [a, JSON.rawJSON('"x\udfffy"'), (await import("m")).v, e]`,
		Modules: map[string]string{"m": `export const v = JSON.rawJSON('"\udbff"');`},
	}
	res, err := s.Execute(context.Background(), req, handler)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"k":"\ud800"},"x\udfffy","\udbff","host.request \"bad\": the data handler answered with JSON that is not valid UTF-8"]`
	if string(res.Value) != want || !utf8.Valid(res.Value) {
		t.Fatalf("value %q, want %q", res.Value, want)
	}
	if len(seen) != 2 || seen[0] != `{"k":"\ud800"}` {
		t.Fatalf("the handler saw %q", seen)
	}
}
