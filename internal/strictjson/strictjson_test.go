package strictjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	N int64 `json:"n"`
}

type body struct {
	Code    string            `json:"code"`
	Input   json.RawMessage   `json:"input,omitempty"`
	Inner   inner             `json:"inner"`
	Modules map[string]string `json:"modules,omitempty"`
	List    []int             `json:"list"`
	Ptr     *inner            `json:"ptr"`
	Flag    bool              `json:"flag"`
	F       float64           `json:"f"`
	Skip    string            `json:"-"`
}

// TestRefusals: each text is refused with an *Error whose message names
// the problem and whose Pointer is the value at fault.
func TestRefusals(t *testing.T) {
	for _, tc := range []struct{ in, ptr, msg string }{
		{`{"CODE":"x"}`, "", `unknown field "CODE"`},
		{`{"Code":"x"}`, "", `unknown field "Code"`},
		{`{"inner":{"N":1}}`, "/inner", `unknown field "N"`},
		{`{"code\u017f":"x"}`, "", `unknown field "codeſ"`},
		{"{\"cod\u212a\":1}", "", `unknown field`},
		{`{"Skip":"x"}`, "", `unknown field "Skip"`},
		{`{"code":"a","code":"b"}`, "", `duplicate member name "code"`},
		{`{"code":"a","c\u006fde":"b"}`, "", `duplicate member name "code"`},
		{`{"modules":{"a":"1","a":"2"}}`, "/modules", `duplicate member name "a"`},
		{`{"input":{"x":1,"x":2}}`, "/input", `duplicate member name "x"`},
		{`{"input":[{"x":1,"y":{"z":1,"z":1}}]}`, "/input/0/y", `duplicate member name "z"`},
		{"{\"code\":\"\xff\"}", "/code", "invalid UTF-8"},
		{"{\"code\":\"\xed\xa0\x80\"}", "/code", "invalid UTF-8"},
		{"{\"input\":\"\xc0\x80\"}", "/input", "invalid UTF-8"},
		{"{\"\xff\":1}", "", "invalid UTF-8"},
		{`{"code":"\ud800"}`, "/code", `lone surrogate \ud800`},
		{`{"modules":{"m":"\udc00x"}}`, "/modules/m", `lone surrogate \udc00`},
		{`{"modules":{"\ud800":"x"}}`, "/modules", `lone surrogate \ud800`},
		{`null`, "", "null is not allowed here, want an object"},
		{`{"code":null}`, "/code", "null is not allowed here, want a string"},
		{`{"inner":null}`, "/inner", "null is not allowed here, want an object"},
		{`{"inner":{"n":null}}`, "/inner/n", "null is not allowed here, want an integer"},
		{`{"modules":null}`, "/modules", "null is not allowed here, want an object"},
		{`{"modules":{"a":null}}`, "/modules/a", "null is not allowed here, want a string"},
		{`{"list":null}`, "/list", "null is not allowed here, want an array"},
		{`{"flag":null}`, "/flag", "want true or false"},
		{`{"code":1}`, "/code", "want a string, got a number"},
		{`{"inner":{"n":1.5}}`, "/inner/n", "1.5 is not an integer"},
		{`{"inner":{"n":1e3}}`, "/inner/n", "1e3 is not an integer"},
		{`{"inner":{"n":9223372036854775808}}`, "/inner/n", "is not an integer"},
		{`{"inner":{"n":"5"}}`, "/inner/n", "want an integer, got a string"},
		{`{"code":"x"} {}`, "", "data after the JSON value"},
		{`{"code":"x"`, "", "unexpected end"},
		{`{"code":"x",}`, "", "want a member name"},
		{`{"f":01}`, "", "want ',' or '}'"},
		{`{"f":-}`, "/f", "invalid number"},
		{`{"code":"a` + "\n" + `"}`, "/code", "control character"},
		{`{"code":"\x"}`, "/code", `invalid escape \x`},
		{`{"code":"\u12G4"}`, "/code", `invalid \u escape`},
		{`{"input":tru}`, "/input", "invalid literal"},
		{"\ufeff{}", "", "invalid character"},
		{``, "", "unexpected end"},
		{`{"input":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`, "/input" + strings.Repeat("/0", MaxDepth-1), "nested deeper"},
	} {
		var v body
		err := Unmarshal([]byte(tc.in), &v)
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("%.60q: got %v, want an *Error", tc.in, err)
			continue
		}
		if !strings.Contains(se.Msg, tc.msg) || se.Pointer != tc.ptr {
			t.Errorf("%.60q: got %q at %q, want %q at %q", tc.in, se.Msg, se.Pointer, tc.msg, tc.ptr)
		}
	}
}

// TestAccepts: what the API sends is decoded as encoding/json decodes
// it; null stays valid for arbitrary JSON and pointers.
func TestAccepts(t *testing.T) {
	for _, in := range []string{
		`{}`,
		` {"code":"return 1","input":null} `,
		`{"code":"\ud83d\ude00 \u00e9 é","input":{"a":[1,{"a":2}],"b":"\u0000"}}`,
		`{"inner":{"n":-9223372036854775808},"ptr":null,"flag":false,"f":1.5e-3}`,
		`{"ptr":{"n":1},"list":[1,2,3],"modules":{"a":"b","A":"c"}}`,
		`{"input":{"x":{"x":{"x":1}}}}`,
		// Raw JSON keeps a lone surrogate escape as written (it loses
		// nothing there, and Warden's results spell them so).
		`{"input":"\udc00x"}`,
		`{"input":["\ud800\u0041", {"k":"\ud83d"}]}`,
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	} {
		typ := reflect.TypeFor[body]()
		if strings.HasPrefix(in, "[") {
			typ = reflect.TypeFor[any]()
		}
		if err := Check([]byte(in), typ); err != nil {
			t.Errorf("%.60q: %v", in, err)
			continue
		}
		var got, want = reflect.New(typ), reflect.New(typ)
		if err := Unmarshal([]byte(in), got.Interface()); err != nil {
			t.Errorf("%.60q: %v", in, err)
		}
		json.Unmarshal([]byte(in), want.Interface())
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Errorf("%.60q: got %+v, encoding/json %+v", in, got.Elem(), want.Elem())
		}
	}
}

type selfChecked struct{ n int }

func (c *selfChecked) UnmarshalJSON(b []byte) error {
	if string(b) != `{"N":1}` {
		return errors.New("custom says no")
	}
	c.n = 1
	return nil
}

// TestUnmarshaler: a json.Unmarshaler gets its value, after the generic
// checks (duplicates, UTF-8), never null, and its error comes back as is.
func TestUnmarshaler(t *testing.T) {
	var v struct {
		C selfChecked `json:"c"`
	}
	if err := Unmarshal([]byte(`{"c":{"N":1}}`), &v); err != nil || v.C.n != 1 {
		t.Fatalf("got %v, %+v", err, v)
	}
	if err := Unmarshal([]byte(`{"c":{"M":1}}`), &v); err == nil || err.Error() != "custom says no" {
		t.Errorf("got %v, want the Unmarshaler's own error", err)
	}
	for _, in := range []string{`{"c":null}`, `{"c":{"N":1,"N":1}}`, "{\"c\":{\"N\":\"\xff\"}}"} {
		var se *Error
		if err := Unmarshal([]byte(in), &v); !errors.As(err, &se) {
			t.Errorf("%q: got %v, want an *Error", in, err)
		}
	}
}

type wired struct{ n int64 }

type wiredJSON struct {
	N int64 `json:"n"`
}

func (w *wired) UnmarshalJSON(b []byte) error {
	var j wiredJSON
	err := Unmarshal(b, &j)
	w.n = j.N
	return err
}

// TestWire: a type declared with Wire is checked by its wire form's
// shape, its errors placed in the whole text.
func TestWire(t *testing.T) {
	Wire[wired, wiredJSON]()
	var v struct {
		W wired `json:"w"`
	}
	err := Unmarshal([]byte(`{"w":{"n":1,"N":2}}`), &v)
	var se *Error
	if !errors.As(err, &se) || se.Pointer != "/w" || se.Offset != 12 || !strings.Contains(se.Msg, `unknown field "N"`) {
		t.Fatalf("got %#v", err)
	}
	if err := Unmarshal([]byte(`{"w":{"n":7}}`), &v); err != nil || v.W.n != 7 {
		t.Fatalf("got %v, %+v", err, v)
	}
}

// benchInput is a body with an input of many small objects and strings.
func benchInput() []byte {
	var b strings.Builder
	b.WriteString(`{"code":"return input.length","input":[`)
	for i := range 200000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":12345,"name":"caf\u00e9 é","tags":["a","b"],"ok":true}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkUnmarshal(b *testing.B) {
	in := benchInput()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		var v body
		if err := Unmarshal(in, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodingJSON(b *testing.B) {
	in := benchInput()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		var v body
		if err := json.Unmarshal(in, &v); err != nil {
			b.Fatal(err)
		}
	}
}
