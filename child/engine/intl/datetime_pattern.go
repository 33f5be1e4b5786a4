package intl

import (
	"sort"
	"strings"
)

// A pattern is CLDR's date pattern: runs of one letter are fields
// ("MMM"), quoted text and other characters are literals.

// patternField is one run of a pattern: a field (letter, count) or a
// literal.
type patternField struct {
	letter  byte // 0 for a literal
	count   int
	literal string
}

func parseDatePattern(p string) []patternField {
	var out []patternField
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, patternField{literal: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			if i+1 < len(p) && p[i+1] == '\'' {
				lit.WriteByte('\'')
				i += 2
				continue
			}
			j := i + 1
			for j < len(p) {
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						lit.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				lit.WriteByte(p[j])
				j++
			}
			i = j + 1
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			flush()
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			out = append(out, patternField{letter: c, count: j - i})
			i = j
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return out
}

func writeDatePattern(fs []patternField) string {
	var b strings.Builder
	for _, f := range fs {
		if f.letter != 0 {
			b.WriteString(strings.Repeat(string(f.letter), f.count))
			continue
		}
		if strings.ContainsFunc(f.literal, func(r rune) bool { return r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') || r == '\'' }) {
			b.WriteByte('\'')
			b.WriteString(strings.ReplaceAll(f.literal, "'", "''"))
			b.WriteByte('\'')
		} else {
			b.WriteString(f.literal)
		}
	}
	return b.String()
}

// fieldType groups the letters that stand for one thing.
func fieldType(c byte) byte {
	switch c {
	case 'L':
		return 'M'
	case 'c', 'e':
		return 'E'
	case 'H', 'K', 'k':
		return 'h'
	case 'b', 'B':
		return 'a'
	case 'O', 'v', 'V', 'X', 'x', 'Z':
		return 'z'
	case 'Y', 'u':
		return 'y'
	}
	return c
}

func isNumericField(c byte, count int) bool {
	switch fieldType(c) {
	case 'M':
		return count <= 2
	case 'E', 'a', 'G', 'z':
		return false
	}
	return true
}

// skeletonOf is the skeleton of the components asked for ("yMMMd"),
// with j for the hour.
func skeletonOf(c map[string]string, fsd int, tzn string) string {
	var b strings.Builder
	w := func(s string) { b.WriteString(s) }
	switch c["era"] {
	case "short":
		w("G")
	case "long":
		w("GGGG")
	case "narrow":
		w("GGGGG")
	}
	switch c["year"] {
	case "numeric":
		w("y")
	case "2-digit":
		w("yy")
	}
	w(map[string]string{"numeric": "M", "2-digit": "MM", "short": "MMM", "long": "MMMM", "narrow": "MMMMM"}[c["month"]])
	w(map[string]string{"short": "E", "long": "EEEE", "narrow": "EEEEE"}[c["weekday"]])
	w(map[string]string{"numeric": "d", "2-digit": "dd"}[c["day"]])
	w(map[string]string{"short": "B", "long": "BBBB", "narrow": "BBBBB"}[c["dayPeriod"]])
	w(map[string]string{"numeric": "j", "2-digit": "jj"}[c["hour"]])
	w(map[string]string{"numeric": "m", "2-digit": "mm"}[c["minute"]])
	w(map[string]string{"numeric": "s", "2-digit": "ss"}[c["second"]])
	if fsd > 0 {
		w(strings.Repeat("S", fsd))
	}
	w(map[string]string{"short": "z", "long": "zzzz", "shortOffset": "O", "longOffset": "OOOO", "shortGeneric": "v", "longGeneric": "vvvv"}[tzn])
	return b.String()
}

// stylePattern is a dateStyle and timeStyle pattern, glued.
func stylePattern(d *datesData, ds, ts string) string {
	date, timeP := d.DateFormats[ds], d.TimeFormats[ts]
	switch {
	case ds == "":
		return timeP
	case ts == "":
		return date
	}
	return glue(d, ds, date, timeP)
}

// glue joins a date and a time pattern with the locale's glue for width:
// "{1} 'at' {0}" for full and long, as ICU 78 has it.
func glue(d *datesData, width, date, timeP string) string {
	g := ""
	if std, ok := d.DateTimeFormats.AtTime["standard"].(map[string]any); ok {
		g, _ = std[width].(string)
	}
	if g == "" {
		switch width {
		case "full":
			g, _ = d.DateTimeFormats.Full.(string)
		case "long":
			g, _ = d.DateTimeFormats.Long.(string)
		case "medium":
			g, _ = d.DateTimeFormats.Medium.(string)
		default:
			g, _ = d.DateTimeFormats.Short.(string)
		}
	}
	if g == "" {
		g = "{1} {0}"
	}
	return strings.NewReplacer("{1}", date, "{0}", timeP).Replace(g)
}

// bestPattern is the DateTimePatternGenerator's work, as far as Warden
// does it: the locale's available format whose fields are the
// skeleton's, nearest in widths, its widths then adjusted; a skeleton
// none has is split into its date and time halves, each matched and
// glued; a time zone or fractional seconds none carries are added.
func bestPattern(d *datesData, skeleton, cycle string) string {
	want := parseDatePattern(strings.ReplaceAll(skeleton, "j", string(hourLetter(cycle))))
	if h := fieldOf(want, 'h'); h != nil && (h.letter == 'H' || h.letter == 'k') {
		// A 24-hour hour shows no day period: ICU's pattern generator
		// drops one the skeleton asks for ("03 Uhr", not "nachts 03").
		kept := want[:0]
		for _, f := range want {
			if f.letter != 'B' && f.letter != 'b' {
				kept = append(kept, f)
			}
		}
		want = kept
	}
	p := matchFields(d, want)
	if fieldOf(want, 'B') == nil {
		// A flexible day period the components did not ask for is shown
		// as AM/PM, as ICU does for an hour skeleton.
		fs := parseDatePattern(p)
		for i := range fs {
			if fs[i].letter == 'B' {
				fs[i].letter = 'a'
				fs[i].count = 1
			}
		}
		p = writeDatePattern(fs)
	}
	return p
}

func matchFields(d *datesData, want []patternField) string {
	if len(want) == 0 {
		return ""
	}
	if p, ok := matchExact(d, want); ok {
		return p
	}
	// Fractional seconds follow the seconds.
	if i := indexOfType(want, 'S'); i >= 0 && indexOfType(want, 's') >= 0 {
		rest := append(append([]patternField(nil), want[:i]...), want[i+1:]...)
		p := matchFields(d, rest)
		fs := parseDatePattern(p)
		for j, f := range fs {
			if f.letter == 's' {
				out := append(append([]patternField(nil), fs[:j+1]...), patternField{literal: "."}, want[i])
				return writeDatePattern(append(out, fs[j+1:]...))
			}
		}
		return p
	}
	var date, timeF []patternField
	for _, f := range want {
		switch fieldType(f.letter) {
		case 'G', 'y', 'M', 'd', 'E':
			date = append(date, f)
		default:
			timeF = append(timeF, f)
		}
	}
	if len(date) > 0 && len(timeF) > 0 {
		dp, tp := matchFields(d, date), matchFields(d, timeF)
		width := "short"
		if m := fieldOf(date, 'M'); m != nil && m.count >= 4 {
			width = "long"
			if fieldOf(date, 'E') != nil {
				width = "full"
			}
		} else if m != nil && m.count == 3 {
			width = "medium"
		}
		return glue(d, width, dp, tp)
	}
	// A time zone none of the formats has: appended ("{0} {1}").
	if i := indexOfType(want, 'z'); i >= 0 && len(want) > 1 {
		rest := append(append([]patternField(nil), want[:i]...), want[i+1:]...)
		return matchFields(d, rest) + " " + writeDatePattern(want[i:i+1])
	}
	return writeDatePattern(want)
}

func indexOfType(fs []patternField, t byte) int {
	for i, f := range fs {
		if f.letter != 0 && fieldType(f.letter) == fieldType(t) {
			return i
		}
	}
	return -1
}

func fieldOf(fs []patternField, t byte) *patternField {
	if i := indexOfType(fs, t); i >= 0 {
		return &fs[i]
	}
	return nil
}

// matchExact finds the available format with exactly want's field types
// (and the same class of hour), nearest in widths, and adjusts it.
func matchExact(d *datesData, want []patternField) (string, bool) {
	best, bestDist := "", -1
	for _, sk := range d.skeletons() {
		k, have := sk.key, sk.fields
		if len(have) != len(want) {
			continue
		}
		dist := 0
		ok := true
		for _, w := range want {
			h := fieldOf(have, w.letter)
			if h == nil {
				ok = false
				break
			}
			if fieldType(w.letter) == 'h' && twelveHour(h.letter) != twelveHour(w.letter) {
				ok = false
				break
			}
			if isNumericField(w.letter, w.count) != isNumericField(h.letter, h.count) {
				dist += 0x100
			}
			if w.count > h.count {
				dist += w.count - h.count
			} else {
				dist += h.count - w.count
			}
		}
		if ok && (bestDist < 0 || dist < bestDist) {
			best, bestDist = k, dist
		}
	}
	if bestDist < 0 {
		return "", false
	}
	if canonicalSkeleton(best) == canonicalSkeleton(writeDatePattern(want)) {
		// ICU returns an exact match as it stands, but for the kind of
		// time zone name.
		return adjustZone(d.DateTimeFormats.AvailableFormats[best], want), true
	}
	return adjustWidths(d.DateTimeFormats.AvailableFormats[best], want), true
}

// availableSkeleton is one of the locale's available formats' skeletons,
// parsed.
type availableSkeleton struct {
	key    string
	fields []patternField
}

// skeletons are the available formats' skeletons in order, parsed once
// per locale (each DateTimeFormat made matches against them).
func (d *datesData) skeletons() []availableSkeleton {
	d.skeletonsOnce.Do(func() {
		for k := range d.DateTimeFormats.AvailableFormats {
			if !strings.Contains(k, "-") {
				d.parsed = append(d.parsed, availableSkeleton{key: k, fields: parseDatePattern(k)})
			}
		}
		sort.Slice(d.parsed, func(i, j int) bool { return d.parsed[i].key < d.parsed[j].key })
	})
	return d.parsed
}

// canonicalSkeleton writes a skeleton with every time zone letter as z.
func canonicalSkeleton(s string) string {
	fs := parseDatePattern(s)
	for i := range fs {
		if fs[i].letter != 0 && fieldType(fs[i].letter) == 'z' {
			fs[i].letter = 'z'
		}
	}
	return writeDatePattern(fs)
}

// adjustZone gives a pattern's time zone field the kind asked for.
func adjustZone(p string, want []patternField) string {
	w := fieldOf(want, 'z')
	if w == nil {
		return p
	}
	fs := parseDatePattern(p)
	for i := range fs {
		if fs[i].letter != 0 && fieldType(fs[i].letter) == 'z' {
			fs[i].letter, fs[i].count = w.letter, w.count
		}
	}
	return writeDatePattern(fs)
}

// adjustWidths gives a matched pattern's fields the widths asked for,
// as ICU does: a text field takes the width asked for, a numeric field
// widens to it but never narrows, the hour takes the cycle's letter, a
// time zone the kind asked for.
func adjustWidths(p string, want []patternField) string {
	fs := parseDatePattern(p)
	for i := range fs {
		f := &fs[i]
		if f.letter == 0 || f.letter == 'a' {
			continue
		}
		w := fieldOf(want, f.letter)
		if w == nil {
			continue
		}
		wNum, fNum := isNumericField(w.letter, w.count), isNumericField(f.letter, f.count)
		switch {
		case fieldType(f.letter) == 'z':
			f.letter, f.count = w.letter, w.count
		case fieldType(f.letter) == 'h':
			// V8 asks ICU to match the hour's width exactly; a cycle of
			// the other letter (k for H, K for h) keeps the pattern's.
			if twelveHour(f.letter) == twelveHour(w.letter) && (f.letter == 'h' || f.letter == 'H') == (w.letter == 'h' || w.letter == 'H') {
				f.count = w.count
			}
			f.letter = w.letter
		case f.letter == 'y':
			if w.count == 2 {
				f.count = 2
			}
		case !wNum && !fNum:
			f.count = w.count
		case wNum && fNum:
			f.count = max(f.count, w.count)
		}
	}
	return writeDatePattern(fs)
}
