package intl

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// affix puts the pattern's prefix and suffix, the sign, the currency,
// the percent sign and the compact text around the number's parts.
func (f *numberFormatter) affix(y decimal, finite bool, num []part, count string, compact *compactPattern) []part {
	r := f.r
	pat := f.standardPattern()
	if compact != nil {
		pat = compact.pattern
	}
	sign := signOf(r.SignDisplay, y)
	prefix, suffix := pat.posPrefix, pat.posSuffix
	explicitNeg := false
	switch {
	case sign == "-" && pat.hasNeg:
		prefix, suffix = pat.negPrefix, pat.negSuffix
		explicitNeg = true
		if r.CurrencySign == "accounting" {
			sign = ""
		}
	case f.approx && sign == "" && pat.hasNeg && strings.Contains(pat.negPrefix+pat.negSuffix, "-"):
		// The approximately sign stands where the negative pattern puts
		// its minus ("¤ -#,##0.00": "US$ ~3,00").
		prefix, suffix = pat.negPrefix, pat.negSuffix
		explicitNeg = true
	}
	var out []part
	emit := func(text string) {
		ps := f.affixParts(text)
		if compact != nil {
			ps = splitCompact(ps)
		}
		out = append(out, ps...)
	}
	if (sign != "" || f.approx) && !explicitNeg {
		if strings.Contains(prefix, "-") || strings.Contains(suffix, "-") {
			// the pattern says where the sign goes
		} else {
			prefix = "-" + prefix
		}
	}
	// What stands where the pattern puts the sign: the approximately
	// sign of a range's ends that format alike, then the sign.
	var signParts []part
	if f.approx {
		signParts = append(signParts, part{Type: "approximatelySign", Value: f.symbol("approximatelySign")})
	}
	switch sign {
	case "-":
		signParts = append(signParts, part{Type: "minusSign", Value: f.symbol("minusSign")})
	case "+":
		signParts = append(signParts, part{Type: "plusSign", Value: f.symbol("plusSign")})
	}
	replaceSign := func(ps []part) []part {
		var out []part
		for _, p := range ps {
			if p.Type == "minusSign" {
				out = append(out, signParts...)
			} else {
				out = append(out, p)
			}
		}
		return out
	}
	emit(prefix)
	out = replaceSign(out)
	out = append(out, num...)
	end := len(out)
	emit(suffix)
	out = append(out[:end], replaceSign(out[end:])...)
	out = dropEmpty(out)
	if r.Style == "currency" && r.CurrencyDisplay == "name" {
		return splitBidi(f.currencyName(out, count))
	}
	if r.Style == "unit" && !f.percentPattern() {
		return splitBidi(f.unitName(out, count))
	}
	return splitBidi(f.currencySpacing(out))
}

// signOf is the sign signDisplay shows for y: "", "-" or "+".
func signOf(display string, y decimal) string {
	negative := y.neg
	zero := y.isZero() || y.nan
	var sign string // "", "-", "+"
	switch display {
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
	if y.nan && display == "always" {
		sign = "+"
	}
	return sign
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
					out = append(out, part{Type: "literal", Value: p.Value[:i]})
				}
				out = append(out, part{Type: p.Type, Value: core})
				if rest := p.Value[i+len(core):]; rest != "" {
					out = append(out, part{Type: "literal", Value: rest})
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
func (f *numberFormatter) affixParts(text string) []part {
	var out []part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, part{Type: "literal", Value: lit.String()})
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
				out = append(out, part{Type: "currency", Value: f.currencyText()})
			}
		case '%':
			flush()
			out = append(out, part{Type: "percentSign", Value: f.symbol("percentSign")})
		case '-':
			flush()
			out = append(out, part{Type: "minusSign", Value: "-"})
		case '+':
			flush()
			out = append(out, part{Type: "plusSign", Value: f.symbol("plusSign")})
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
				ps = append(ps[:i+1], append([]part{{Type: "literal", Value: "\u00a0"}}, ps[i+1:]...)...)
			}
		}
		if i > 0 && isNumberPart(ps[i-1].Type) {
			c, _ := utf8.DecodeRuneInString(ps[i].Value)
			if !unicode.IsSymbol(c) && !unicode.IsSpace(c) && c != 0xA0 {
				ps = append(ps[:i], append([]part{{Type: "literal", Value: "\u00a0"}}, ps[i:]...)...)
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
	up := f.currency["unitPattern-count-"+count]
	if up == "" {
		up = f.currency["unitPattern-count-other"]
	}
	c := f.currencyInfo
	name, ok := c["displayName-count-"+count]
	if !ok {
		if name, ok = c["displayName-count-other"]; !ok {
			if name, ok = c["displayName"]; !ok {
				name = f.r.Currency
			}
		}
	}
	return applyPattern(up, num, []part{{Type: "currency", Value: name}})
}

// unitName wraps the number in the unit's pattern for its plural count
// ("{0} km"); a compound CLDR lacks ("kilobyte-per-second") is the
// numerator's pattern inside the denominator's per-unit pattern
// ("{0}/s"), or the locale's compound pattern ("{0}/{1}").
func (f *numberFormatter) unitName(num []part, count string) []part {
	units := f.units[f.r.UnitDisplay]
	pattern := func(u map[string]any) string {
		if p, ok := u["unitPattern-count-"+count].(string); ok {
			return p
		}
		p, _ := u["unitPattern-count-other"].(string)
		return p
	}
	if u, ok := units[f.r.Unit].(map[string]any); ok {
		return unitParts(pattern(u), num)
	}
	numU, denU, _ := strings.Cut(f.r.Unit, "-per-")
	n, _ := units[numU].(map[string]any)
	d, _ := units[denU].(map[string]any)
	inner := unitParts(pattern(n), num)
	if per, ok := d["perUnitPattern"].(string); ok {
		return unitParts(per, inner)
	}
	one, _ := d["unitPattern-count-one"].(string)
	if one == "" {
		one = pattern(d)
	}
	denText := strings.TrimSpace(strings.ReplaceAll(one, "{0}", ""))
	compound, _ := units["per"].(string)
	out := unitParts(strings.Replace(compound, "{1}", denText, 1), inner)
	return mergeUnits(out)
}

// unitParts puts num at the pattern's {0}; the rest is the unit, but
// for the spaces at its edges.
func unitParts(pattern string, num []part) []part {
	before, after, ok := strings.Cut(pattern, "{0}")
	if !ok {
		// A pattern without the number ("لتر", Arabic's one liter) is
		// the unit alone.
		return unitText(pattern)
	}
	var out []part
	out = append(out, unitText(before)...)
	out = append(out, num...)
	out = append(out, unitText(after)...)
	return mergeUnits(out)
}

func unitText(s string) []part {
	if s == "" {
		return nil
	}
	ps := splitCompact([]part{{Type: "literal", Value: s}})
	for i := range ps {
		if ps[i].Type == "compact" {
			ps[i].Type = "unit"
		}
	}
	return ps
}

// mergeUnits joins adjacent literal parts and adjacent unit parts.
func mergeUnits(ps []part) []part {
	var out []part
	for _, p := range ps {
		if n := len(out); n > 0 && (p.Type == "literal" || p.Type == "unit") && out[n-1].Type == p.Type {
			out[n-1].Value += p.Value
			continue
		}
		out = append(out, p)
	}
	return out
}

// percentPattern says whether the percent unit takes the locale's
// percent pattern, as ICU's short and narrow forms do ("5 %"), rather
// than the unit's patterns ("5 Prozent").
func (f *numberFormatter) percentPattern() bool {
	return f.r.Style == "unit" && f.r.Unit == "percent" && f.r.UnitDisplay != "long"
}
