package intl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// pluralRules is one language's CLDR plural rules of one type, parsed.
type pluralRules struct {
	categories []string // Node's order: alphabetical, "other" last
	rules      []pluralRule
}

type pluralRule struct {
	category string
	or       [][]relation // or of and of relations
}

type relation struct {
	operand byte
	mod     int64 // 0: none
	negate  bool
	ranges  [][2]int64
}

var (
	pluralMu    sync.Mutex
	pluralCache = map[string]*pluralRules{}
)

// pluralRulesFor is lang's rules of kind ("cardinal" or "ordinal"); a
// language CLDR has no rules for has only "other".
func pluralRulesFor(lang, kind string) (*pluralRules, error) {
	pluralMu.Lock()
	defer pluralMu.Unlock()
	key := kind + "/" + lang
	if p, ok := pluralCache[key]; ok {
		return p, nil
	}
	table := "pc"
	if kind == "ordinal" {
		table = "po"
	}
	var rules map[string]string
	if !lookupJSON(table, lang, &rules) && !lookupJSON(table, "root", &rules) {
		return nil, fmt.Errorf("intl: no plural rules for %s (make intl-data)", lang)
	}
	p := &pluralRules{}
	for cat, text := range rules {
		p.categories = append(p.categories, cat)
		if cat == "other" {
			continue
		}
		p.rules = append(p.rules, pluralRule{category: cat, or: parseCondition(text)})
	}
	if len(p.categories) == 0 {
		p.categories = []string{"other"}
	}
	sort.Slice(p.categories, func(i, j int) bool {
		a, b := p.categories[i], p.categories[j]
		if (a == "other") != (b == "other") {
			return b == "other"
		}
		return a < b
	})
	// Rules are exclusive in CLDR; a fixed order keeps select
	// deterministic anyway.
	sort.Slice(p.rules, func(i, j int) bool { return p.rules[i].category < p.rules[j].category })
	pluralCache[key] = p
	return p, nil
}

func parseCondition(text string) [][]relation {
	var or [][]relation
	for _, andText := range strings.Split(text, " or ") {
		var and []relation
		for _, relText := range strings.Split(andText, " and ") {
			if r, ok := parseRelation(strings.TrimSpace(relText)); ok {
				and = append(and, r)
			}
		}
		or = append(or, and)
	}
	return or
}

// parseRelation reads "i % 10 = 2..4,7" and "v != 0".
func parseRelation(s string) (relation, bool) {
	var r relation
	op := " = "
	if strings.Contains(s, " != ") {
		op, r.negate = " != ", true
	}
	left, right, ok := strings.Cut(s, op)
	if !ok || left == "" {
		return r, false
	}
	left = strings.TrimSpace(left)
	r.operand = left[0]
	if _, mod, ok := strings.Cut(left, "%"); ok {
		r.mod, _ = strconv.ParseInt(strings.TrimSpace(mod), 10, 64)
	}
	for _, item := range strings.Split(right, ",") {
		item = strings.TrimSpace(item)
		lo, hi, isRange := strings.Cut(item, "..")
		a, _ := strconv.ParseInt(lo, 10, 64)
		b := a
		if isRange {
			b, _ = strconv.ParseInt(hi, 10, 64)
		}
		r.ranges = append(r.ranges, [2]int64{a, b})
	}
	return r, true
}

// operands are a formatted number's plural operands (UTS 35).
type operands struct {
	intDigits  string // i, no sign, no leading zeros ("0" for zero)
	fracDigits string // the visible fraction digits (v = its length)
	exponent   int64  // c / e
}

// value gives an operand, mod applied: integer, whether it is an
// integer, and whether it fits.
func (o operands) value(op byte, mod int64) (v int64, integer bool) {
	modOf := func(digits string) int64 {
		if mod == 0 {
			if len(digits) > 18 {
				return -1 // beyond any rule's values
			}
			n, _ := strconv.ParseInt(digits, 10, 64)
			return n
		}
		var r int64
		for i := 0; i < len(digits); i++ {
			r = (r*10 + int64(digits[i]-'0')) % mod
		}
		return r
	}
	trimmed := strings.TrimRight(o.fracDigits, "0")
	switch op {
	case 'n':
		return modOf(o.intDigits), trimmed == ""
	case 'i':
		return modOf(o.intDigits), true
	case 'v':
		return int64(len(o.fracDigits)), true
	case 'w':
		return int64(len(trimmed)), true
	case 'f':
		if o.fracDigits == "" {
			return 0, true
		}
		return modOf(o.fracDigits), true
	case 't':
		if trimmed == "" {
			return 0, true
		}
		return modOf(trimmed), true
	case 'c', 'e':
		return o.exponent, true
	}
	return 0, true
}

func (r relation) holds(o operands) bool {
	v, integer := o.value(r.operand, r.mod)
	in := false
	if integer {
		for _, rg := range r.ranges {
			if v >= rg[0] && v <= rg[1] {
				in = true
				break
			}
		}
	}
	return in != r.negate
}

// selectText is the category of a formatted number's text ("1.50"),
// without sign, with c the compact exponent.
func (p *pluralRules) selectText(s string, exponent int64) string {
	in, fr, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	in = strings.TrimLeft(in, "0")
	if in == "" {
		in = "0"
	}
	o := operands{intDigits: in, fracDigits: fr, exponent: exponent}
	for _, rule := range p.rules {
		for _, and := range rule.or {
			all := true
			for _, rel := range and {
				if !rel.holds(o) {
					all = false
					break
				}
			}
			if all {
				return rule.category
			}
		}
	}
	return "other"
}

// resolvePluralRules is InitializePluralRules after the options were
// read.
func resolvePluralRules(locales []string, o *numberOptions) (*numberResolved, error) {
	const ctor = "PluralRules"
	if _, err := oneOf(ctor, "localeMatcher", o.LocaleMatcher, "best fit", "lookup", "best fit"); err != nil {
		return nil, err
	}
	kind, err := oneOf(ctor, "type", o.Type, "cardinal", "cardinal", "ordinal")
	if err != nil {
		return nil, err
	}
	loc, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	// Plural rules are a language's: the locale resolves to it, as in
	// Node ("en-US" is "en").
	r := &numberResolved{Locale: loc.data.Lang, Type: kind}
	if err := digitOptions(ctor, o, r, 0, 3, "standard"); err != nil {
		return nil, err
	}
	return r, nil
}

// pluralSelector is a PluralRules: its rules and the digit options that
// decide which digits a number shows.
type pluralSelector struct {
	r     *numberResolved
	rules *pluralRules
}

func pluralFor(handle string) (*pluralSelector, error) {
	return plurals.get(handle, func(handle string) (*pluralSelector, error) {
		r, err := numberHandle(handle)
		if err != nil {
			return nil, err
		}
		d, err := dataFor(r.Locale)
		if err != nil {
			return nil, err
		}
		rules, err := pluralRulesFor(d.Lang, r.Type)
		if err != nil {
			return nil, err
		}
		return &pluralSelector{r: r, rules: rules}, nil
	})
}

// selectValue is ResolvePlural: the category of x as the digit options
// round it.
func (p *pluralSelector) selectValue(x decimal) string {
	if x.nan || x.inf {
		return "other"
	}
	y, show := p.r.roundValue(x)
	return p.rules.selectText(y.text(show), 0)
}
