package intl

import (
	"encoding/json"
	"strings"
)

// ListFormat and RelativeTimeFormat.

type listOptions struct {
	LocaleMatcher *string `json:"localeMatcher"`
	Type          *string `json:"type"`
	Style         *string `json:"style"`
}

type listResolved struct {
	Locale string `json:"locale"`
	Type   string `json:"type"`
	Style  string `json:"style"`
}

func resolveListFormat(locales []string, o *listOptions) (*listResolved, error) {
	const ctor = "ListFormat"
	if _, err := oneOf(ctor, "localeMatcher", o.LocaleMatcher, "best fit", "lookup", "best fit"); err != nil {
		return nil, err
	}
	loc, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	kind, err := oneOf(ctor, "type", o.Type, "conjunction", "conjunction", "disjunction", "unit")
	if err != nil {
		return nil, err
	}
	style, err := oneOf(ctor, "style", o.Style, "long", "long", "short", "narrow")
	if err != nil {
		return nil, err
	}
	return &listResolved{Locale: loc.locale, Type: kind, Style: style}, nil
}

// formatList joins items with the locale's list patterns, as parts.
func formatList(handle, items string) ([]part, error) {
	var r listResolved
	var list []string
	if json.Unmarshal([]byte(handle), &r) != nil || json.Unmarshal([]byte(items), &list) != nil {
		return nil, typeError("intl: bad list")
	}
	d, err := dataFor(r.Locale)
	if err != nil {
		return nil, err
	}
	key := "listPattern-type-" + map[string]string{"conjunction": "standard", "disjunction": "or", "unit": "unit"}[r.Type]
	if r.Style != "long" {
		key += "-" + r.Style
	}
	w, err := d.words()
	if err != nil {
		return nil, err
	}
	p := w.Lists[key]
	elem := func(s string) part { return part{Type: "element", Value: s} }
	switch len(list) {
	case 0:
		return []part{}, nil
	case 1:
		return []part{elem(list[0])}, nil
	case 2:
		return applyList(d.Lang, p["2"], []part{elem(list[0])}, list[1]), nil
	}
	// start, middle..., end: built from the end, as ICU does.
	acc := applyList(d.Lang, p["end"], []part{elem(list[len(list)-2])}, list[len(list)-1])
	for i := len(list) - 3; i >= 0; i-- {
		pat := p["middle"]
		if i == 0 {
			pat = p["start"]
		}
		acc = applyPattern(pat, []part{elem(list[i])}, acc)
	}
	return acc, nil
}

// applyList is a two-item pattern ("{0} and {1}"), with Spanish's and
// the like's changed conjunction before some sounds ("y" is "e" before
// "i" and "hi": ICU's rule).
func applyList(lang, pat string, first []part, second string) []part {
	if lang == "es" {
		low := strings.ToLower(second)
		switch {
		case strings.Contains(pat, " y ") && (strings.HasPrefix(low, "i") || strings.HasPrefix(low, "hi") && !strings.HasPrefix(low, "hia") && !strings.HasPrefix(low, "hie") && !strings.HasPrefix(low, "hio") && !strings.HasPrefix(low, "hiu")):
			pat = strings.Replace(pat, " y ", " e ", 1)
		case strings.Contains(pat, " o ") && (strings.HasPrefix(low, "o") || strings.HasPrefix(low, "ho") || strings.HasPrefix(low, "8") || strings.HasPrefix(low, "11")):
			pat = strings.Replace(pat, " o ", " u ", 1)
		}
	}
	return applyPattern(pat, first, []part{{Type: "element", Value: second}})
}

// applyPattern puts a and b into "{0}…{1}", the text between as literals.
func applyPattern(pat string, a, b []part) []part {
	var out []part
	for pat != "" {
		i := strings.IndexByte(pat, '{')
		if i < 0 || i+2 >= len(pat) {
			out = append(out, part{Type: "literal", Value: pat})
			break
		}
		if i > 0 {
			out = append(out, part{Type: "literal", Value: pat[:i]})
		}
		switch pat[i+1] {
		case '0':
			out = append(out, a...)
		case '1':
			out = append(out, b...)
		}
		pat = pat[i+3:]
	}
	return mergeLiterals(out)
}

type relativeOptions struct {
	LocaleMatcher   *string `json:"localeMatcher"`
	NumberingSystem *string `json:"numberingSystem"`
	Style           *string `json:"style"`
	Numeric         *string `json:"numeric"`
}

type relativeResolved struct {
	Locale          string `json:"locale"`
	Style           string `json:"style"`
	Numeric         string `json:"numeric"`
	NumberingSystem string `json:"numberingSystem"`
}

func resolveRelativeTimeFormat(locales []string, o *relativeOptions) (*relativeResolved, error) {
	const ctor = "RelativeTimeFormat"
	if _, err := oneOf(ctor, "localeMatcher", o.LocaleMatcher, "best fit", "lookup", "best fit"); err != nil {
		return nil, err
	}
	if o.NumberingSystem != nil && !isNumberingSystemType(*o.NumberingSystem) {
		return nil, rangeError("Invalid numberingSystem : " + *o.NumberingSystem)
	}
	loc, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	nu, locale := numberingSystemFor(loc, o.NumberingSystem)
	style, err := oneOf(ctor, "style", o.Style, "long", "long", "short", "narrow")
	if err != nil {
		return nil, err
	}
	numeric, err := oneOf(ctor, "numeric", o.Numeric, "always", "always", "auto")
	if err != nil {
		return nil, err
	}
	return &relativeResolved{Locale: locale, Style: style, Numeric: numeric, NumberingSystem: nu}, nil
}

// formatRelative is "in 3 days" or "yesterday": value and unit as the
// prelude sends them ("3\x00days").
func formatRelative(handle, arg string) ([]part, error) {
	var r relativeResolved
	if json.Unmarshal([]byte(handle), &r) != nil {
		return nil, typeError("intl: bad handle")
	}
	value, unit, _ := strings.Cut(arg, "\x00")
	singular := strings.TrimSuffix(unit, "s")
	switch singular {
	case "second", "minute", "hour", "day", "week", "month", "quarter", "year":
	default:
		return nil, rangeError("Invalid unit argument for Intl.RelativeTimeFormat.prototype.format() '" + unit + "'")
	}
	x := parseValue("n:" + value)
	if x.nan || x.inf {
		return nil, rangeError("Value need to be finite number for Intl.RelativeTimeFormat.prototype.format()")
	}
	d, err := dataFor(r.Locale)
	if err != nil {
		return nil, err
	}
	key := singular
	if r.Style != "long" {
		key += "-" + r.Style
	}
	w, err := d.words()
	if err != nil {
		return nil, err
	}
	field := w.Relative[key]
	if r.Numeric == "auto" && x.fracDigits() == 0 {
		in, _ := x.intAndFrac(0)
		n := in
		if x.neg && !x.isZero() {
			n = "-" + in
		}
		if named, ok := field.Named[n]; ok {
			return []part{{Type: "literal", Value: named}}, nil
		}
	}
	nf, err := formatterFor(mustJSON(&numberResolved{Locale: r.Locale, NumberingSystem: r.NumberingSystem, Style: "decimal",
		MinimumIntegerDigits: 1, MinimumFractionDigits: intp(0), MaximumFractionDigits: intp(3), UseGrouping: "auto",
		Notation: "standard", SignDisplay: "auto", RoundingMode: "halfExpand", RoundingIncrement: 1, TrailingZeroDisplay: "auto", RoundingPriority: "auto"}))
	if err != nil {
		return nil, err
	}
	abs := x
	abs.neg = false
	num := nf.formatParts(abs)
	y, show := nf.r.roundValue(abs)
	count := nf.pluralOf(y, show)
	patterns := field.Future
	if x.neg {
		patterns = field.Past
	}
	pat := patterns["relativeTimePattern-count-"+count]
	if pat == "" {
		pat = patterns["relativeTimePattern-count-other"]
	}
	for i := range num {
		num[i].Unit = singular
	}
	return applyPattern(strings.Replace(pat, "{0}", "{1}", 1), nil, num), nil
}

func intp(n int) *int { return &n }

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
