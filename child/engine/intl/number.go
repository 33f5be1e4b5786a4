package intl

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// numberOptions is what the prelude read from a NumberFormat's (or a
// PluralRules') options bag, in the specification's order, each
// converted as GetOption converts it: strings, numbers as String(Number(v)),
// useGrouping as true/false or a string; absent when undefined.
type numberOptions struct {
	LocaleMatcher            *string `json:"localeMatcher"`
	NumberingSystem          *string `json:"numberingSystem"`
	Style                    *string `json:"style"`
	Currency                 *string `json:"currency"`
	CurrencyDisplay          *string `json:"currencyDisplay"`
	CurrencySign             *string `json:"currencySign"`
	Unit                     *string `json:"unit"`
	UnitDisplay              *string `json:"unitDisplay"`
	Notation                 *string `json:"notation"`
	MinimumIntegerDigits     *string `json:"minimumIntegerDigits"`
	MinimumFractionDigits    *string `json:"minimumFractionDigits"`
	MaximumFractionDigits    *string `json:"maximumFractionDigits"`
	MinimumSignificantDigits *string `json:"minimumSignificantDigits"`
	MaximumSignificantDigits *string `json:"maximumSignificantDigits"`
	RoundingIncrement        *string `json:"roundingIncrement"`
	RoundingMode             *string `json:"roundingMode"`
	RoundingPriority         *string `json:"roundingPriority"`
	TrailingZeroDisplay      *string `json:"trailingZeroDisplay"`
	CompactDisplay           *string `json:"compactDisplay"`
	UseGrouping              any     `json:"useGrouping"`
	SignDisplay              *string `json:"signDisplay"`
	Type                     *string `json:"type"` // PluralRules
}

// NumberFormatResolved is a NumberFormat's resolved options, in the
// order Node's resolvedOptions() gives them; the prelude keeps its JSON
// as the format's handle.
type numberResolved struct {
	Locale                   string `json:"locale"`
	NumberingSystem          string `json:"numberingSystem"`
	Style                    string `json:"style,omitempty"`
	Currency                 string `json:"currency,omitempty"`
	CurrencyDisplay          string `json:"currencyDisplay,omitempty"`
	CurrencySign             string `json:"currencySign,omitempty"`
	Unit                     string `json:"unit,omitempty"`
	UnitDisplay              string `json:"unitDisplay,omitempty"`
	Type                     string `json:"type,omitempty"` // PluralRules
	MinimumIntegerDigits     int    `json:"minimumIntegerDigits"`
	MinimumSignificantDigits *int   `json:"minimumSignificantDigits,omitempty"`
	MaximumSignificantDigits *int   `json:"maximumSignificantDigits,omitempty"`
	MinimumFractionDigits    *int   `json:"minimumFractionDigits,omitempty"`
	MaximumFractionDigits    *int   `json:"maximumFractionDigits,omitempty"`
	UseGrouping              any    `json:"useGrouping,omitempty"`
	Notation                 string `json:"notation,omitempty"`
	CompactDisplay           string `json:"compactDisplay,omitempty"`
	SignDisplay              string `json:"signDisplay,omitempty"`
	RoundingMode             string `json:"roundingMode"`
	RoundingIncrement        int    `json:"roundingIncrement"`
	TrailingZeroDisplay      string `json:"trailingZeroDisplay"`
	RoundingPriority         string `json:"roundingPriority"`
	// Not in resolvedOptions: the rounding type the digit options chose.
	RoundingType string `json:"-"`
}

func oneOf(ctor, prop string, v *string, fallback string, allowed ...string) (string, error) {
	if v == nil {
		return fallback, nil
	}
	for _, a := range allowed {
		if *v == a {
			return a, nil
		}
	}
	return "", rangeError("Value " + *v + " out of range for Intl." + ctor + " options property " + prop)
}

// numberOption is DefaultNumberOption.
func numberOption(prop string, v *string, lo, hi, fallback int) (int, error) {
	if v == nil {
		return fallback, nil
	}
	f, err := strconv.ParseFloat(*v, 64)
	if err != nil || math.IsNaN(f) || f < float64(lo) || f > float64(hi) {
		return 0, rangeError(prop + " value is out of range.")
	}
	return int(math.Floor(f)), nil
}

// isWellFormedCurrency: three ASCII letters.
func isWellFormedCurrency(c string) bool { return len(c) == 3 && isAlpha(c) }

// isNumberingSystemType: (3*8alphanum) *("-" (3*8alphanum)).
func isNumberingSystemType(s string) bool {
	for _, p := range strings.Split(s, "-") {
		if len(p) < 3 || len(p) > 8 || !isAlnum(p) {
			return false
		}
	}
	return true
}

// digitOptions is SetNumberFormatDigitOptions.
func digitOptions(ctor string, o *numberOptions, r *numberResolved, mnfdDefault, mxfdDefault int, notation string) error {
	mnid, err := numberOption("minimumIntegerDigits", o.MinimumIntegerDigits, 1, 21, 1)
	if err != nil {
		return err
	}
	r.MinimumIntegerDigits = mnid
	mnfd, mxfd := o.MinimumFractionDigits, o.MaximumFractionDigits
	mnsd, mxsd := o.MinimumSignificantDigits, o.MaximumSignificantDigits
	inc, err := numberOption("roundingIncrement", o.RoundingIncrement, 1, 5000, 1)
	if err != nil {
		return err
	}
	switch inc {
	case 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000:
	default:
		return rangeError("roundingIncrement value is out of range.")
	}
	mode, err := oneOf(ctor, "roundingMode", o.RoundingMode, "halfExpand",
		"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven")
	if err != nil {
		return err
	}
	priority, err := oneOf(ctor, "roundingPriority", o.RoundingPriority, "auto", "auto", "morePrecision", "lessPrecision")
	if err != nil {
		return err
	}
	tzd, err := oneOf(ctor, "trailingZeroDisplay", o.TrailingZeroDisplay, "auto", "auto", "stripIfInteger")
	if err != nil {
		return err
	}
	if inc != 1 {
		mxfdDefault = mnfdDefault
	}
	r.RoundingIncrement, r.RoundingMode, r.RoundingPriority, r.TrailingZeroDisplay = inc, mode, priority, tzd
	hasSd := mnsd != nil || mxsd != nil
	hasFd := mnfd != nil || mxfd != nil
	needSd, needFd := true, true
	if priority == "auto" {
		needSd = hasSd
		if needSd || !hasFd && notation == "compact" {
			needFd = false
		}
	}
	if needSd {
		if hasSd {
			lo, err := numberOption("minimumSignificantDigits", mnsd, 1, 21, 1)
			if err != nil {
				return err
			}
			hi, err := numberOption("maximumSignificantDigits", mxsd, lo, 21, 21)
			if err != nil {
				return err
			}
			r.MinimumSignificantDigits, r.MaximumSignificantDigits = &lo, &hi
		} else {
			lo, hi := 1, 21
			r.MinimumSignificantDigits, r.MaximumSignificantDigits = &lo, &hi
		}
	}
	if needFd {
		if hasFd {
			lo, err := numberOption("minimumFractionDigits", mnfd, 0, 100, -1)
			if err != nil {
				return err
			}
			hi, err := numberOption("maximumFractionDigits", mxfd, 0, 100, -1)
			if err != nil {
				return err
			}
			switch {
			case lo == -1:
				lo = min(mnfdDefault, hi)
			case hi == -1:
				hi = max(mxfdDefault, lo)
			case lo > hi:
				return rangeError("maximumFractionDigits value is out of range.")
			}
			r.MinimumFractionDigits, r.MaximumFractionDigits = &lo, &hi
		} else {
			lo, hi := mnfdDefault, mxfdDefault
			r.MinimumFractionDigits, r.MaximumFractionDigits = &lo, &hi
		}
	}
	switch {
	case !needSd && !needFd:
		lo, hi, flo, fhi := 1, 2, 0, 0
		r.MinimumSignificantDigits, r.MaximumSignificantDigits = &lo, &hi
		r.MinimumFractionDigits, r.MaximumFractionDigits = &flo, &fhi
		r.RoundingType = "morePrecision"
		r.RoundingPriority = "morePrecision"
	case priority == "morePrecision" || priority == "lessPrecision":
		r.RoundingType = priority
	case hasSd:
		r.RoundingType = "significantDigits"
	default:
		r.RoundingType = "fractionDigits"
	}
	if inc != 1 {
		if r.RoundingType != "fractionDigits" {
			return typeError("Invalid roundingIncrement")
		}
		if *r.MaximumFractionDigits != *r.MinimumFractionDigits {
			return rangeError("maximumFractionDigits not equal to minimumFractionDigits")
		}
	}
	return nil
}

// currencyDigits is the currency's minor unit digits (CLDR currencyData).
func currencyDigits(sup *supplementalData, code string) int {
	if d, ok := sup.CurrencyDigits[code]; ok {
		if n, err := strconv.Atoi(d.Digits); err == nil {
			return n
		}
	}
	if d, ok := sup.CurrencyDigits["DEFAULT"]; ok {
		if n, err := strconv.Atoi(d.Digits); err == nil {
			return n
		}
	}
	return 2
}

// resolveNumberFormat is InitializeNumberFormat after the options were
// read.
func resolveNumberFormat(locales []string, o *numberOptions) (*numberResolved, error) {
	const ctor = "NumberFormat"
	sup, err := supplemental()
	if err != nil {
		return nil, err
	}
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
	r := &numberResolved{Locale: loc.locale}
	r.NumberingSystem = loc.data.Numbers.DefaultNumberingSystem
	// The numbering system: the option, else the -u-nu- keyword, if the
	// locale has symbols for it or it is a numeric system with digits.
	pick := func(nu string) bool {
		if _, ok := sup.NumberingDigits[nu]; ok {
			r.NumberingSystem = nu
			return true
		}
		return false
	}
	if o.NumberingSystem != nil {
		pick(*o.NumberingSystem)
	}
	if nu, ok := loc.keys["nu"]; ok && (o.NumberingSystem == nil || *o.NumberingSystem == nu) && pick(nu) {
		r.Locale += "-u-nu-" + nu
	}
	style, err := oneOf(ctor, "style", o.Style, "decimal", "decimal", "percent", "currency", "unit")
	if err != nil {
		return nil, err
	}
	r.Style = style
	if o.Currency != nil && !isWellFormedCurrency(*o.Currency) {
		return nil, rangeError("Invalid currency code : " + *o.Currency)
	}
	cd, err := oneOf(ctor, "currencyDisplay", o.CurrencyDisplay, "symbol", "code", "symbol", "narrowSymbol", "name")
	if err != nil {
		return nil, err
	}
	cs, err := oneOf(ctor, "currencySign", o.CurrencySign, "standard", "standard", "accounting")
	if err != nil {
		return nil, err
	}
	if o.Unit != nil || style == "unit" {
		unit := ""
		if o.Unit != nil {
			unit = *o.Unit
		}
		return nil, typeError("Invalid unit argument for Intl.NumberFormat() '" + unit + "'")
	}
	if _, err := oneOf(ctor, "unitDisplay", o.UnitDisplay, "short", "short", "narrow", "long"); err != nil {
		return nil, err
	}
	if style == "currency" {
		if o.Currency == nil {
			return nil, typeError("Currency code is required with currency style.")
		}
		r.Currency = strings.ToUpper(*o.Currency)
		r.CurrencyDisplay, r.CurrencySign = cd, cs
	}
	notation, err := oneOf(ctor, "notation", o.Notation, "standard", "standard", "scientific", "engineering", "compact")
	if err != nil {
		return nil, err
	}
	mnfd, mxfd := 0, 3
	switch {
	case style == "currency" && notation == "standard":
		d := currencyDigits(sup, r.Currency)
		mnfd, mxfd = d, d
	case style == "percent":
		mnfd, mxfd = 0, 0
	}
	if err := digitOptions(ctor, o, r, mnfd, mxfd, notation); err != nil {
		return nil, err
	}
	r.Notation = notation
	compact, err := oneOf(ctor, "compactDisplay", o.CompactDisplay, "short", "short", "long")
	if err != nil {
		return nil, err
	}
	if notation == "compact" {
		r.CompactDisplay = compact
	}
	grouping := "auto"
	if notation == "compact" {
		grouping = "min2"
	}
	switch g := o.UseGrouping.(type) {
	case nil:
		r.UseGrouping = grouping
	case bool:
		if g {
			r.UseGrouping = "always"
		} else {
			r.UseGrouping = false
		}
	case string:
		switch g {
		case "true", "false":
			r.UseGrouping = grouping
		case "min2", "auto", "always":
			r.UseGrouping = g
		default:
			return nil, rangeError("Value " + g + " out of range for Intl.NumberFormat options property useGrouping")
		}
	}
	if r.SignDisplay, err = oneOf(ctor, "signDisplay", o.SignDisplay, "auto", "auto", "never", "always", "exceptZero", "negative"); err != nil {
		return nil, err
	}
	return r, nil
}

// roundValue is FormatNumericToString's rounding: x (non-negative
// magnitude, sign kept) rounded as r's digit options say, and the count
// of fraction digits to show.
func (r *numberResolved) roundValue(x decimal) (decimal, int) {
	mode := roundingMode(r.RoundingMode)
	precision := func() (decimal, int, int) {
		minP, maxP := *r.MinimumSignificantDigits, *r.MaximumSignificantDigits
		if x.isZero() {
			return x, minP - 1, 1 - maxP
		}
		e := x.exp // integer digits
		y := x.roundTo(maxP-e, 1, mode)
		if !y.isZero() {
			e = y.exp
		}
		show := max(y.fracDigits(), minP-e)
		return y, max(show, 0), e - maxP
	}
	fixed := func() (decimal, int, int) {
		minF, maxF := *r.MinimumFractionDigits, *r.MaximumFractionDigits
		y := x.roundTo(maxF, int64(r.RoundingIncrement), mode)
		return y, max(y.fracDigits(), minF), -maxF
	}
	var y decimal
	var show int
	switch r.RoundingType {
	case "significantDigits":
		y, show, _ = precision()
	case "fractionDigits":
		y, show, _ = fixed()
	default:
		sy, sshow, smag := precision()
		fy, fshow, fmag := fixed()
		pickS := smag <= fmag
		if r.RoundingType == "lessPrecision" {
			pickS = smag >= fmag
		}
		if pickS {
			y, show = sy, sshow
		} else {
			y, show = fy, fshow
		}
	}
	if r.TrailingZeroDisplay == "stripIfInteger" && y.fracDigits() == 0 {
		show = 0
	}
	return y, show
}

// part is one element of formatToParts.
type part struct {
	Type  string `json:"type"`
	Value string `json:"value"`
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
}

func newNumberFormatter(r *numberResolved) (*numberFormatter, error) {
	sup, err := supplemental()
	if err != nil {
		return nil, err
	}
	d, err := loadLocale(sup.Locales[baseOf(r.Locale)])
	if err != nil {
		return nil, err
	}
	f := &numberFormatter{r: r, data: d}
	sys, ok := d.Numbers.Systems[r.NumberingSystem]
	if !ok {
		sys = d.Numbers.Systems["latn"]
	}
	f.sys = sys
	if r.NumberingSystem != "latn" {
		f.digits = []rune(sup.NumberingDigits[r.NumberingSystem])
	}
	f.minGrp, _ = strconv.Atoi(d.Numbers.MinimumGroupingDigits)
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
func (f *numberFormatter) formatParts(x decimal) []part {
	// A copy: the formatter is shared, and finite is this call's.
	g := *f
	f = &g
	f.finite = !x.nan && !x.inf
	r := f.r
	var parts []part
	if x.nan {
		return f.affix(x, false, []part{{"nan", f.symbol("nan")}}, "", nil)
	}
	if x.inf {
		return f.affix(x, false, []part{{"infinity", f.symbol("infinity")}}, "", nil)
	}
	if r.Style == "percent" {
		x = x.shift(2)
	}
	exponent := 0
	var compact *compactPattern
	if r.Notation != "standard" && !x.isZero() {
		exponent, compact = f.exponentFor(x)
		x = x.shift(-exponent)
	}
	y, show := r.roundValue(x)
	parts = f.numberParts(y, show, compact != nil || r.Notation == "standard")
	if r.Notation == "scientific" || r.Notation == "engineering" {
		parts = append(parts, part{"exponentSeparator", f.symbol("exponential")})
		e := exponent
		if e < 0 {
			parts = append(parts, part{"exponentMinusSign", f.symbol("minusSign")})
			e = -e
		}
		parts = append(parts, part{"exponentInteger", f.transliterate(strconv.Itoa(e))})
	}
	return f.affix(y, true, parts, f.pluralOf(y, show), compact)
}

// numberParts is the integer with its groups, the decimal and the
// fraction.
func (f *numberFormatter) numberParts(y decimal, show int, grouping bool) []part {
	r := f.r
	in, fr := y.intAndFrac(show)
	if len(fr) > show {
		fr = fr[:show]
	}
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
				parts = append(parts, part{"group", f.symbol("group")})
			}
			parts = append(parts, part{"integer", f.transliterate(g)})
		}
	} else {
		parts = append(parts, part{"integer", f.transliterate(in)})
	}
	if show > 0 {
		parts = append(parts, part{"decimal", f.symbol("decimal")}, part{"fraction", f.transliterate(fr)})
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
	switch f.r.Style {
	case "percent":
		if s, ok := f.sys.PercentFormats["standard"].(string); ok {
			return parsePattern(s)
		}
	case "currency":
		if f.r.CurrencyDisplay == "name" {
			return parsePattern(f.decimalStandard())
		}
		return parsePattern(f.currencyPattern())
	}
	return parsePattern(f.decimalStandard())
}

func (f *numberFormatter) decimalStandard() string {
	var d struct {
		Standard string `json:"standard"`
	}
	json.Unmarshal(f.sys.DecimalFormats, &d)
	if d.Standard == "" {
		return "#,##0.###"
	}
	return d.Standard
}

func (f *numberFormatter) currencyFormats() map[string]json.RawMessage {
	var m map[string]json.RawMessage
	json.Unmarshal(f.sys.CurrencyFormats, &m)
	return m
}

// currencyPattern is the standard or accounting currency pattern, in
// its alphaNextToNumber form when the currency text next to the number
// is a letter.
func (f *numberFormatter) currencyPattern() string {
	m := f.currencyFormats()
	key := "standard"
	if f.r.CurrencySign == "accounting" {
		key = "accounting"
	}
	var p string
	json.Unmarshal(m[key], &p)
	if alpha, ok := m[key+"-alphaNextToNumber"]; ok && f.finite && f.currencyAlphaNextToNumber(p) {
		json.Unmarshal(alpha, &p)
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
	c := f.data.Currencies[code]
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
	in, fr := y.intAndFrac(show)
	if len(fr) > show {
		fr = fr[:show]
	}
	s := in
	if show > 0 {
		s += "." + fr
	}
	return f.plurals.selectText(s, 0)
}

// affix puts the pattern's prefix and suffix, the sign, the currency,
// the percent sign and the compact text around the number's parts.
func (f *numberFormatter) affix(y decimal, finite bool, num []part, count string, compact *compactPattern) []part {
	r := f.r
	pat := f.standardPattern()
	if compact != nil {
		pat = compact.pattern
	}
	negative := y.neg
	zero := y.isZero() || y.nan
	var sign string // "", "-", "+"
	switch r.SignDisplay {
	case "auto":
		if negative && !y.nan {
			sign = "-"
		}
	case "always":
		sign = "+"
		if negative {
			sign = "-"
		}
	case "exceptZero":
		if !zero {
			sign = "+"
			if negative {
				sign = "-"
			}
		}
	case "negative":
		if negative && !zero {
			sign = "-"
		}
	}
	if y.nan && r.SignDisplay == "always" {
		sign = "+"
	}
	prefix, suffix := pat.posPrefix, pat.posSuffix
	explicitNeg := false
	if sign == "-" && pat.hasNeg {
		prefix, suffix = pat.negPrefix, pat.negSuffix
		explicitNeg = true
		if r.CurrencySign == "accounting" {
			sign = ""
		}
	}
	var out []part
	emit := func(text string, before bool) {
		ps := f.affixParts(text, count, before, num)
		if compact != nil {
			ps = splitCompact(ps)
		}
		out = append(out, ps...)
	}
	if sign != "" && !explicitNeg {
		if strings.Contains(prefix, "-") || strings.Contains(suffix, "-") {
			// the pattern says where the sign goes
		} else {
			prefix = "-" + prefix
		}
	}
	signText := map[string]string{"-": f.symbol("minusSign"), "+": f.symbol("plusSign")}[sign]
	signType := map[string]string{"-": "minusSign", "+": "plusSign"}[sign]
	replaceSign := func(ps []part) []part {
		for i := range ps {
			if ps[i].Type == "minusSign" {
				if sign == "" {
					ps[i] = part{}
				} else {
					ps[i] = part{signType, signText}
				}
			}
		}
		return ps
	}
	emit(prefix, true)
	out = replaceSign(out)
	out = append(out, num...)
	end := len(out)
	emit(suffix, false)
	out = append(out[:end], replaceSign(out[end:])...)
	out = dropEmpty(out)
	if r.Style == "currency" && r.CurrencyDisplay == "name" {
		return splitBidi(f.currencyName(out, count))
	}
	return splitBidi(f.currencySpacing(out))
}

// splitBidi moves the bidirectional marks some locales' signs carry
// (ar: U+061C before the minus) out into literal parts, as ICU does.
func splitBidi(ps []part) []part {
	var out []part
	for _, p := range ps {
		switch p.Type {
		case "minusSign", "plusSign", "percentSign":
			core := strings.TrimFunc(p.Value, isBidiMark)
			if core != p.Value && core != "" {
				i := strings.Index(p.Value, core)
				if i > 0 {
					out = append(out, part{"literal", p.Value[:i]})
				}
				out = append(out, part{p.Type, core})
				if rest := p.Value[i+len(core):]; rest != "" {
					out = append(out, part{"literal", rest})
				}
				continue
			}
		}
		out = append(out, p)
	}
	return mergeLiterals(out)
}

func isBidiMark(r rune) bool { return r == 0x061C || r == 0x200E || r == 0x200F }

func dropEmpty(ps []part) []part {
	out := ps[:0]
	for _, p := range ps {
		if p.Type != "" {
			out = append(out, p)
		}
	}
	return out
}

// affixParts reads a pattern's prefix or suffix into parts.
func (f *numberFormatter) affixParts(text, count string, before bool, num []part) []part {
	var out []part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, part{"literal", lit.String()})
			lit.Reset()
		}
	}
	inQuote := false
	for _, c := range text {
		if c == '\'' {
			inQuote = !inQuote
			continue
		}
		if inQuote {
			lit.WriteRune(c)
			continue
		}
		switch c {
		case '¤':
			flush()
			if f.r.Style == "currency" && f.r.CurrencyDisplay != "name" {
				out = append(out, part{"currency", f.currencyText()})
			}
		case '%':
			flush()
			out = append(out, part{"percentSign", f.symbol("percentSign")})
		case '-':
			flush()
			out = append(out, part{"minusSign", "-"})
		case '+':
			flush()
			out = append(out, part{"plusSign", f.symbol("plusSign")})
		default:
			lit.WriteRune(c)
		}
	}
	flush()
	return out
}

// currencySpacing inserts CLDR's currencySpacing text (U+00A0) between a
// currency whose edge next to the number is not a symbol or a space and
// a digit.
func (f *numberFormatter) currencySpacing(ps []part) []part {
	for i := 0; i < len(ps); i++ {
		if ps[i].Type != "currency" {
			continue
		}
		if i+1 < len(ps) && isNumberPart(ps[i+1].Type) {
			c, _ := utf8.DecodeLastRuneInString(ps[i].Value)
			if !unicode.IsSymbol(c) && !unicode.IsSpace(c) && c != 0xA0 {
				ps = append(ps[:i+1], append([]part{{"literal", "\u00a0"}}, ps[i+1:]...)...)
			}
		}
		if i > 0 && isNumberPart(ps[i-1].Type) {
			c, _ := utf8.DecodeRuneInString(ps[i].Value)
			if !unicode.IsSymbol(c) && !unicode.IsSpace(c) && c != 0xA0 {
				ps = append(ps[:i], append([]part{{"literal", "\u00a0"}}, ps[i:]...)...)
				i++
			}
		}
	}
	return mergeLiterals(ps)
}

func isNumberPart(t string) bool {
	switch t {
	case "integer", "fraction":
		return true
	}
	return false
}

func mergeLiterals(ps []part) []part {
	var out []part
	for _, p := range ps {
		if n := len(out); n > 0 && p.Type == "literal" && out[n-1].Type == "literal" {
			out[n-1].Value += p.Value
			continue
		}
		out = append(out, p)
	}
	return out
}

// currencyName wraps the number in the locale's unit pattern with the
// currency's plural name ("1.00 US dollars").
func (f *numberFormatter) currencyName(num []part, count string) []part {
	m := f.currencyFormats()
	var up string
	if json.Unmarshal(m["unitPattern-count-"+count], &up) != nil || up == "" {
		json.Unmarshal(m["unitPattern-count-other"], &up)
	}
	c := f.data.Currencies[f.r.Currency]
	name, ok := c["displayName-count-"+count]
	if !ok {
		if name, ok = c["displayName-count-other"]; !ok {
			if name, ok = c["displayName"]; !ok {
				name = f.r.Currency
			}
		}
	}
	var out []part
	for up != "" {
		i := strings.IndexByte(up, '{')
		if i < 0 || i+2 >= len(up) {
			out = append(out, part{"literal", up})
			break
		}
		if i > 0 {
			out = append(out, part{"literal", up[:i]})
		}
		switch up[i+1] {
		case '0':
			out = append(out, num...)
		case '1':
			out = append(out, part{"currency", name})
		}
		up = up[i+3:]
	}
	return mergeLiterals(out)
}

// compactPattern is the compact pattern chosen for a magnitude.
type compactPattern struct{ pattern pattern }

// exponentFor is ComputeExponent: the exponent the value is shown with
// (scientific, engineering, compact), checked again after rounding.
func (f *numberFormatter) exponentFor(x decimal) (int, *compactPattern) {
	m := x.magnitude()
	e, cp := f.exponentForMagnitude(m, x)
	y, _ := f.r.roundValue(x.shift(-e))
	if y.isZero() {
		return e, cp
	}
	if y.magnitude() == m-e {
		return e, cp
	}
	return f.exponentForMagnitude(m+1, x)
}

func (f *numberFormatter) exponentForMagnitude(m int, x decimal) (int, *compactPattern) {
	switch f.r.Notation {
	case "scientific":
		return m, nil
	case "engineering":
		return int(math.Floor(float64(m)/3)) * 3, nil
	}
	return f.compactExponent(m, x)
}

// compactExponent finds the compact pattern for magnitude m.
func (f *numberFormatter) compactExponent(m int, x decimal) (int, *compactPattern) {
	table := f.compactTable()
	if m < 3 || len(table) == 0 {
		return 0, nil
	}
	key := m
	for key > 3 {
		if _, ok := table[key]; ok {
			break
		}
		key--
	}
	if _, ok := table[key]; !ok {
		return 0, nil
	}
	// The count picks the pattern's plural form; the number of zeros is
	// the same in every form.
	p := table[key]["other"]
	zeros := strings.Count(p, "0")
	if zeros == 0 || p == "0" {
		return 0, nil // "0": this magnitude is not compacted
	}
	e := key - (zeros - 1)
	y, show := f.r.roundValue(x.shift(-e))
	count := f.pluralOf(y, show)
	pat, ok := table[key][count]
	if !ok {
		pat = p
	}
	return e, &compactPattern{pattern: parseCompact(pat)}
}

// compactTable is magnitude -> count -> pattern for the notation's
// display and the style.
func (f *numberFormatter) compactTable() map[int]map[string]string {
	var raw map[string]map[string]json.RawMessage
	src := f.sys.DecimalFormats
	which, inner := f.r.CompactDisplay, "decimalFormat"
	if f.r.Style == "currency" && f.r.CurrencyDisplay != "name" {
		src = f.sys.CurrencyFormats
		which, inner = "short", "standard"
	}
	json.Unmarshal(src, &raw)
	var m map[string]string
	json.Unmarshal(raw[which][inner], &m)
	if m == nil && which == "long" {
		json.Unmarshal(raw["short"][inner], &m)
	}
	out := map[int]map[string]string{}
	for k, p := range m {
		num, count, ok := strings.Cut(k, "-count-")
		if !ok || strings.HasSuffix(count, "-alt-alphaNextToNumber") {
			continue
		}
		mag := len(num) - 1
		if out[mag] == nil {
			out[mag] = map[string]string{}
		}
		out[mag][count] = p
	}
	return out
}

// parseCompact reads a compact pattern ("0 Mio'.' ¤", "¤0K") into a
// pattern whose affixes carry the compact text as literal parts marked
// compact.
func parseCompact(p string) pattern {
	pos, _, _ := strings.Cut(p, ";")
	start := strings.IndexByte(pos, '0')
	end := strings.LastIndexByte(pos, '0') + 1
	if start < 0 {
		return pattern{posPrefix: pos}
	}
	return pattern{posPrefix: pos[:start], posSuffix: pos[end:]}
}

// splitCompact turns the literal text of a compact pattern's affixes
// into literal (the spaces at its edges) and compact parts.
func splitCompact(ps []part) []part {
	var out []part
	for _, p := range ps {
		if p.Type != "literal" {
			out = append(out, p)
			continue
		}
		trimmedL := strings.TrimLeftFunc(p.Value, isSpaceLike)
		lead := p.Value[:len(p.Value)-len(trimmedL)]
		core := strings.TrimRightFunc(trimmedL, isSpaceLike)
		trail := trimmedL[len(core):]
		if lead != "" {
			out = append(out, part{"literal", lead})
		}
		if core != "" {
			out = append(out, part{"compact", core})
		}
		if trail != "" {
			out = append(out, part{"literal", trail})
		}
	}
	return out
}

func isSpaceLike(r rune) bool {
	return unicode.IsSpace(r) || r == 0xA0 || r == 0x202F || r == 0x200F || r == 0x200E
}
