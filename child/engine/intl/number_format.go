package intl

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// part is one element of formatToParts.
type part struct {
	Type   string `json:"type"`
	Value  string `json:"value"`
	Unit   string `json:"unit,omitempty"`   // RelativeTimeFormat's number parts
	Source string `json:"source,omitempty"` // formatRangeToParts': startRange, endRange or shared
}

// numberFormatter is a NumberFormat ready to format: its resolved
// options and the locale's data for them.
type numberFormatter struct {
	r       *numberResolved
	data    *localeData
	sys     numberSystem
	digits  []rune // the numbering system's digits, nil for latn
	minGrp  int
	plurals *pluralRules
	// finite is set while a finite value is formatted: CLDR's spacing
	// between a currency and the number is for digits only.
	finite bool
	// approx is set while a range's approximate value is formatted.
	approx bool

	// Read from the locale's data once, when the formatter is made.
	decimal, percent string
	currency         map[string]string // the currency formats' string entries
	currencyInfo     map[string]string // symbol, narrow symbol, names of r.Currency
	compact          map[int]map[string]string
	units            map[string]map[string]any // width -> unit -> patterns
}

func newNumberFormatter(r *numberResolved) (*numberFormatter, error) {
	d, err := dataFor(r.Locale)
	if err != nil {
		return nil, err
	}
	f := &numberFormatter{r: r, data: d}
	nums, err := d.numbers()
	if err != nil {
		return nil, err
	}
	sys, ok := nums.Systems[r.NumberingSystem]
	if !ok {
		sys = nums.Systems["latn"]
	}
	f.sys = sys
	if r.NumberingSystem != "latn" {
		if f.digits = []rune(digitsOf(r.NumberingSystem)); len(f.digits) != 10 {
			return nil, typeError("intl: bad handle")
		}
	}
	f.minGrp, _ = strconv.Atoi(nums.MinimumGroupingDigits)
	f.decimal = f.readDecimalStandard()
	f.percent, _ = f.sys.PercentFormats["standard"].(string)
	f.currency = map[string]string{}
	var formats map[string]json.RawMessage
	json.Unmarshal(f.sys.CurrencyFormats, &formats)
	for k, v := range formats {
		var text string
		if json.Unmarshal(v, &text) == nil {
			f.currency[k] = text
		}
	}
	if r.Currency != "" {
		f.currencyInfo = d.currency(r.Currency)
	}
	if r.Notation == "compact" {
		f.compact = f.readCompactTable()
	}
	if r.Style == "unit" {
		u, err := decodeFile[map[string]map[string]any](d.CLDR + ".units.json")
		if err != nil {
			return nil, err
		}
		f.units = *u
	}
	if f.plurals, err = pluralRulesFor(d.Lang, "cardinal"); err != nil {
		return nil, err
	}
	return f, nil
}

// baseOf is a resolved locale without its -u- extension.
func baseOf(locale string) string {
	b, _, _ := strings.Cut(locale, "-u-")
	return b
}

func (f *numberFormatter) symbol(name string) string {
	if s, ok := f.sys.Symbols[name]; ok {
		return s
	}
	return map[string]string{"decimal": ".", "group": ",", "minusSign": "-", "plusSign": "+",
		"percentSign": "%", "exponential": "E", "infinity": "∞", "nan": "NaN"}[name]
}

// pattern is a CLDR number pattern's halves and grouping.
type pattern struct {
	posPrefix, posSuffix, negPrefix, negSuffix string
	hasNeg                                     bool
	primary, secondary                         int
}

// parsePattern reads "prefix#,##0.00suffix[;negprefix...negsuffix]".
func parsePattern(p string) pattern {
	pos, neg, hasNeg := strings.Cut(p, ";")
	var pt pattern
	pt.posPrefix, pt.posSuffix, pt.primary, pt.secondary = splitPattern(pos)
	if hasNeg {
		pt.hasNeg = true
		pt.negPrefix, pt.negSuffix, _, _ = splitPattern(neg)
	}
	return pt
}

func splitPattern(p string) (prefix, suffix string, primary, secondary int) {
	start, end := -1, -1
	inQuote := false
	for i, c := range p {
		if c == '\'' {
			inQuote = !inQuote
			continue
		}
		if inQuote {
			continue
		}
		if strings.ContainsRune("#0,.@E", c) || c >= '1' && c <= '9' {
			if start < 0 {
				start = i
			}
			end = i + utf8.RuneLen(c)
		}
	}
	if start < 0 {
		return p, "", 0, 0
	}
	num := p[start:end]
	if i := strings.IndexByte(num, 'E'); i >= 0 {
		num = num[:i]
	}
	intPart, _, _ := strings.Cut(num, ".")
	groups := strings.Split(intPart, ",")
	if len(groups) > 1 {
		primary = len(groups[len(groups)-1])
		secondary = primary
		if len(groups) > 2 {
			secondary = len(groups[len(groups)-2])
		}
	}
	return p[:start], p[end:], primary, secondary
}

// formatParts formats x into parts (formatToParts); format joins them.
func (f *numberFormatter) formatParts(x decimal) []part { return f.formatAs(x, "", false) }

// formatAs is formatParts with the plural category of a unit's or a
// currency's name fixed (count, "" for x's own) and, if approx, the
// approximately sign where the sign goes: a range's ends.
func (f *numberFormatter) formatAs(x decimal, count string, approx bool) []part {
	// A copy: the formatter is shared, and finite and approx are this call's.
	g := *f
	f = &g
	f.finite = !x.nan && !x.inf
	f.approx = approx
	r := f.r
	var parts []part
	if x.nan {
		return f.affix(x, false, []part{{Type: "nan", Value: f.symbol("nan")}}, count, nil)
	}
	if x.inf {
		return f.affix(x, false, []part{{Type: "infinity", Value: f.symbol("infinity")}}, count, nil)
	}
	y, show, exponent, compact := f.scaled(x)
	parts = f.numberParts(y, show, compact != nil || r.Notation == "standard")
	if r.Notation == "scientific" || r.Notation == "engineering" {
		parts = append(parts, part{Type: "exponentSeparator", Value: f.symbol("exponential")})
		e := exponent
		if e < 0 {
			parts = append(parts, part{Type: "exponentMinusSign", Value: f.symbol("minusSign")})
			e = -e
		}
		parts = append(parts, part{Type: "exponentInteger", Value: f.transliterate(strconv.Itoa(e))})
	}
	if count == "" {
		count = f.pluralOf(y, show)
	}
	return f.affix(y, true, parts, count, compact)
}

// scaled is x as it is shown: a percent's hundredfold, divided by the
// notation's exponent (and its compact pattern), rounded; show is the
// number of fraction digits shown.
func (f *numberFormatter) scaled(x decimal) (y decimal, show, exponent int, compact *compactPattern) {
	if f.r.Style == "percent" {
		x = x.shift(2)
	}
	if f.r.Notation != "standard" && !x.isZero() {
		exponent, compact = f.exponentFor(x)
		x = x.shift(-exponent)
	}
	y, show = f.r.roundValue(x)
	return y, show, exponent, compact
}

// countOf is the plural category of x as it is shown.
func (f *numberFormatter) countOf(x decimal) string {
	if x.nan || x.inf {
		return "other"
	}
	y, show, _, _ := f.scaled(x)
	return f.pluralOf(y, show)
}

// numberParts is the integer with its groups, the decimal and the
// fraction.
func (f *numberFormatter) numberParts(y decimal, show int, grouping bool) []part {
	r := f.r
	in, fr := y.fixed(show)
	if n := r.MinimumIntegerDigits; len(in) < n {
		in = strings.Repeat("0", n-len(in)) + in
	}
	pat := f.standardPattern()
	var parts []part
	minGrp := 0
	switch g := r.UseGrouping.(type) {
	case string:
		switch g {
		case "always":
			minGrp = 1
		case "min2":
			minGrp = max(2, f.minGrp)
		default:
			minGrp = f.minGrp
		}
	}
	if minGrp > 0 && pat.primary > 0 && len(in) >= pat.primary+minGrp {
		var groups []string
		rest := in
		size := pat.primary
		for len(rest) > size {
			groups = append([]string{rest[len(rest)-size:]}, groups...)
			rest = rest[:len(rest)-size]
			size = pat.secondary
		}
		groups = append([]string{rest}, groups...)
		for i, g := range groups {
			if i > 0 {
				parts = append(parts, part{Type: "group", Value: f.symbol("group")})
			}
			parts = append(parts, part{Type: "integer", Value: f.transliterate(g)})
		}
	} else {
		parts = append(parts, part{Type: "integer", Value: f.transliterate(in)})
	}
	if show > 0 {
		parts = append(parts, part{Type: "decimal", Value: f.symbol("decimal")}, part{Type: "fraction", Value: f.transliterate(fr)})
	}
	return parts
}

func (f *numberFormatter) transliterate(s string) string {
	if f.digits == nil {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' && int(c-'0') < len(f.digits) {
			b.WriteRune(f.digits[c-'0'])
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// standardPattern is the locale's pattern for the style.
func (f *numberFormatter) standardPattern() pattern {
	switch {
	case f.r.Style == "percent" || f.percentPattern():
		// The percent unit takes the locale's percent pattern, as ICU's
		// does, without the percent style's scaling.
		if f.percent != "" {
			return parsePattern(f.percent)
		}
	case f.r.Style == "currency":
		if f.r.CurrencyDisplay == "name" {
			return parsePattern(f.decimalStandard())
		}
		return parsePattern(f.currencyPattern())
	}
	return parsePattern(f.decimalStandard())
}

func (f *numberFormatter) decimalStandard() string { return f.decimal }

func (f *numberFormatter) readDecimalStandard() string {
	var d struct {
		Standard string `json:"standard"`
	}
	json.Unmarshal(f.sys.DecimalFormats, &d)
	if d.Standard == "" {
		return "#,##0.###"
	}
	return d.Standard
}

// currencyPattern is the standard or accounting currency pattern, in
// its alphaNextToNumber form when the currency text next to the number
// is a letter.
func (f *numberFormatter) currencyPattern() string {
	key := "standard"
	if f.r.CurrencySign == "accounting" {
		key = "accounting"
	}
	p := f.currency[key]
	if alpha, ok := f.currency[key+"-alphaNextToNumber"]; ok && f.finite && f.currencyAlphaNextToNumber(p) {
		p = alpha
	}
	return p
}

// currencyAlphaNextToNumber says whether the currency text's character
// next to the number in pattern p is a letter.
func (f *numberFormatter) currencyAlphaNextToNumber(p string) bool {
	cur := f.currencyText()
	if cur == "" {
		return false
	}
	pos, _, _ := strings.Cut(p, ";")
	i := strings.Index(pos, "¤")
	numAt := strings.IndexAny(pos, "#0")
	if i < 0 || numAt < 0 {
		return false
	}
	var c rune
	if i < numAt {
		c, _ = utf8.DecodeLastRuneInString(cur)
	} else {
		c, _ = utf8.DecodeRuneInString(cur)
	}
	return unicode.IsLetter(c)
}

// currencyText is the currency as currencyDisplay shows it.
func (f *numberFormatter) currencyText() string {
	code := f.r.Currency
	c := f.currencyInfo
	switch f.r.CurrencyDisplay {
	case "code":
		return code
	case "narrowSymbol":
		if s, ok := c["symbol-alt-narrow"]; ok {
			return s
		}
	}
	if s, ok := c["symbol"]; ok {
		return s
	}
	return code
}

// pluralOf is the plural category of the formatted number (its
// visible digits).
func (f *numberFormatter) pluralOf(y decimal, show int) string {
	return f.plurals.selectText(y.text(show), 0)
}
