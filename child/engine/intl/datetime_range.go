package intl

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// dateRange is DateTimeFormat's formatRange and (asParts)
// formatRangeToParts; pair is [start, end] as time values.
func dateRange(handle, pair string, asParts bool) (string, error) {
	f, err := dateFormatterFor(handle)
	if err != nil {
		return "", err
	}
	var v [2]string
	if err := json.Unmarshal([]byte(pair), &v); err != nil {
		return "", rangeError("Invalid time value")
	}
	x, errX := strconv.ParseFloat(v[0], 64)
	y, errY := strconv.ParseFloat(v[1], 64)
	if errX != nil || errY != nil {
		return "", rangeError("Invalid time value")
	}
	ps, err := f.rangeParts(x, y)
	if err != nil {
		return "", err
	}
	if ps == nil {
		// The ends look alike: V8 formats the start with the
		// DateTimeFormat itself, as format and formatToParts do.
		if asParts {
			ps, _ = f.formatParts(x)
			return joinParts(withSource(ps, "shared"), true)
		}
		return dateFormat(handle, v[0], false)
	}
	// Unlike format, V8's formatRange keeps U+202F.
	return joinParts(ps, asParts)
}

// rangeParts formats the range from the time value x to y; nil when
// they differ in no field shown.
func (f *dateFormatter) rangeParts(x, y float64) ([]part, error) {
	for _, ms := range []float64{x, y} {
		if math.IsNaN(ms) || math.Abs(ms) > maxTime {
			return nil, rangeError("Invalid time value")
		}
	}
	a, b := time.UnixMilli(int64(x)).In(f.loc), time.UnixMilli(int64(y)).In(f.loc)
	field := largestDifference(a, b)
	if field == 0 {
		return nil, nil
	}
	plan := f.intervals()
	sameDay := fieldLevel(field) > fieldLevel('d')
	p, ok := plan.patterns[field]
	switch {
	case !ok && fieldIgnored(plan.own, field):
		return nil, nil
	case !ok:
		return f.fallbackRange(plan, plan.own, a, b, sameDay), nil
	case p.fallback != nil:
		return f.fallbackRange(plan, p.fallback, a, b, sameDay), nil
	}
	// A field both parts have is each end's; one written once is shared.
	both := map[byte]bool{}
	for _, fl := range p.first {
		if fl.letter != 0 && fieldOf(p.second, fl.letter) != nil {
			both[fieldType(fl.letter)] = true
		}
	}
	out := f.spanParts(p.first, a, both, "startRange")
	return mergeSourcedLiterals(append(out, f.spanParts(p.second, b, both, "endRange")...)), nil
}

// largestDifference is the coarsest field in which a and b differ
// (the hour in 12-hour terms, its half of the day apart), 0 if none
// does above the milliseconds.
func largestDifference(a, b time.Time) byte {
	era := func(t time.Time) bool { return t.Year() > 0 }
	switch {
	case era(a) != era(b):
		return 'G'
	case a.Year() != b.Year():
		return 'y'
	case a.Month() != b.Month():
		return 'M'
	case a.Day() != b.Day():
		return 'd'
	case a.Hour()/12 != b.Hour()/12:
		return 'a'
	case a.Hour() != b.Hour():
		return 'h'
	case a.Minute() != b.Minute():
		return 'm'
	case a.Second() != b.Second():
		return 's'
	}
	return 0
}

// spanParts formats t with fields: those of the types own names (all,
// when own is nil) are this end's (source); the others, and the
// literals not between two of this end's fields, are shared.
func (f *dateFormatter) spanParts(fields []patternField, t time.Time, own map[byte]bool, source string) []part {
	mine := make([]bool, len(fields))
	for i, fl := range fields {
		mine[i] = fl.letter != 0 && (own == nil || own[fieldType(fl.letter)])
	}
	var out []part
	for i, fl := range fields {
		src := "shared"
		if mine[i] || fl.letter == 0 && i > 0 && i+1 < len(fields) && mine[i-1] && mine[i+1] {
			src = source
		}
		out = append(out, withSource(f.patternParts(fields[i:i+1], t), src)...)
	}
	return out
}

// fallbackRange is ICU's fallbackFormat: on one day, with a date and a
// time half, the date once and the times joined by the fallback
// ("{0} – {1}"); otherwise each end whole, joined by it.
func (f *dateFormatter) fallbackRange(plan *intervalPlan, fields []patternField, a, b time.Time, sameDay bool) []part {
	if sameDay && plan.date != nil && plan.time != nil {
		times := f.joinEnds(plan, plan.time, a, b)
		date := withSource(f.patternParts(plan.date, a), "shared")
		return mergeSourcedLiterals(substitute(plan.glue, map[string][]part{"{0}": times, "{1}": date}))
	}
	return mergeSourcedLiterals(f.joinEnds(plan, fields, a, b))
}

// joinEnds is the fallback pattern with each end formatted whole.
func (f *dateFormatter) joinEnds(plan *intervalPlan, fields []patternField, a, b time.Time) []part {
	start := f.spanParts(fields, a, nil, "startRange")
	end := f.spanParts(fields, b, nil, "endRange")
	return substitute(plan.fallback, map[string][]part{"{0}": start, "{1}": end})
}

// substitute fills a "{0} … {1}" pattern with parts; its own text is
// shared literals.
func substitute(pattern string, args map[string][]part) []part {
	var out []part
	for pattern != "" {
		i := strings.IndexByte(pattern, '{')
		if i < 0 || i+3 > len(pattern) || args[pattern[i:i+3]] == nil {
			out = append(out, part{Type: "literal", Value: pattern, Source: "shared"})
			break
		}
		if i > 0 {
			out = append(out, part{Type: "literal", Value: pattern[:i], Source: "shared"})
		}
		out = append(out, args[pattern[i:i+3]]...)
		pattern = pattern[i+3:]
	}
	return out
}
