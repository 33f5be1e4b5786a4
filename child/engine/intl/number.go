package intl

import (
	"math"
	"slices"
	"strconv"
	"strings"
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
	inc, err := roundingOptions(ctor, o, r)
	if err != nil {
		return err
	}
	priority := r.RoundingPriority
	if inc != 1 {
		mxfdDefault = mnfdDefault
	}
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
		if r.MinimumFractionDigits, r.MaximumFractionDigits, err = fractionDigits(mnfd, mxfd, mnfdDefault, mxfdDefault); err != nil {
			return err
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

// roundingIncrements and roundingModes are the values
// Intl.NumberFormat accepts for those options.
var (
	roundingIncrements = []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000}
	roundingModes      = []string{"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"}
)

// roundingOptions reads roundingIncrement, roundingMode,
// roundingPriority and trailingZeroDisplay into r.
func roundingOptions(ctor string, o *numberOptions, r *numberResolved) (int, error) {
	inc, err := numberOption("roundingIncrement", o.RoundingIncrement, 1, 5000, 1)
	if err != nil {
		return 0, err
	}
	if !slices.Contains(roundingIncrements, inc) {
		return 0, rangeError("roundingIncrement value is out of range.")
	}
	mode, err := oneOf(ctor, "roundingMode", o.RoundingMode, "halfExpand", roundingModes...)
	if err != nil {
		return 0, err
	}
	priority, err := oneOf(ctor, "roundingPriority", o.RoundingPriority, "auto", "auto", "morePrecision", "lessPrecision")
	if err != nil {
		return 0, err
	}
	tzd, err := oneOf(ctor, "trailingZeroDisplay", o.TrailingZeroDisplay, "auto", "auto", "stripIfInteger")
	if err != nil {
		return 0, err
	}
	r.RoundingIncrement, r.RoundingMode, r.RoundingPriority, r.TrailingZeroDisplay = inc, mode, priority, tzd
	return inc, nil
}

// fractionDigits resolves minimumFractionDigits and
// maximumFractionDigits against their defaults.
func fractionDigits(mnfd, mxfd *string, mnfdDefault, mxfdDefault int) (*int, *int, error) {
	if mnfd == nil && mxfd == nil {
		lo, hi := mnfdDefault, mxfdDefault
		return &lo, &hi, nil
	}
	lo, err := numberOption("minimumFractionDigits", mnfd, 0, 100, -1)
	if err != nil {
		return nil, nil, err
	}
	hi, err := numberOption("maximumFractionDigits", mxfd, 0, 100, -1)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case lo == -1:
		lo = min(mnfdDefault, hi)
	case hi == -1:
		hi = max(mxfdDefault, lo)
	case lo > hi:
		return nil, nil, rangeError("maximumFractionDigits value is out of range.")
	}
	return &lo, &hi, nil
}

// currencyDigits is the currency's minor unit digits (CLDR currencyData).
func currencyDigits(code string) int {
	var d struct {
		Digits string `json:"_digits"`
	}
	if lookupJSON("cd", code, &d) || lookupJSON("cd", "DEFAULT", &d) {
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
	r := &numberResolved{}
	r.NumberingSystem, r.Locale = numberingSystemFor(loc, o.NumberingSystem)
	style, err := oneOf(ctor, "style", o.Style, "decimal", "decimal", "percent", "currency", "unit")
	if err != nil {
		return nil, err
	}
	r.Style = style
	if err := resolveStyleUnits(o, r); err != nil {
		return nil, err
	}
	notation, err := oneOf(ctor, "notation", o.Notation, "standard", "standard", "scientific", "engineering", "compact")
	if err != nil {
		return nil, err
	}
	mnfd, mxfd := 0, 3
	switch {
	case style == "currency" && notation == "standard":
		d := currencyDigits(r.Currency)
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
	if r.UseGrouping, err = useGrouping(o.UseGrouping, notation); err != nil {
		return nil, err
	}
	if r.SignDisplay, err = oneOf(ctor, "signDisplay", o.SignDisplay, "auto", "auto", "never", "always", "exceptZero", "negative"); err != nil {
		return nil, err
	}
	return r, nil
}

// numberingSystemFor picks a formatter's numbering system: the option,
// else the locale's -u-nu- keyword (which then stays in the locale it
// answers), if it is a numeric system; else the locale's default.
func numberingSystemFor(loc *resolved, option *string) (nu, locale string) {
	nu, locale = loc.data.DefaultNumberingSystem, loc.locale
	pick := func(n string) bool {
		if _, ok := lookup("nu", n); ok {
			nu = n
			return true
		}
		return false
	}
	if option != nil {
		pick(*option)
	}
	if n, ok := loc.keys["nu"]; ok && (option == nil || *option == n) && pick(n) {
		locale += "-u-nu-" + n
	}
	return nu, locale
}

// useGrouping is GetBooleanOrStringNumberFormatOption for useGrouping.
func useGrouping(v any, notation string) (any, error) {
	grouping := "auto"
	if notation == "compact" {
		grouping = "min2"
	}
	switch g := v.(type) {
	case nil:
		return grouping, nil
	case bool:
		if g {
			return "always", nil
		}
		return false, nil
	case string:
		switch g {
		case "true", "false":
			return grouping, nil
		case "min2", "auto", "always":
			return g, nil
		default:
			return nil, rangeError("Value " + g + " out of range for Intl.NumberFormat options property useGrouping")
		}
	}
	return "auto", nil
}

// digitsOf is a numeric numbering system's ten digits.
func digitsOf(nu string) string {
	d, _ := lookup("nu", nu)
	return d
}

// resolveStyleUnits reads the currency and unit options and keeps those
// of r's style.
func resolveStyleUnits(o *numberOptions, r *numberResolved) error {
	const ctor = "NumberFormat"
	style := r.Style
	if o.Currency != nil && !isWellFormedCurrency(*o.Currency) {
		return rangeError("Invalid currency code : " + *o.Currency)
	}
	cd, err := oneOf(ctor, "currencyDisplay", o.CurrencyDisplay, "symbol", "code", "symbol", "narrowSymbol", "name")
	if err != nil {
		return err
	}
	cs, err := oneOf(ctor, "currencySign", o.CurrencySign, "standard", "standard", "accounting")
	if err != nil {
		return err
	}
	if o.Unit != nil && !isWellFormedUnit(*o.Unit) {
		return rangeError("Invalid unit argument for Intl.NumberFormat() '" + *o.Unit + "'")
	}
	unitDisplay, err := oneOf(ctor, "unitDisplay", o.UnitDisplay, "short", "short", "narrow", "long")
	if err != nil {
		return err
	}
	if style == "unit" {
		if o.Unit == nil {
			return typeError("Invalid unit argument for Intl.NumberFormat() ''")
		}
		r.Unit, r.UnitDisplay = *o.Unit, unitDisplay
	}
	if style == "currency" {
		if o.Currency == nil {
			return typeError("Currency code is required with currency style.")
		}
		r.Currency = strings.ToUpper(*o.Currency)
		r.CurrencyDisplay, r.CurrencySign = cd, cs
	}
	return nil
}

// sanctionedUnits are ECMA-402's simple units.
var sanctionedUnits = func() map[string]bool {
	m := map[string]bool{}
	for _, u := range strings.Fields(`acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon
		gigabit gigabyte gram hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter
		microsecond mile mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent
		petabyte pound second stone terabit terabyte week yard year`) {
		m[u] = true
	}
	return m
}()

// isWellFormedUnit is IsWellFormedUnitIdentifier: a sanctioned unit, or
// two joined by "-per-".
func isWellFormedUnit(u string) bool {
	if sanctionedUnits[u] {
		return true
	}
	num, den, ok := strings.Cut(u, "-per-")
	return ok && sanctionedUnits[num] && sanctionedUnits[den]
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
