package intl

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Behaviour is held to Node's by child/engine's TestIntlNodeTable; these
// test the pieces that table cannot see into.

// TestLookupFindsEveryLine: the binary search over lookup.txt finds each
// line's value by its kind and key, and nothing for a key it lacks.
func TestLookupFindsEveryLine(t *testing.T) {
	b := []byte(lookupText)
	n := 0
	kinds := map[string][]string{}
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		kv, value, _ := strings.Cut(string(line), "\t")
		kind, key, _ := strings.Cut(kv, ":")
		got, ok := lookup(kind, key)
		if !ok || got != value {
			t.Fatalf("lookup(%q, %q) = %q, %v; want %q", kind, key, got, ok, value)
		}
		kinds[kind] = append(kinds[kind], key)
		n++
	}
	for kind, keys := range kinds {
		if got := lookupKeys(kind); !slices.Equal(got, keys) {
			t.Errorf("lookupKeys(%q): %d keys, want %d", kind, len(got), len(keys))
		}
	}
	if n < 1000 {
		t.Fatalf("lookup.txt has %d lines", n)
	}
	for _, k := range []string{"", "zz", "America/New_Yor", "America/New_York/x"} {
		if v, ok := lookup("mz", k); ok {
			t.Errorf("lookup(mz, %q) = %q, want none", k, v)
		}
	}
}

// TestEveryZoneLoads: each zone of the tz data loads from where the
// lookup table says it lies, and New York is five hours behind UTC in
// January and four in July.
func TestEveryZoneLoads(t *testing.T) {
	zones := lookupKeys("zi")
	if len(zones) < 400 {
		t.Fatalf("%d zones", len(zones))
	}
	for _, name := range zones {
		if _, err := location(name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	ny, _ := location("America/New_York")
	for month, want := range map[time.Month]int{time.January: -5 * 3600, time.July: -4 * 3600} {
		if _, off := time.Date(2024, month, 1, 12, 0, 0, 0, ny).Zone(); off != want {
			t.Errorf("New York in %v: offset %d, want %d", month, off, want)
		}
	}
	if _, err := location("Mars/Olympus_Mons"); err == nil {
		t.Error("a zone the data lacks loaded")
	}
}

// TestRoundToModes: each rounding mode on the halves and near-halves of
// both signs, exactly (the table's values are decimal arithmetic).
func TestRoundToModes(t *testing.T) {
	cases := []struct {
		mode roundingMode
		in   []string
		want []string
	}{
		{"halfExpand", []string{"2.5", "-2.5", "2.45", "0.05"}, []string{"3", "-3", "2", "0"}},
		{"halfEven", []string{"2.5", "3.5", "-2.5", "2.51"}, []string{"2", "4", "-2", "3"}},
		{"halfTrunc", []string{"2.5", "2.51", "-2.5"}, []string{"2", "3", "-2"}},
		{"ceil", []string{"2.1", "-2.9", "2"}, []string{"3", "-2", "2"}},
		{"floor", []string{"2.9", "-2.1"}, []string{"2", "-3"}},
		{"expand", []string{"2.0001", "-2.0001"}, []string{"3", "-3"}},
		{"trunc", []string{"2.9999", "-2.9999"}, []string{"2", "-2"}},
		{"halfCeil", []string{"2.5", "-2.5"}, []string{"3", "-2"}},
		{"halfFloor", []string{"2.5", "-2.5"}, []string{"2", "-3"}},
	}
	for _, c := range cases {
		for i, in := range c.in {
			d := parseDecimal(in).roundTo(0, 1, c.mode)
			got, _ := d.intAndFrac(0)
			if d.neg && !d.isZero() {
				got = "-" + got
			}
			if got != c.want[i] {
				t.Errorf("%s(%s) = %s, want %s", c.mode, in, got, c.want[i])
			}
		}
	}
	// A million digits round as their first few say.
	long := parseNumericString("0." + strings.Repeat("4", 1<<20) + "9")
	if got, fr := long.roundTo(3, 1, "halfExpand").intAndFrac(3); got+"."+fr != "0.444" {
		t.Errorf("long string rounds to %s.%s", got, fr)
	}
}

// TestParseNumericString: StringNumericLiteral's forms.
func TestParseNumericString(t *testing.T) {
	for in, want := range map[string]string{
		" 12 ": "12", "0x1F": "31", "0b101": "5", "0o17": "15", "1e3": "1000", ".5": "0.5", "-0.0": "0",
		"1_000": "NaN", "abc": "NaN", "": "0", "+Infinity": "Inf", "1e": "NaN", "0x": "NaN",
	} {
		d := parseNumericString(in)
		var got string
		switch {
		case d.nan:
			got = "NaN"
		case d.inf:
			got = "Inf"
		default:
			i, f := d.intAndFrac(0)
			got = i
			if f != "" {
				got += "." + f
			}
		}
		if got != want {
			t.Errorf("parseNumericString(%q) = %s, want %s", in, got, want)
		}
	}
}

// FuzzCall: whatever the guest hands the host function (an operation,
// locales, options, a handle, a value), Call answers or errs, and
// never panics; an error the guest sees is a TypeError or RangeError.
func FuzzCall(f *testing.F) {
	handle, _ := Call("nf.resolve", `["de-DE"]`, `{"style":"currency","currency":"EUR"}`)
	dateHandle, _ := Call("dtf.resolve", `["ja-JP"]`, `{"required":"any","defaults":"all","timeZone":"Asia/Tokyo"}`)
	f.Add(0, `["en-US"]`, `{}`)
	f.Add(1, `["x-EN","de-u-nu-arab"]`, `{"notation":"compact","maximumSignificantDigits":"3"}`)
	f.Add(2, handle, `s:  1e400`)
	f.Add(3, dateHandle, `8.64e15`)
	f.Add(4, `["zh-Hant-TW"]`, `{"timeZone":"america/new_york","hourCycle":"h24","fractionalSecondDigits":"2"}`)
	f.Add(5, `["sv"]`, `{"sensitivity":"case","caseFirst":"upper"}`)
	f.Add(6, `{"locale":"en","type":"disjunction","style":"short"}`, `["a","b","c"]`)
	f.Add(7, `{"locale":"ru","style":"narrow","numeric":"auto","numberingSystem":"latn"}`, "-2\x00days")
	f.Add(8, handle, `["n:-3","s:1e400","-3","x"]`)
	f.Add(9, dateHandle, `["0","8.64e15"]`)
	f.Add(10, "word", "e\u0301 \u0915\u094d\u0937 a_b \xed\xa0\x80")
	// Every operation Call serves, in a fixed order.
	ops := make([]string, 0, len(operations))
	for name := range operations {
		ops = append(ops, name)
	}
	sort.Strings(ops)
	f.Fuzz(func(t *testing.T, op int, a, b string) {
		if op < 0 {
			op = -op
		}
		_, err := Call(ops[op%len(ops)], a, b)
		var ie *Error
		if err != nil && errors.As(err, &ie) && ie.Name != "TypeError" && ie.Name != "RangeError" {
			t.Fatalf("error %v", err)
		}
	})
}

// TestForgedNumberHandles: guest code can pass the prelude any string as
// a NumberFormat's or PluralRules' handle. One the constructor could not
// have made is a TypeError, never a panic or an allocation it sizes;
// one that only lacks the options a PluralRules' handle lacks gets
// their defaults.
func TestForgedNumberHandles(t *testing.T) {
	good, err := Call("nf.resolve", `["de"]`, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	forge := func(edit string) string {
		var h map[string]any
		if err := json.Unmarshal([]byte(good), &h); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte("{"+edit+"}"), &h); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(h)
		return string(b)
	}
	for _, op := range []string{"nf.format", "pr.select"} {
		for _, h := range []string{
			forge(`"roundingIncrement":3`),
			forge(`"roundingIncrement":-5`),
			forge(`"roundingMode":"sideways"`),
			forge(`"maximumFractionDigits":1000000000`),
			forge(`"minimumFractionDigits":5,"maximumFractionDigits":2`),
			forge(`"minimumIntegerDigits":-1`),
			forge(`"minimumIntegerDigits":100000000`),
			forge(`"roundingPriority":"morePrecision"`), // no significant digits
			`{"locale":"de","numberingSystem":"latn"}`,
		} {
			_, err := Call(op, h, `"1.5"`)
			var ie *Error
			if !errors.As(err, &ie) || ie.Name != "TypeError" {
				t.Errorf("%s with %s: got %v, want a TypeError", op, h, err)
			}
		}
	}
	// The crasher the fuzzer found: no roundingIncrement at all.
	h := forge(`"roundingIncrement":null`)
	if _, err := Call("nf.format", h, `"1.5"`); err != nil {
		t.Fatalf("a handle without roundingIncrement: %v", err)
	}
}
