package intl

import (
	"encoding/json"
	"math"
	"strings"
	"unicode"
)

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
	table := f.compact
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
func (f *numberFormatter) readCompactTable() map[int]map[string]string {
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
			out = append(out, part{Type: "literal", Value: lead})
		}
		if core != "" {
			out = append(out, part{Type: "compact", Value: core})
		}
		if trail != "" {
			out = append(out, part{Type: "literal", Value: trail})
		}
	}
	return out
}

func isSpaceLike(r rune) bool {
	return unicode.IsSpace(r) || r == 0xA0 || r == 0x202F || r == 0x200F || r == 0x200E
}
