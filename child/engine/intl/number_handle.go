package intl

import (
	"encoding/json"
	"slices"
)

// numberHandle decodes the handle of a NumberFormat or PluralRules (the
// JSON of its resolved options, which the prelude keeps) and checks what
// the formatting reads: the digit options its rounding type needs,
// within the ranges the constructor allows, and a rounding increment
// and mode it could have chosen. Guest code can hand the prelude any
// string as a handle, so nothing here trusts it; a PluralRules handle
// has no rounding options and gets the defaults.
func numberHandle(handle string) (*numberResolved, error) {
	var r numberResolved
	if err := json.Unmarshal([]byte(handle), &r); err != nil {
		return nil, typeError("intl: bad handle")
	}
	r.RoundingType = roundingTypeOf(&r)
	if r.RoundingMode == "" {
		r.RoundingMode = "halfExpand"
	}
	if r.RoundingIncrement == 0 {
		r.RoundingIncrement = 1
	}
	if r.MinimumIntegerDigits == 0 {
		r.MinimumIntegerDigits = 1
	}
	if !r.digitsValid() || !slices.Contains(roundingIncrements, r.RoundingIncrement) || !slices.Contains(roundingModes, r.RoundingMode) {
		return nil, typeError("intl: bad handle")
	}
	return &r, nil
}

// digitsValid says a handle has the digit options its rounding type
// reads, each within its constructor's range.
func (r *numberResolved) digitsValid() bool {
	pair := func(lo, hi *int, least, most int) bool {
		return lo != nil && hi != nil && least <= *lo && *lo <= *hi && *hi <= most
	}
	sig := pair(r.MinimumSignificantDigits, r.MaximumSignificantDigits, 1, 21)
	frac := pair(r.MinimumFractionDigits, r.MaximumFractionDigits, 0, 100)
	if r.MinimumIntegerDigits < 1 || r.MinimumIntegerDigits > 21 {
		return false
	}
	switch r.RoundingType {
	case "significantDigits":
		return sig
	case "fractionDigits":
		return frac
	}
	return sig && frac
}

// roundingTypeOf recovers the rounding type from resolved options.
func roundingTypeOf(r *numberResolved) string {
	switch {
	case r.RoundingPriority == "morePrecision" || r.RoundingPriority == "lessPrecision":
		return r.RoundingPriority
	case r.MinimumSignificantDigits != nil:
		return "significantDigits"
	}
	return "fractionDigits"
}
