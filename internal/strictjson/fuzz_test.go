package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// duplicateNames reports, by encoding/json's own tokenizer, whether some
// object of a valid text gives a member name twice.
func duplicateNames(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				markValue(stack)
				continue
			}
			k := tok.(string)
			if top.seen[k] {
				return true
			}
			top.seen[k], top.wantKey = true, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, wantKey: true, seen: map[string]bool{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			markValue(stack)
		default:
			markValue(stack)
		}
	}
}

// frame is one object or array open in duplicateNames' walk.
type frame struct {
	object, wantKey bool
	seen            map[string]bool
}

// markValue notes that the innermost object got a member's value.
func markValue(stack []*frame) {
	if n := len(stack); n > 0 && stack[n-1].object {
		stack[n-1].wantKey = true
	}
}

// strictReference is what encoding/json/v2 accepts as any JSON, told by
// encoding/json: a text it decodes into an any (numbers in float64's
// range), valid UTF-8, no name twice in an object,
// and no lone surrogate escape. known is false when the last cannot be
// told (encoding/json turns a lone surrogate into U+FFFD, which the text
// may also hold as itself).
func strictReference(b []byte) (ok, known bool) {
	var v any
	if json.Unmarshal(b, &v) != nil || !utf8.Valid(b) || duplicateNames(b) {
		return false, true
	}
	if bytes.Contains(b, []byte("\uFFFD")) || strings.Contains(strings.ToLower(string(b)), "fffd") {
		return true, false
	}
	out, _ := json.Marshal(v)
	// encoding/json escapes U+FFFD as itself: any in the output came from
	// a lone surrogate.
	return !bytes.Contains(out, []byte("\uFFFD")), true
}

var fuzzSeeds = []string{
	`{}`, `[]`, `null`, `1`, `-0.5e+10`, `"x"`, `{"a":1,"b":[true,false,null]}`,
	`{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `[{"a":1},{"a":1}]`, `{"a":1,"\u0061":2}`,
	`"\ud800"`, `"\udc00"`, `"\ud83d\ude00"`, `"\ud800\ud800"`, "\"\xed\xa0\x80\"", "\"\xff\"",
	`{"code":"return 1","input":{"x":[1,2]},"limits":{"timeout_ms":5},"modules":{"m":"export default 1"}}`,
	`{"CODE":"x","Limits":{"Timeout_MS":5}}`, `{"limit\u017f":{}}`, `{"code":null}`, `{"modules":null}`,
	`{"inner":{"n":1.0}}`, `{"inner":{"n":1e2}}`, `{"list":[1,2,"3"]}`, `{"ptr":null}`, `"\ufffd"`,
}

// FuzzCheck compares Check on arbitrary JSON with the reference above:
// whatever one accepts the other does, and anything accepted encodes
// again into a text that is accepted and decodes to the same value.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	anyType := reflect.TypeFor[any]()
	f.Fuzz(func(t *testing.T, b []byte) {
		err := Check(b, anyType)
		var se *Error
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("%q: error %v is not an *Error", b, err)
		}
		ok, known := strictReference(b)
		if err == nil && !ok {
			t.Fatalf("%q: accepted, but the reference refuses it", b)
		}
		if err != nil && ok && known {
			t.Fatalf("%q: refused (%v), but the reference accepts it", b, err)
		}
		if err != nil {
			return
		}
		var v, again any
		if err := Unmarshal(b, &v); err != nil {
			t.Fatalf("%q: Check accepts, Unmarshal says %v", b, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := Unmarshal(out, &again); err != nil || !reflect.DeepEqual(v, again) {
			t.Fatalf("%q: re-encoded as %q: %v, %v != %v", b, out, err, v, again)
		}
	})
}

// FuzzUnmarshalStruct: into a struct, what Unmarshal accepts has only the
// struct's exact names at its top, and encoding/json (with unknown
// fields refused) decodes it to the same value; what it refuses is an
// *Error.
func FuzzUnmarshalStruct(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	fields := fieldsOf(reflect.TypeFor[body]())
	f.Fuzz(func(t *testing.T, b []byte) {
		var got body
		err := Unmarshal(b, &got)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %v is not an *Error", b, err)
			}
			return
		}
		var any any
		if json.Unmarshal(b, &any) != nil || !utf8.Valid(b) || duplicateNames(b) {
			t.Fatalf("%q: accepted, but the reference refuses it", b)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(b, &top); err != nil {
			t.Fatalf("%q: accepted, not an object: %v", b, err)
		}
		for k, v := range top {
			if _, ok := fields[k]; !ok {
				t.Fatalf("%q: accepted the name %q", b, k)
			}
			// Only raw JSON (input) may keep a lone surrogate escape.
			if ok, _ := strictReference(v); !ok && k != "input" {
				t.Fatalf("%q: accepted %q for %q, which the reference refuses", b, v, k)
			}
			if string(v) == "null" && k != "input" && k != "ptr" {
				t.Fatalf("%q: accepted null for %q", b, k)
			}
		}
		var want body
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&want); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: encoding/json: %v, %+v != %+v", b, err, want, got)
		}
	})
}
