// Package strictjson decodes JSON with the strictness of encoding/json/v2
// (RFC 8259 as written, RFC 7493's I-JSON profile) on top of
// encoding/json: object member names match a struct's json tags exactly
// (encoding/json folds case and Unicode: "CODE" and "code\u017f"-like
// spellings reach the field "code"), a name given twice in one object is
// an error (encoding/json keeps the last), invalid UTF-8 and lone
// surrogate escapes are errors (encoding/json rewrites both to U+FFFD;
// inside a json.RawMessage, whose text is kept as written, a lone
// surrogate escape loses nothing and is accepted, so that a value
// Warden returned can be sent back as input),
// and null is an error for every Go type that cannot hold it (a string,
// a number, a bool, a struct, a map, a slice, a json.Unmarshaler that is
// not a pointer): encoding/json leaves such a value as it was, so null
// passes for absent. null stays valid where the type is arbitrary JSON
// (json.RawMessage, an interface) or a pointer.
//
// Unmarshal first walks the text against v's type, checking all of that
// and the syntax itself, and only then hands it to encoding/json, which
// after the walk can only read what the walk accepted. RATIONALE.md,
// "Strict JSON decoding", says why this and not the v2 module.
package strictjson

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// MaxDepth is the deepest nesting accepted, encoding/json's own bound.
const MaxDepth = 10000

// Error says what is wrong with a JSON text and where: Pointer is the
// RFC 6901 JSON Pointer of the value at fault ("" for the whole text),
// Offset its byte offset.
type Error struct {
	Pointer string
	Offset  int
	Msg     string
}

func (e *Error) Error() string {
	if e.Pointer == "" {
		return fmt.Sprintf("%s (at byte %d)", e.Msg, e.Offset)
	}
	return fmt.Sprintf("%s: %s (at byte %d)", e.Pointer, e.Msg, e.Offset)
}

// Unmarshal decodes exactly one JSON value from b into v (a non-nil
// pointer), refusing with an *Error what the package doc lists, an
// unknown field and data after the value. An error of a json.Unmarshaler
// inside v is returned as it is.
func Unmarshal(b []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strictjson: Unmarshal needs a non-nil pointer, got %T", v)
	}
	if err := Check(b, rv.Type().Elem()); err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Check reports whether b is one JSON value that Unmarshal into a value
// of type t would accept, without decoding it.
func Check(b []byte, t reflect.Type) error {
	s := &scanner{b: b}
	s.skipSpace()
	if err := s.value(t, 0); err != nil {
		return err
	}
	s.skipSpace()
	if s.i < len(s.b) {
		return s.fail("data after the JSON value")
	}
	return nil
}

// scanner walks one JSON text. path holds the member names and indices
// from the top to the value being read, for Error.Pointer.
type scanner struct {
	b    []byte
	i    int
	path []string
	// raw is set inside a json.RawMessage: its text is kept as it is,
	// so a lone surrogate escape there loses nothing (the engine's
	// JSON.parse makes it the lone surrogate it spells, and Warden's
	// own results escape lone surrogates that way), while a string
	// decoded into a Go value would have it turned into U+FFFD.
	raw bool
}

func (s *scanner) fail(format string, args ...any) *Error {
	var p strings.Builder
	for _, seg := range s.path {
		p.WriteByte('/')
		p.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(seg))
	}
	return &Error{Pointer: p.String(), Offset: s.i, Msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) skipSpace() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// shape is what a Go type lets a JSON value be.
type shape int

const (
	anyJSON     shape = iota // json.RawMessage, interfaces: any value, null too
	custom                   // a json.Unmarshaler: any value but null; it checks the rest
	objectShape              // a struct
	mapShape                 // a map with string keys
	arrayShape               // a slice or an array
	stringShape
	boolShape
	intShape
	uintShape
	floatShape
)

// wireTypes maps a json.Unmarshaler's type to the type of its JSON
// (Wire).
var wireTypes sync.Map // reflect.Type -> reflect.Type

// Wire declares that a T decodes (in its UnmarshalJSON) the JSON of a W,
// so that Check, where it meets a T, walks W's shape: names, nulls and
// types are then checked there, and an error says where it is in the
// whole text, not in the T's part of it.
func Wire[T, W any]() {
	wireTypes.Store(reflect.TypeFor[T](), reflect.TypeFor[W]())
}

// wireType is t's declared wire type, or t.
func wireType(t reflect.Type) reflect.Type {
	if w, ok := wireTypes.Load(t); ok {
		return w.(reflect.Type)
	}
	return t
}

func shapeOf(t reflect.Type) shape {
	switch {
	case t == rawMessageType || t.Kind() == reflect.Interface:
		return anyJSON
	case t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType):
		return custom
	}
	switch t.Kind() {
	case reflect.Struct:
		return objectShape
	case reflect.Map:
		return mapShape
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return stringShape // encoding/json's base64
		}
		return arrayShape
	case reflect.String:
		return stringShape
	case reflect.Bool:
		return boolShape
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intShape
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintShape
	case reflect.Float32, reflect.Float64:
		return floatShape
	}
	return anyJSON
}

var wantNames = map[shape]string{objectShape: "an object", mapShape: "an object", arrayShape: "an array",
	stringShape: "a string", boolShape: "true or false", intShape: "an integer", uintShape: "a non-negative integer",
	floatShape: "a number"}

var kindNames = map[byte]string{'{': "an object", '[': "an array", '"': "a string", 'n': "null",
	't': "a bool", 'f': "a bool", '0': "a number"}

// value reads one value that a Go value of type t (nil: any JSON) is
// to take, inside depth objects and arrays.
func (s *scanner) value(t reflect.Type, depth int) error {
	sh := anyJSON
	if t != nil {
		for t.Kind() == reflect.Pointer {
			if s.literal("null") {
				return nil
			}
			t = t.Elem()
		}
		t = wireType(t)
		sh = shapeOf(t)
		// An interface stays, for its numbers (float64s, which
		// encoding/json refuses past float64's range); json.RawMessage
		// and an Unmarshaler take any text.
		if t == rawMessageType && !s.raw {
			s.raw = true
			defer func() { s.raw = false }()
		}
		if sh == custom || t == rawMessageType {
			t = nil
		}
	}
	if s.i >= len(s.b) {
		return s.fail("unexpected end of the JSON text")
	}
	got, err := s.kind()
	if err != nil {
		return err
	}
	if err := checkKind(s, sh, got); err != nil {
		return err
	}
	if (got == '{' || got == '[') && depth >= MaxDepth {
		return s.fail("nested deeper than %d levels", MaxDepth)
	}
	switch got {
	case '{':
		return s.object(t, sh, depth)
	case '[':
		return s.array(elemOf(t), depth)
	case '"':
		_, err := s.str(false)
		return err
	case 'n':
		s.i += len("null")
		return nil
	case 't':
		s.i += len("true")
		return nil
	case 'f':
		s.i += len("false")
		return nil
	}
	switch {
	case t == nil:
		return s.number(sh, 0)
	case t.Kind() == reflect.Interface:
		return s.number(floatShape, 64)
	}
	return s.number(sh, t.Bits())
}

var literals = map[byte]string{'n': "null", 't': "true", 'f': "false"}

// kind names the value at s.i by its first byte ('0' for any number),
// checking a literal's spelling.
func (s *scanner) kind() (byte, error) {
	switch c := s.b[s.i]; c {
	case '{', '[', '"':
		return c, nil
	case 'n', 't', 'f':
		word := literals[c]
		if !s.has(word) {
			return 0, s.fail("invalid literal, want %s", word)
		}
		return c, nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return '0', nil
	default:
		return 0, s.fail("invalid character %q looking for the beginning of a value", rune(c))
	}
}

// checkKind refuses a value of kind got where the shape wants another.
func checkKind(s *scanner, sh shape, got byte) error {
	ok := false
	switch sh {
	case anyJSON:
		return nil
	case custom:
		ok = got != 'n'
	case objectShape, mapShape:
		ok = got == '{'
	case arrayShape:
		ok = got == '['
	case stringShape:
		ok = got == '"'
	case boolShape:
		ok = got == 't' || got == 'f'
	case intShape, uintShape, floatShape:
		ok = got == '0'
	}
	if ok {
		return nil
	}
	if sh == custom {
		return s.fail("null is not allowed here")
	}
	if got == 'n' {
		return s.fail("null is not allowed here, want %s", wantNames[sh])
	}
	return s.fail("want %s, got %s", wantNames[sh], kindNames[got])
}

func (s *scanner) has(word string) bool {
	return len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word
}

func (s *scanner) literal(word string) bool {
	s.skipSpace()
	if s.has(word) {
		s.i += len(word)
		return true
	}
	return false
}

// object reads an object into a struct (sh objectShape, t its type), a
// map (mapShape) or anything (t nil), refusing a name given twice and,
// for a struct, a name that is not exactly one of its fields'.
func (s *scanner) object(t reflect.Type, sh shape, depth int) error {
	s.i++ // {
	var fields map[string]reflect.Type
	elem := elemOf(t)
	if t != nil && sh == objectShape {
		fields = fieldsOf(t)
	}
	seen := names{}
	s.skipSpace()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.skipSpace()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.fail("want a member name in double quotes")
		}
		at := s.i
		name, err := s.str(true)
		if err != nil {
			return err
		}
		if !seen.add(name) {
			s.i = at
			return s.fail("duplicate member name %q", name)
		}
		if fields != nil {
			ft, ok := fields[name]
			if !ok {
				s.i = at
				return s.fail("unknown field %q; the fields are %s (names match exactly)", name, fieldList(t))
			}
			elem = ft
		}
		s.skipSpace()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.fail("want ':' after a member name")
		}
		s.i++
		s.skipSpace()
		s.path = append(s.path, name)
		err = s.value(elem, depth+1)
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
		if done, err := s.next('}'); done || err != nil {
			return err
		}
	}
}

// elemOf is the type of the values in an array or object of type t: an
// interface's are that interface (encoding/json decodes them as []any
// and map[string]any), a struct's are by field (object looks them up).
func elemOf(t reflect.Type) reflect.Type {
	switch {
	case t == nil || t.Kind() == reflect.Struct:
		return nil
	case t.Kind() == reflect.Interface:
		return t
	}
	return t.Elem()
}

// array reads an array whose elements are of type elem (nil: any).
func (s *scanner) array(elem reflect.Type, depth int) error {
	s.i++ // [
	s.skipSpace()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		s.skipSpace()
		s.path = append(s.path, strconv.Itoa(n))
		err := s.value(elem, depth+1)
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
		if done, err := s.next(']'); done || err != nil {
			return err
		}
	}
}

// next reads the ',' before another member or element, or the closing
// byte (done).
func (s *scanner) next(closing byte) (done bool, err error) {
	s.skipSpace()
	switch {
	case s.i >= len(s.b):
		return false, s.fail("unexpected end of the JSON text")
	case s.b[s.i] == ',':
		s.i++
		return false, nil
	case s.b[s.i] == closing:
		s.i++
		return true, nil
	}
	return false, s.fail("invalid character %q, want ',' or %q", rune(s.b[s.i]), rune(closing))
}
