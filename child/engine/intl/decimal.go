package intl

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// decimal is an exact decimal value: digits (no leading or trailing
// zeros; empty for zero) times 10 to the power exp minus the digits'
// count, i.e. 0.DIGITS × 10^exp. It is what ECMA-402 calls a
// mathematical value, plus NaN, the infinities and negative zero.
type decimal struct {
	neg    bool
	digits string
	exp    int
	nan    bool
	inf    bool
}

func (d decimal) isZero() bool { return !d.nan && !d.inf && d.digits == "" }

// magnitude is floor(log10(|d|)) for a finite non-zero d.
func (d decimal) magnitude() int { return d.exp - 1 }

func normalize(neg bool, digits string, exp int) decimal {
	t := strings.TrimLeft(digits, "0")
	exp -= len(digits) - len(t)
	t = strings.TrimRight(t, "0")
	if t == "" {
		return decimal{neg: neg}
	}
	return decimal{neg: neg, digits: t, exp: exp}
}

// parseValue reads what the prelude sends for a value to format: "n:" and
// the JavaScript Number's own shortest text (String(x), "-0" for
// negative zero), "b:" and a BigInt's digits, "s:" and a string, read as
// a StringNumericLiteral (ECMA-402 ToIntlMathematicalValue).
func parseValue(v string) decimal {
	kind, text, _ := strings.Cut(v, ":")
	switch kind {
	case "n", "b":
		return parseDecimal(text)
	case "s":
		// A string beyond the largest Number is an infinity, as V8 has it;
		// below the smallest it stays exact.
		d := parseNumericString(text)
		if !d.nan && !d.inf && d.exp > 308 {
			if f, err := strconv.ParseFloat("0."+d.digits+"e"+strconv.Itoa(d.exp), 64); err != nil || math.IsInf(f, 0) {
				return decimal{neg: d.neg, inf: true}
			}
		}
		return d
	}
	return decimal{nan: true}
}

func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == 0xFEFF }

// parseNumericString is StringNumericLiteral: whitespace around,
// Infinity, 0x/0o/0b integers, decimal literals; anything else is NaN.
func parseNumericString(s string) decimal {
	s = strings.TrimFunc(s, isJSSpace)
	if s == "" {
		return decimal{}
	}
	if len(s) > 2 && s[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			n, ok := new(big.Int).SetString(s[2:], base)
			if !ok || strings.ContainsAny(s[2:], "_+-") {
				return decimal{nan: true}
			}
			return normalize(false, n.String(), len(n.String()))
		}
	}
	return parseDecimal(s)
}

// parseDecimal reads [+-]digits[.digits][e[+-]digits], Infinity and NaN.
func parseDecimal(s string) decimal {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	switch s {
	case "Infinity":
		return decimal{neg: neg, inf: true}
	case "NaN", "":
		return decimal{nan: true}
	}
	mant, expText := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText = s[:i], s[i+1:]
	}
	intPart, frac, hasPoint := strings.Cut(mant, ".")
	if intPart == "" && frac == "" || !digitsOnly(intPart) || !digitsOnly(frac) || hasPoint && strings.Contains(frac, ".") {
		return decimal{nan: true}
	}
	e := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		sign := 1
		if expText != "" && (expText[0] == '+' || expText[0] == '-') {
			if expText[0] == '-' {
				sign = -1
			}
			expText = expText[1:]
		}
		if expText == "" || !digitsOnly(expText) {
			return decimal{nan: true}
		}
		if len(expText) > 6 {
			// Beyond any double: ±Infinity or zero.
			if sign > 0 && strings.TrimLeft(intPart+frac, "0") != "" {
				return decimal{neg: neg, inf: true}
			}
			return decimal{neg: neg}
		}
		for _, c := range expText {
			e = e*10 + int(c-'0')
		}
		e *= sign
	}
	return normalize(neg, intPart+frac, len(intPart)+e)
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// shift multiplies by 10^n.
func (d decimal) shift(n int) decimal {
	if d.digits != "" {
		d.exp += n
	}
	return d
}

// roundingMode is one of ECMA-402's nine.
type roundingMode string

// roundTo rounds |d| to a multiple of increment × 10^-frac under mode
// (the sign decides for ceil and floor), exactly.
func (d decimal) roundTo(frac int, increment int64, mode roundingMode) decimal {
	if d.digits == "" || d.nan || d.inf {
		return d
	}
	if d.fracDigits() <= frac && increment == 1 {
		return d // exact already
	}
	// Only the digits down to the rounding position count, and whether
	// any digit below it is not zero (a sticky 1): a string of a million
	// digits costs no more than its first few.
	if keep := d.exp + frac + 1; keep < len(d.digits) {
		if keep <= 0 {
			d.digits = "1" // under a tenth of the unit either way
		} else {
			d.digits = d.digits[:keep] + "1"
		}
	}
	// |d| = M × 10^-s
	s := len(d.digits) - d.exp
	m, _ := new(big.Int).SetString(d.digits, 10)
	unit := big.NewInt(increment)
	if s >= frac {
		unit.Mul(unit, pow10(s-frac))
	} else {
		m.Mul(m, pow10(frac-s))
		s = frac
	}
	q, r := new(big.Int).QuoRem(m, unit, new(big.Int))
	if r.Sign() != 0 && roundsUp(mode, d.neg, q, r, unit) {
		q.Add(q, big.NewInt(1))
	}
	q.Mul(q, big.NewInt(increment))
	// value = q × 10^-frac
	t := q.String()
	if q.Sign() == 0 {
		return decimal{neg: d.neg}
	}
	return normalize(d.neg, t, len(t)-frac)
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// roundsUp says whether the remainder r (0 < r < unit) of |x| = q×unit+r
// takes |x| up to (q+1)×unit.
func roundsUp(mode roundingMode, neg bool, q, r, unit *big.Int) bool {
	switch mode {
	case "ceil":
		mode = "expand"
		if neg {
			mode = "trunc"
		}
	case "floor":
		mode = "trunc"
		if neg {
			mode = "expand"
		}
	case "halfCeil":
		mode = "halfExpand"
		if neg {
			mode = "halfTrunc"
		}
	case "halfFloor":
		mode = "halfTrunc"
		if neg {
			mode = "halfExpand"
		}
	}
	half := new(big.Int).Lsh(r, 1).Cmp(unit) // 2r vs unit
	switch mode {
	case "expand":
		return true
	case "trunc":
		return false
	case "halfTrunc":
		return half > 0
	case "halfEven":
		return half > 0 || half == 0 && q.Bit(0) == 1
	default: // halfExpand
		return half >= 0
	}
}

// fracDigits is how many digits d has after the point.
func (d decimal) fracDigits() int {
	if n := len(d.digits) - d.exp; n > 0 {
		return n
	}
	return 0
}

// intAndFrac gives d's integer digits (at least "0") and its fraction
// digits padded with zeros to frac.
func (d decimal) intAndFrac(frac int) (string, string) {
	var in, fr string
	switch {
	case d.digits == "":
		in = "0"
	case d.exp <= 0:
		in = "0"
		fr = strings.Repeat("0", -d.exp) + d.digits
	case d.exp >= len(d.digits):
		in = d.digits + strings.Repeat("0", d.exp-len(d.digits))
	default:
		in, fr = d.digits[:d.exp], d.digits[d.exp:]
	}
	if len(fr) < frac {
		fr += strings.Repeat("0", frac-len(fr))
	}
	return in, fr
}

// fixed is d's integer digits and exactly frac fraction digits.
func (d decimal) fixed(frac int) (string, string) {
	in, fr := d.intAndFrac(frac)
	return in, fr[:frac]
}

// text is d as plural rules read it: its digits with frac fraction
// digits ("1.50"), no sign.
func (d decimal) text(frac int) string {
	in, fr := d.fixed(frac)
	if frac > 0 {
		return in + "." + fr
	}
	return in
}
