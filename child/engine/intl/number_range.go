package intl

import (
	"encoding/json"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// numberRange is NumberFormat's formatRange and (asParts)
// formatRangeToParts. pair is [start, end, start as V8's errors name
// it, end as they name it], the values as mathematicalValue sends them.
func numberRange(handle, pair string, asParts bool) (string, error) {
	f, err := formatterFor(handle)
	if err != nil {
		return "", err
	}
	x, y, err := rangeEnds(pair, "start", "end")
	if err != nil {
		return "", err
	}
	return joinParts(f.rangeParts(x, y), asParts)
}

// rangeEnds decodes a range's pair, [start, end, start as V8's errors
// name it, end as they name it], and refuses a NaN end with V8's
// RangeError, naming the ends startName and endName.
func rangeEnds(pair, startName, endName string) (x, y decimal, err error) {
	var v [4]string
	if err := json.Unmarshal([]byte(pair), &v); err != nil {
		return x, y, typeError("intl: bad range")
	}
	x, y = parseValue(v[0]), parseValue(v[1])
	if x.nan {
		return x, y, rangeError("Invalid " + startName + " : " + v[2])
	}
	if y.nan {
		return x, y, rangeError("Invalid " + endName + " : " + v[3])
	}
	return x, y, nil
}

// rangeParts formats x to y as ICU's number range formatter does with
// its default collapse ("auto") and identity fallback
// ("approximately"). The formatted number is seen in layers, as ICU
// builds it: the digits (with a scientific exponent, the inner layer),
// the pattern's affixes with the sign, currency symbol, percent sign and
// compact text (the middle layer), and a unit's or a currency's name
// (the outer layer). An outer layer both ends share is written once; a
// middle one too when it is more than one code point; the separator
// gets spaces when a layer is written twice.
func (f *numberFormatter) rangeParts(x, y decimal) []part {
	a, b := f.formatAs(x, "", false), f.formatAs(y, "", false)
	if partsText(a) == partsText(b) {
		return withSource(f.formatAs(x, "", true), "shared")
	}
	// Names take the range's plural, as ICU's do: "1–5 kilometers".
	count := pluralRangeOf(f.data.Lang, f.countOf(x), f.countOf(y))
	la, lb := f.layersOf(f.formatAs(x, count, false)), f.layersOf(f.formatAs(y, count, false))
	collapseOuter := partsText(la.outerPre)+"\x00"+partsText(la.outerSuf) == partsText(lb.outerPre)+"\x00"+partsText(lb.outerSuf)
	middle := utf8.RuneCountInString(valuesText(la.midPre) + valuesText(la.midSuf))
	collapseMiddle := collapseOuter && middle > 1 && sameMiddle(la, lb)
	repeated := la.inner > 0 ||
		!collapseMiddle && middle > 0 ||
		!collapseOuter && len(la.outerPre)+len(la.outerSuf) > 0
	before, sep, after := f.rangePattern()
	if repeated {
		if !startsPatternSpace(sep) {
			sep = " " + sep
		}
		if !endsPatternSpace(sep) {
			sep += " "
		}
	}
	var out []part
	add := func(ps []part, source string) { out = append(out, withSource(ps, source)...) }
	lit := func(s string) []part {
		if s == "" {
			return nil
		}
		return []part{{Type: "literal", Value: s}}
	}
	// Each end's own text, as V8 attributes it: the literals after the
	// start's last field and before the end's first are the
	// separator's.
	addEnds := func(start []part, sep string, end []part) {
		i := len(start)
		for i > 0 && start[i-1].Type == "literal" {
			i--
		}
		j := 0
		for j < len(end) && end[j].Type == "literal" {
			j++
		}
		add(start[:i], "startRange")
		add(start[i:], "shared")
		add(lit(sep), "shared")
		add(end[:j], "shared")
		add(end[j:], "endRange")
	}
	add(lit(before), "shared")
	switch {
	case collapseMiddle:
		add(la.outerPre, "shared")
		add(la.midPre, "shared")
		add(la.core, "startRange")
		add(lit(sep), "shared")
		add(lb.core, "endRange")
		add(la.midSuf, "shared")
		add(la.outerSuf, "shared")
	case collapseOuter:
		add(la.outerPre, "shared")
		addEnds(la.middle(), sep, lb.middle())
		add(la.outerSuf, "shared")
	default:
		addEnds(la.all(), sep, lb.all())
	}
	add(lit(after), "shared")
	return mergeSourcedLiterals(out)
}

// numberLayers is one formatted end of a range, in ICU's layers.
type numberLayers struct {
	outerPre, midPre, core, midSuf, outerSuf []part
	inner                                    int // code points of the scientific exponent
}

func (l numberLayers) middle() []part {
	return concatParts(l.midPre, l.core, l.midSuf)
}

func (l numberLayers) all() []part {
	return concatParts(l.outerPre, l.middle(), l.outerSuf)
}

func concatParts(lists ...[]part) []part {
	var out []part
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// layersOf splits a formatted number: the digits, then what is around
// them into the middle layer (the sign, compact, percent, a currency
// symbol: everything, without a name around it) and the outer (the
// name and its spaces).
func (f *numberFormatter) layersOf(ps []part) numberLayers {
	first, last := -1, -1
	for i, p := range ps {
		if isCorePart(p.Type) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	var l numberLayers
	if first < 0 {
		l.midPre = ps
		return l
	}
	pre, suf := ps[:first], ps[last+1:]
	l.core = ps[first : last+1]
	for _, p := range l.core {
		if strings.HasPrefix(p.Type, "exponent") {
			l.inner += utf8.RuneCountInString(p.Value)
		}
	}
	named := f.r.Style == "unit" && !f.percentPattern() || f.r.Style == "currency" && f.r.CurrencyDisplay == "name"
	if !named {
		l.midPre, l.midSuf = pre, suf
		return l
	}
	// The outer layer is the name and the space that joins it to the
	// rest: in the prefix, up to its last name part and a space after;
	// in the suffix, from a space before its first name part.
	k := 0
	for i, p := range pre {
		if isNamePart(p.Type) {
			k = i + 1
		}
	}
	if k > 0 && k < len(pre) && isSpaceLiteral(pre[k]) {
		k++
	}
	l.outerPre, l.midPre = pre[:k], pre[k:]
	k = len(suf)
	for i := len(suf) - 1; i >= 0; i-- {
		if isNamePart(suf[i].Type) {
			k = i
		}
	}
	if k < len(suf) && k > 0 && isSpaceLiteral(suf[k-1]) {
		k--
	}
	l.midSuf, l.outerSuf = suf[:k], suf[k:]
	return l
}

func isNamePart(t string) bool { return t == "unit" || t == "currency" }

func isSpaceLiteral(p part) bool {
	return p.Type == "literal" && strings.TrimFunc(p.Value, unicode.IsSpace) == ""
}

// sameMiddle compares two middle layers as ICU compares its modifiers:
// by the pattern, not by the space CLDR puts between a currency and
// digits (there is none before ∞).
func sameMiddle(a, b numberLayers) bool {
	key := func(l numberLayers) string {
		var s strings.Builder
		for i, p := range l.midPre {
			if i == len(l.midPre)-1 && isSpaceLiteral(p) {
				continue
			}
			s.WriteString(partsText([]part{p}))
		}
		s.WriteByte(1)
		for i, p := range l.midSuf {
			if i == 0 && isSpaceLiteral(p) {
				continue
			}
			s.WriteString(partsText([]part{p}))
		}
		return s.String()
	}
	return key(a) == key(b)
}

func isCorePart(t string) bool {
	switch t {
	case "integer", "group", "decimal", "fraction", "nan", "infinity",
		"exponentSeparator", "exponentMinusSign", "exponentInteger":
		return true
	}
	return false
}

// pluralRangeOf is lang's category for a range from a start to an end
// category: CLDR's plural ranges; ICU's default is other.
func pluralRangeOf(lang, start, end string) string {
	v, ok := pluralRanges.Load(lang)
	if !ok {
		var ranges map[string]string
		lookupJSON("pg", lang, &ranges)
		v, _ = pluralRanges.LoadOrStore(lang, ranges)
	}
	if c := v.(map[string]string)[start+"+"+end]; c != "" {
		return c
	}
	return "other"
}

// pluralRanges are the languages' plural ranges, decoded once each.
var pluralRanges sync.Map

// pluralRange is PluralRules' selectRange; pair is as numberRange's.
func pluralRange(handle, pair string) (string, error) {
	p, err := pluralFor(handle)
	if err != nil {
		return "", err
	}
	x, y, err := rangeEnds(pair, "startRange", "endRange")
	if err != nil {
		return "", err
	}
	return pluralRangeOf(p.r.Locale, p.selectValue(x), p.selectValue(y)), nil
}

// rangePattern is the locale's range pattern ("{0}–{1}") in three: the
// text before the start, between the ends, and after the end.
func (f *numberFormatter) rangePattern() (before, sep, after string) {
	p := f.sys.MiscPatterns["range"]
	i, j := strings.Index(p, "{0}"), strings.Index(p, "{1}")
	if i < 0 || j < i {
		return "", "–", ""
	}
	return p[:i], p[i+3 : j], p[j+3:]
}

// startsPatternSpace and endsPatternSpace test for ICU's pattern white
// space (not U+00A0), which spares a separator its added spaces.
func startsPatternSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isPatternSpace(r)
}

func endsPatternSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isPatternSpace(r)
}

func isPatternSpace(r rune) bool {
	return r >= '\t' && r <= '\r' || r == ' ' || r == 0x85 || r == 0x200E || r == 0x200F || r == 0x2028 || r == 0x2029
}

func partsText(ps []part) string {
	var s strings.Builder
	for _, p := range ps {
		s.WriteString(p.Type)
		s.WriteByte(0)
		s.WriteString(p.Value)
		s.WriteByte(0)
	}
	return s.String()
}

// valuesText is the parts' text, as format joins them.
func valuesText(ps []part) string {
	var s strings.Builder
	for _, p := range ps {
		s.WriteString(p.Value)
	}
	return s.String()
}

func withSource(ps []part, source string) []part {
	out := make([]part, len(ps))
	for i, p := range ps {
		p.Source = source
		out[i] = p
	}
	return out
}

// mergeSourcedLiterals joins neighbouring literals of one source.
func mergeSourcedLiterals(ps []part) []part {
	var out []part
	for _, p := range ps {
		if n := len(out); n > 0 && p.Type == "literal" && out[n-1].Type == "literal" && out[n-1].Source == p.Source {
			out[n-1].Value += p.Value
			continue
		}
		out = append(out, p)
	}
	return out
}
