package differential

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// outcome is what both sides are reduced to: ok and the value's JSON, or
// the error's name and message.
type outcome struct {
	OK      bool            `json:"ok"`
	Value   json.RawMessage `json:"value,omitempty"`
	Name    string          `json:"name,omitempty"`
	Message string          `json:"message,omitempty"`
	// setupErr says why Node could not run the script at all.
	setupErr string
}

func (o outcome) String() string {
	if o.OK {
		v, err := canonicalJSON(o.Value)
		if err != nil {
			v = string(o.Value)
		}
		return "ok " + truncate(v, 2000)
	}
	return fmt.Sprintf("failed %s: %s", o.Name, truncate(o.Message, 2000))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// sameOutcome compares two outcomes: both ok with the same canonical
// JSON, or both failed with the same name and message.
func sameOutcome(a, b outcome) bool {
	if a.OK != b.OK {
		return false
	}
	if !a.OK {
		return a.Name == b.Name && a.Message == b.Message
	}
	ca, errA := canonicalJSON(a.Value)
	cb, errB := canonicalJSON(b.Value)
	return errA == nil && errB == nil && ca == cb
}

// canonicalJSON rewrites JSON text so that two texts are equal exactly
// when they are the same JSON as JSON.stringify writes it: whitespace
// and the spelling of string escapes do not count ("\u00e9" is "é"),
// while key order and the text of numbers do (1 and 1.0 differ, as
// JSON.stringify never writes 1.0). A lone surrogate stays an escape,
// so "\ud800" and "\ufffd" differ.
func canonicalJSON(raw []byte) (string, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var b strings.Builder
	// Token drops the commas and colons; a container's state says which
	// to write back.
	type frame struct {
		object bool
		n      int
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			if err == io.EOF && len(stack) == 0 && b.Len() > 0 {
				return b.String(), nil
			}
			return "", fmt.Errorf("not JSON: %w", err)
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			b.WriteByte(byte(d))
			continue
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			switch {
			case top.object && top.n%2 == 1:
				b.WriteByte(':')
			case top.n > 0:
				b.WriteByte(',')
			}
			top.n++
		}
		switch v := tok.(type) {
		case json.Delim:
			stack = append(stack, frame{object: v == '{'})
			b.WriteByte(byte(v))
		case string:
			// Token decodes a lone surrogate to U+FFFD; the string is
			// read again from the raw text to keep it.
			b.WriteString(quote(rawString(raw, dec.InputOffset())))
		case json.Number:
			b.WriteString(v.String())
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case nil:
			b.WriteString("null")
		}
	}
}

// rawString decodes the JSON string literal that ends at end in raw into
// UTF-16 code units, keeping lone surrogates.
func rawString(raw []byte, end int64) []uint16 {
	lit := raw[:end]
	// The literal starts at the last unescaped quote before its end.
	i := int(end) - 2
	for ; i >= 0; i-- {
		if lit[i] == '"' {
			k := i - 1
			for k >= 0 && lit[k] == '\\' {
				k--
			}
			if (i-k-1)%2 == 0 {
				break
			}
		}
	}
	s := string(lit[i+1 : end-1])
	var units []uint16
	for j := 0; j < len(s); {
		if s[j] != '\\' {
			r, size := utf8.DecodeRuneInString(s[j:])
			units = utf16.AppendRune(units, r)
			j += size
			continue
		}
		switch s[j+1] {
		case 'u':
			n, _ := strconv.ParseUint(s[j+2:j+6], 16, 16)
			units = append(units, uint16(n))
			j += 6
			continue
		case 'b':
			units = append(units, '\b')
		case 'f':
			units = append(units, '\f')
		case 'n':
			units = append(units, '\n')
		case 'r':
			units = append(units, '\r')
		case 't':
			units = append(units, '\t')
		default: // " \ /
			units = append(units, uint16(s[j+1]))
		}
		j += 2
	}
	return units
}

// quote writes code units as one JSON string: pairs as their character,
// lone surrogates and control characters as \u escapes.
func quote(units []uint16) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case utf16.IsSurrogate(rune(u)) && u < 0xdc00 && i+1 < len(units) && units[i+1] >= 0xdc00 && units[i+1] < 0xe000:
			b.WriteRune(utf16.DecodeRune(rune(u), rune(units[i+1])))
			i++
		case utf16.IsSurrogate(rune(u)) || u < 0x20:
			fmt.Fprintf(&b, `\u%04x`, u)
		case u == '"' || u == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(u))
		default:
			b.WriteRune(rune(u))
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestCompareSeesDifferences: the comparison ignores what JSON text may
// spell differently and sees every difference JSON.stringify shows.
func TestCompareSeesDifferences(t *testing.T) {
	ok := func(v string) outcome { return outcome{OK: true, Value: json.RawMessage(v)} }
	same := [][2]outcome{
		{ok(`{"a": [1, "x"]}`), ok(`{"a":[1,"x"]}`)},
		{ok(`"\u00e9\n\""`), ok(`"é\u000a\u0022"`)},
		{ok(`"\ud83d\ude00"`), ok(`"😀"`)},
		{ok(`"\ud800"`), ok(`"\uD800"`)},
		{ok(`"a\\\"b"`), ok(`"a\u005c\u0022b"`)},
		{outcome{Name: "TypeError", Message: "m"}, outcome{Name: "TypeError", Message: "m"}},
	}
	for _, p := range same {
		if !sameOutcome(p[0], p[1]) {
			t.Errorf("%s and %s compared different", p[0], p[1])
		}
	}
	differ := [][2]outcome{
		{ok(`{"a":1,"b":2}`), ok(`{"b":2,"a":1}`)},
		{ok(`1`), ok(`1.0`)},
		{ok(`1e21`), ok(`1e+21`)},
		{ok(`"\ud800"`), ok(`"\ufffd"`)},
		{ok(`"\ud800x"`), ok(`"\udc00x"`)},
		{ok(`[1,2]`), ok(`[1,2,3]`)},
		{ok(`[[1],2]`), ok(`[[1,2]]`)},
		{ok(`null`), outcome{Name: "Error", Message: "null"}},
		{outcome{Name: "TypeError", Message: "m"}, outcome{Name: "RangeError", Message: "m"}},
		{outcome{Name: "TypeError", Message: "m"}, outcome{Name: "TypeError", Message: "n"}},
		{ok(`{"a":1}`), ok(`{not json`)},
	}
	for _, p := range differ {
		if sameOutcome(p[0], p[1]) {
			t.Errorf("%s and %s compared the same", p[0], p[1])
		}
	}
}

// recorder keeps what report says.
type recorder struct{ errors, logs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// TestReportFailsWhereItShould: a difference not listed fails, a listed
// one is only logged, a listed script that agrees fails, and so does a
// listed name that is no script.
func TestReportFailsWhereItShould(t *testing.T) {
	ok := func(v string) outcome { return outcome{OK: true, Value: json.RawMessage(v)} }
	scripts := []script{{name: "agree"}, {name: "differs_listed"}, {name: "differs_unlisted"}, {name: "agrees_listed"}, {name: "node_broke"}}
	warden := []outcome{ok(`1`), ok(`2`), ok(`3`), ok(`4`), ok(`5`)}
	node := []outcome{ok(`1`), ok(`20`), {Name: "Error", Message: "3"}, ok(`4`), {setupErr: "exit status 1"}}
	known := map[string]string{"differs_listed": "r1", "agrees_listed": "r2", "gone": "r3"}
	var r recorder
	same, differ, unlisted := report(&r, scripts, known, warden, node)
	if same != 2 || differ != 2 || unlisted != 1 {
		t.Errorf("same %d, differ %d, unlisted %d; want 2, 2, 1", same, differ, unlisted)
	}
	for _, want := range []string{"differs_unlisted: Warden and Node differ", "agrees_listed: listed in known.txt", "known.txt lists gone", "node_broke: node did not run"} {
		if !slices.ContainsFunc(r.errors, func(e string) bool { return strings.HasPrefix(e, want) }) {
			t.Errorf("no error starting %q in %q", want, r.errors)
		}
	}
	if len(r.errors) != 4 {
		t.Errorf("%d errors, want 4: %q", len(r.errors), r.errors)
	}
	if len(r.logs) != 1 || !strings.HasPrefix(r.logs[0], "differs_listed: differs, as known.txt says (r1)") {
		t.Errorf("logs %q", r.logs)
	}
}
