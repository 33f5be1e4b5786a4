package intl

import (
	"encoding/json"
	"sort"
	"strings"
)

// The interval patterns of a DateTimeFormat, chosen as ICU's
// DateIntervalFormat chooses them (initializePattern): the pattern's
// skeleton split into its date and time halves and normalized, the
// nearest skeleton of CLDR's intervalFormats, a pattern per largest
// differing field with its widths adjusted, and fallbacks where CLDR
// has none.

// intervalField is a calendar field formatRange compares, coarsest
// first, with the pattern letter CLDR keys its interval patterns by.
var intervalFields = []byte{'G', 'y', 'M', 'd', 'a', 'h', 'm', 's'}

// fieldLevel is ICU's level of a pattern letter (-1: not a calendar
// field, as a zone): a field is shown at its level and the finer.
func fieldLevel(c byte) int {
	switch c {
	case 'G':
		return 0
	case 'y', 'Y', 'u':
		return 10
	case 'M', 'L':
		return 20
	case 'd', 'E', 'c', 'e', 'D', 'F':
		return 30
	case 'a', 'b', 'B':
		return 40
	case 'h', 'H', 'k', 'K':
		return 50
	case 'm':
		return 60
	case 's':
		return 70
	case 'S', 'A':
		return 80
	}
	return -1
}

// intervalPattern is one largest field's pattern: its first part
// formats the start, its second the end. A fallback is a whole pattern
// each end is formatted with, joined by the locale's fallback.
type intervalPattern struct {
	first, second []patternField
	fallback      []patternField
}

// intervalPlan is what formatRange needs of one DateTimeFormat.
type intervalPlan struct {
	patterns map[byte]intervalPattern
	// own is the pattern of the whole skeleton, which ICU's interval
	// formatter makes for itself ("y/M/d H:mm" in ja, where the
	// DateTimeFormat's long date is "y年M月d日").
	own []patternField
	// date and time are the halves of the pattern for a fallback on one
	// day ("Jan 1, 2020, 10:00:00 AM – 11:30:00 AM"); nil when the
	// skeleton lacks one.
	date, time []patternField
	glue       string // the medium date-time glue, "{1}, {0}"
	fallback   string // "{0} – {1}"
}

// skeletonCounts counts each letter of a skeleton (ICU's parseSkeleton).
type skeletonCounts [128]int

func countsOf(s string) skeletonCounts {
	var c skeletonCounts
	for i := 0; i < len(s); i++ {
		if s[i] < 128 {
			c[s[i]]++
		}
	}
	return c
}

// splitSkeleton is ICU's getDateTimeSkeleton over a pattern's fields:
// the date and time skeletons as they are, and normalized (months
// numeric or by width, one hour letter, one minute, the day period
// implied).
func splitSkeleton(fields []patternField) (date, normDate, timeS, normTime string) {
	var d, nd, t, nt strings.Builder
	var y, mo, e, day, mi, z, v int
	var hour byte
	for _, f := range fields {
		if f.letter == 0 {
			continue
		}
		// A stand-alone month (L) or weekday (c) stays itself: no CLDR
		// interval skeleton has one, and the range falls back.
		c := f.letter
		run := strings.Repeat(string(c), f.count)
		switch c {
		case 'E':
			d.WriteString(run)
			e += f.count
		case 'd':
			d.WriteString(run)
			day += f.count
		case 'M':
			d.WriteString(run)
			mo += f.count
		case 'y':
			d.WriteString(run)
			y += f.count
		case 'G', 'Y', 'u', 'Q', 'q', 'L', 'l', 'W', 'w', 'D', 'F', 'g', 'e', 'c', 'U', 'r':
			nd.WriteString(run)
			d.WriteString(run)
		case 'h', 'H', 'k', 'K':
			t.WriteString(run)
			if hour == 0 {
				hour = c
			}
		case 'm':
			t.WriteString(run)
			mi += f.count
		case 'z':
			t.WriteString(run)
			z += f.count
		case 'v':
			t.WriteString(run)
			v += f.count
		case 'a':
			t.WriteString(run) // implied by a 12-hour hour
		case 'V', 'Z', 'j', 's', 'S', 'A', 'b', 'B':
			t.WriteString(run)
			nt.WriteString(run)
		}
	}
	nd.WriteString(strings.Repeat("y", y))
	switch {
	case mo > 0 && mo < 3:
		nd.WriteByte('M')
	case mo > 0:
		nd.WriteString(strings.Repeat("M", min(mo, 5)))
	}
	switch {
	case e > 0 && e <= 3:
		nd.WriteByte('E')
	case e > 0:
		nd.WriteString(strings.Repeat("E", min(e, 6)))
	}
	if day > 0 {
		nd.WriteByte('d')
	}
	if hour != 0 {
		nt.WriteByte(hour)
	}
	for _, x := range []struct {
		n int
		c byte
	}{{mi, 'm'}, {z, 'z'}, {v, 'v'}} {
		if x.n > 0 {
			nt.WriteByte(x.c)
		}
	}
	return d.String(), nd.String(), t.String(), nt.String()
}

// intervalData is the locale's intervalFormats, decoded.
func intervalData(d *datesData) (map[string]map[string]string, string) {
	out := map[string]map[string]string{}
	fallback := "{0} – {1}"
	for k, raw := range d.DateTimeFormats.IntervalFormats {
		if k == "intervalFormatFallback" {
			json.Unmarshal(raw, &fallback)
			continue
		}
		var m map[string]string
		if json.Unmarshal(raw, &m) == nil {
			out[k] = m
		}
	}
	return out, fallback
}

// bestIntervalSkeleton is ICU's DateIntervalInfo::getBestSkeleton: the
// skeleton of the data nearest to want, and how it differs (0 the same,
// 1 in widths, 2 in z for v, -1 in fields).
func bestIntervalSkeleton(data map[string]map[string]string, want string) (string, int) {
	zToV := strings.Contains(want, "z")
	want = strings.ReplaceAll(want, "z", "v")
	wc := countsOf(want)
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best, bestDist, info := "", -1, 0
	for _, k := range keys {
		hc := countsOf(k)
		dist, diff := 0, 1
		for c := range wc {
			a, b := wc[c], hc[c]
			switch {
			case a == b:
			case a == 0 || b == 0:
				diff = -1
				dist += 0x1000
			case c == 'M' && (a <= 2) != (b <= 2):
				dist += 0x100
			case a > b:
				dist += a - b
			default:
				dist += b - a
			}
		}
		if bestDist < 0 || dist < bestDist {
			best, bestDist, info = k, dist, diff
		}
		if dist == 0 {
			info = 0
			break
		}
	}
	if best == "" {
		return "", -1
	}
	if zToV && info != -1 {
		info = 2
	}
	return best, info
}

// intervalOf is the data's pattern of skeleton for field ("" if none):
// CLDR keys the hour by its letter, the day period by a or B.
func intervalOf(data map[string]map[string]string, skeleton string, field byte) string {
	m := data[skeleton]
	switch field {
	case 'h':
		for _, k := range []string{"h", "H", "k", "K"} {
			if p := m[k]; p != "" {
				return p
			}
		}
		return ""
	case 'a':
		// Where CLDR has both, ICU's resource order makes B's the day
		// period's (zh-Hant: "上午10:00至晚上10:30").
		if p := m["B"]; p != "" {
			return p
		}
		return m["a"]
	}
	return m[string(field)]
}

// fieldIgnored is ICU's isFieldUnitIgnored: every field of the pattern
// (or skeleton) is coarser than field, so a difference there is not
// shown.
func fieldIgnored(fields []patternField, field byte) bool {
	level := fieldLevel(field)
	for _, f := range fields {
		if f.letter != 0 && level <= fieldLevel(f.letter) {
			return false
		}
	}
	return true
}

// adjustIntervalWidths is ICU's adjustFieldWidth: a field of the
// pattern as wide as in the matched skeleton widens to the width the
// requested skeleton has; for a z asked where the data has v, and a
// K or k hour, the letters are exchanged.
func adjustIntervalWidths(input, best, pattern string, info int) []patternField {
	fs := parseDatePattern(pattern)
	in, bc := countsOf(input), countsOf(best)
	if info == 2 || strings.ContainsAny(input, "Kk") {
		for i := range fs {
			switch {
			case fs[i].letter == 'v' && in['z'] > 0:
				fs[i].letter = 'z'
			case fs[i].letter == 'h' && in['K'] > 0:
				fs[i].letter = 'K'
			case fs[i].letter == 'H' && in['k'] > 0:
				fs[i].letter = 'k'
			}
		}
		if in['z'] > 0 {
			bc['z'] = bc['v']
		}
	}
	if bc['a'] == 0 {
		bc['a'] = 1
	}
	for i := range fs {
		c := fs[i].letter
		if c == 0 {
			continue
		}
		if c == 'L' {
			c = 'M'
		}
		if fs[i].count == bc[c] && in[c] > bc[c] {
			fs[i].count = in[c]
		}
	}
	return fs
}

// splitInterval is ICU's splitPatternInto2Part: the second part begins
// at the first field whose letter the first part already had.
func splitInterval(fs []patternField) (first, second []patternField) {
	seen := map[byte]bool{}
	for i, f := range fs {
		if f.letter == 0 {
			continue
		}
		c := f.letter
		if seen[c] {
			return fs[:i], fs[i:]
		}
		seen[c] = true
	}
	return fs, nil
}

// intervals is f's plan, made on first use.
func (f *dateFormatter) intervals() *intervalPlan {
	f.planOnce.Do(func() { f.plan = newIntervalPlan(f) })
	return f.plan
}

// newIntervalPlan is ICU's initializePattern for f's pattern.
func newIntervalPlan(f *dateFormatter) *intervalPlan {
	data, fallback := intervalData(f.d)
	p := &intervalPlan{patterns: map[byte]intervalPattern{}, fallback: fallback}
	p.glue, _ = f.d.DateTimeFormats.Medium.(string)
	if p.glue == "" {
		p.glue = "{1} {0}"
	}
	cycle := f.h.Resolved.HourCycle
	date, normDate, timeS, normTime := splitSkeleton(f.fields)
	best := func(skeleton string) []patternField { return parseDatePattern(bestPattern(f.d, skeleton, cycle)) }
	p.own = best(date + noDayPeriod(timeS))
	found := p.setSeparate(data, f, normDate, normTime, date, timeS, best)
	// A time alone: a day apart, each end with its short date.
	if timeS != "" && date == "" {
		full := best("yMd" + noDayPeriod(timeS))
		for _, field := range []byte{'d', 'M', 'y'} {
			p.patterns[field] = intervalPattern{fallback: full}
		}
		p.patterns['G'] = intervalPattern{fallback: best("GyMd" + noDayPeriod(timeS))}
		return p
	}
	if !found || timeS == "" {
		return p
	}
	// A date and a time: a date field apart, each end whole (fields the
	// skeleton lacks are added); a time field apart, the date once and
	// the time's interval.
	skeleton := date + noDayPeriod(timeS)
	for _, field := range []byte{'d', 'M', 'y', 'G'} {
		if !strings.ContainsRune(date, rune(field)) {
			skeleton = string(field) + skeleton
			p.patterns[field] = intervalPattern{fallback: best(skeleton)}
		}
	}
	datePattern := bestPattern(f.d, date, cycle)
	for _, field := range []byte{'a', 'h', 'm'} {
		tp, ok := p.patterns[field]
		if !ok || tp.first == nil {
			continue
		}
		combined := strings.NewReplacer("{0}", writeDatePattern(append(append([]patternField(nil), tp.first...), tp.second...)), "{1}", datePattern).Replace(p.glue)
		p.setPattern(field, parseDatePattern(combined))
	}
	return p
}

// setSeparate is ICU's setSeparateDateTimePtn: the interval patterns
// of the time skeleton, or of the date skeleton when there is no time;
// false when CLDR has no skeleton with the same fields.
func (p *intervalPlan) setSeparate(data map[string]map[string]string, f *dateFormatter, normDate, normTime, date, timeS string, best func(string) []patternField) bool {
	skeleton := normDate
	if normTime != "" {
		// K and k hours are matched as h and H, and given back.
		skeleton = strings.NewReplacer("K", "h", "k", "H").Replace(normTime)
	}
	if skeleton == "" {
		return false
	}
	bestSk, info := bestIntervalSkeleton(data, skeleton)
	if bestSk == "" {
		return false
	}
	if date != "" {
		p.date = best(date)
	}
	if timeS != "" {
		p.time = best(noDayPeriod(timeS))
	}
	if info == -1 {
		return false
	}
	if normTime != "" {
		for _, field := range []byte{'m', 'h', 'a'} {
			p.set(data, field, normTime, bestSk, info, false)
		}
		return true
	}
	p.set(data, 'd', skeleton, bestSk, info, false)
	if ext, extBest, ok := p.set(data, 'M', skeleton, bestSk, info, true); ok {
		skeleton, bestSk = ext, extBest
	}
	p.set(data, 'y', skeleton, bestSk, info, true)
	p.set(data, 'G', skeleton, bestSk, info, true)
	return true
}

// set is ICU's setIntervalPattern for one field: the matched
// skeleton's pattern, or for the day period the hour's, or (extend)
// the pattern of the skeleton with the field added ("yMMMd" for a
// year apart in "MMMd"), widths adjusted. It answers the extended
// skeletons when it extended.
func (p *intervalPlan) set(data map[string]map[string]string, field byte, skeleton, best string, info int, extend bool) (string, string, bool) {
	pat := intervalOf(data, best, field)
	var ext, extBest string
	if pat == "" {
		if fieldIgnored(parseDatePattern(best), field) {
			return "", "", false
		}
		if field == 'a' {
			if hp := intervalOf(data, best, 'h'); hp != "" {
				p.setPattern(field, adjustIntervalWidths(skeleton, best, hp, info))
			}
			return "", "", false
		}
		if extend {
			ext, extBest = string(field)+skeleton, string(field)+best
			pat = intervalOf(data, extBest, field)
			if pat == "" && info == 0 {
				if tmp, i := bestIntervalSkeleton(data, extBest); tmp != "" && i != -1 {
					pat, best, info = intervalOf(data, tmp, field), tmp, i
				}
			}
		}
	}
	if pat != "" {
		fs := parseDatePattern(pat)
		if info != 0 {
			fs = adjustIntervalWidths(skeleton, best, pat, info)
		}
		p.setPattern(field, fs)
	}
	return ext, extBest, ext != ""
}

func (p *intervalPlan) setPattern(field byte, fs []patternField) {
	first, second := splitInterval(fs)
	p.patterns[field] = intervalPattern{first: first, second: second}
}

// noDayPeriod drops a skeleton's a: the pattern generator adds it to a
// 12-hour hour.
func noDayPeriod(s string) string { return strings.ReplaceAll(s, "a", "") }
