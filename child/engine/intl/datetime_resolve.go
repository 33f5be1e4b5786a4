package intl

import (
	"encoding/json"
	"strings"
)

// hourCycleFor is the hour cycle of a format: hour12 first (ECMA-402's
// rule from the locale's default, which V8 follows: en-US with
// hour12 false is h24), then hourCycle or -u-hc-, then the region's
// preferred cycle (CLDR timeData).
func hourCycleFor(region, hc string, hour12 *bool) string {
	def := "h23"
	var td struct {
		Preferred string `json:"_preferred"`
	}
	text, _ := lookupRegion("td", region)
	json.Unmarshal([]byte(text), &td)
	switch strings.TrimSpace(td.Preferred) {
	case "h":
		def = "h12"
	case "K":
		def = "h11"
	case "k":
		def = "h24"
	}
	if hour12 != nil {
		if *hour12 {
			if def == "h11" || def == "h23" {
				return "h11"
			}
			return "h12"
		}
		if def == "h11" || def == "h23" {
			return "h23"
		}
		return "h24"
	}
	if hc != "" {
		return hc
	}
	return def
}

func hourLetter(cycle string) byte {
	return map[string]byte{"h11": 'K', "h12": 'h', "h23": 'H', "h24": 'k'}[cycle]
}

func twelveHour(c byte) bool { return c == 'h' || c == 'K' }

// patternHourCycle is the cycle of a pattern's hour field.
func patternHourCycle(p string) string {
	for _, f := range parseDatePattern(p) {
		switch f.letter {
		case 'h':
			return "h12"
		case 'K':
			return "h11"
		case 'H':
			return "h23"
		case 'k':
			return "h24"
		}
	}
	return ""
}

// applyHourCycle rewrites a style's time pattern to cycle: the same
// class of cycle (12 or 24 hours) only swaps the letter; the other class
// regenerates the pattern from its fields.
func applyHourCycle(p, cycle string) string {
	fs := parseDatePattern(p)
	want := hourLetter(cycle)
	for i := range fs {
		if fieldType(fs[i].letter) == 'h' && fs[i].letter != 'a' {
			if twelveHour(fs[i].letter) != twelveHour(want) {
				return ""
			}
			fs[i].letter = want
		}
	}
	return writeDatePattern(fs)
}

// resolveFields sets the resolved components from the pattern, as V8
// reports them.
func resolveFields(r *dateResolved, p string, dayPeriodAsked bool) {
	if r.DateStyle != "" || r.TimeStyle != "" {
		return
	}
	text := func(n int) string {
		switch {
		case n == 4:
			return "long"
		case n == 5:
			return "narrow"
		}
		return "short"
	}
	num := func(n int) string {
		if n == 2 {
			return "2-digit"
		}
		return "numeric"
	}
	for _, f := range parseDatePattern(p) {
		switch fieldType(f.letter) {
		case 'G':
			r.Era = text(f.count)
		case 'y':
			r.Year = num(f.count)
		case 'M':
			if f.count >= 3 {
				r.Month = map[int]string{3: "short", 4: "long", 5: "narrow"}[f.count]
			} else {
				r.Month = num(f.count)
			}
		case 'd':
			r.Day = num(f.count)
		case 'E':
			r.Weekday = text(f.count)
		case 'h':
			r.Hour = num(f.count)
		case 'm':
			r.Minute = num(f.count)
		case 's':
			r.Second = num(f.count)
		case 'S':
			r.FractionalSecondDigits = f.count
		case 'a':
			if f.letter == 'B' && dayPeriodAsked {
				r.DayPeriod = text(f.count)
			}
		case 'z':
			r.TimeZoneName = map[string]string{"z": "short", "zzzz": "long", "O": "shortOffset", "OOOO": "longOffset",
				"v": "shortGeneric", "vvvv": "longGeneric"}[strings.Repeat(string(f.letter), f.count)]
		}
	}
}
