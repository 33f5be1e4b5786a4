package intl

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Time zones come from the tz database Go ships ($GOROOT's
// zoneinfo.zip, laid out by make intl-data), read from the binary: a
// child has no file system to load them from.
var (
	zonesMu   sync.Mutex
	locations = map[string]*time.Location{}
)

// tzdata (source.go) is the TZif data of every zone, one after another
// (data/tzdata.bin); the lookup table's zi lines say where each lies.

func location(name string) (*time.Location, error) {
	if name == "UTC" {
		return time.UTC, nil
	}
	zonesMu.Lock()
	defer zonesMu.Unlock()
	if l, ok := locations[name]; ok {
		return l, nil
	}
	where, ok := lookup("zi", name)
	var off, n int
	if _, err := fmt.Sscan(where, &off, &n); !ok || err != nil || off < 0 || n < 0 || off+n > len(tzdata) {
		return nil, rangeError("Invalid time zone specified: " + name)
	}
	l, err := time.LoadLocationFromTZData(name, []byte(tzdata[off:off+n]))
	if err != nil {
		return nil, rangeError("Invalid time zone specified: " + name)
	}
	locations[name] = l
	return l, nil
}

// dateFormatter formats with a resolved DateTimeFormat.
type dateFormatter struct {
	h      *dateHandle
	fields []patternField
	d      *datesData
	loc    *time.Location
	digits []rune
	zone   string
	// metazones are the zone's metazones over time (CLDR metaZones).
	metazones []struct {
		Uses struct {
			Zone string `json:"_mzone"`
			From string `json:"_from"`
			To   string `json:"_to"`
		} `json:"usesMetazone"`
	}
	zones func() (*metazoneNames, error)
	// dayPeriods are the language's flexible day periods, read when a
	// B field is first formatted.
	dayPeriods func() map[string]dayPeriodRule
	decimal    string
	lang       string
	cldr       string

	// plan is formatRange's, made on first use (intervals).
	planOnce sync.Once
	plan     *intervalPlan
}

func newDateFormatter(h *dateHandle) (*dateFormatter, error) {
	ld, err := dataFor(h.Resolved.Locale)
	if err != nil {
		return nil, err
	}
	l, err := location(h.Resolved.TimeZone)
	if err != nil {
		return nil, err
	}
	dd, err := ld.dates()
	if err != nil {
		return nil, err
	}
	f := &dateFormatter{h: h, fields: parseDatePattern(h.Pattern), d: dd, loc: l, zone: h.Resolved.TimeZone}
	// The zone's metazones, decoded once: every date formatted with a
	// zone name reads them.
	text, _ := lookup("mz", f.zone)
	json.Unmarshal([]byte(text), &f.metazones)
	f.lang, f.cldr, f.zones = ld.Lang, ld.CLDR, ld.zones
	f.dayPeriods = sync.OnceValue(func() map[string]dayPeriodRule {
		if rules := dayPeriodRulesOf(ld.CLDR); rules != nil {
			return rules
		}
		return dayPeriodRulesOf(ld.Lang)
	})
	f.decimal = "."
	if dec := ld.Decimals[h.Resolved.NumberingSystem]; dec != "" {
		f.decimal = dec
	}
	if h.Resolved.NumberingSystem != "latn" {
		if f.digits = []rune(digitsOf(h.Resolved.NumberingSystem)); len(f.digits) != 10 {
			return nil, typeError("intl: bad handle")
		}
	}
	return f, nil
}

// maxTime is ECMA-262's time value range (±8.64e15 ms).
const maxTime = 8.64e15

// formatParts formats the time value ms.
func (f *dateFormatter) formatParts(ms float64) ([]part, error) {
	if math.IsNaN(ms) || math.Abs(ms) > maxTime {
		return nil, rangeError("Invalid time value")
	}
	return f.patternParts(f.fields, time.UnixMilli(int64(ms)).In(f.loc)), nil
}

// patternParts formats t with fields.
func (f *dateFormatter) patternParts(fields []patternField, t time.Time) []part {
	var out []part
	for _, fl := range fields {
		if fl.letter == 0 {
			out = append(out, part{Type: "literal", Value: fl.literal})
			continue
		}
		typ, val := f.field(t, fl)
		out = append(out, part{Type: typ, Value: val})
	}
	// The separator before fractional seconds is the locale's decimal.
	for i := 1; i < len(out); i++ {
		if out[i].Type == "fractionalSecond" && out[i-1].Type == "literal" && out[i-1].Value == "." {
			out[i-1].Value = f.decimal
		}
	}
	return mergeLiterals(out)
}

func (f *dateFormatter) num(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	if f.digits == nil {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' {
			b.WriteRune(f.digits[c-'0'])
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func widthName(count int) string {
	switch {
	case count == 4:
		return "wide"
	case count >= 5:
		return "narrow"
	}
	return "abbreviated"
}

var dayKeys = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// field formats one pattern field of t.
func (f *dateFormatter) field(t time.Time, fl patternField) (string, string) {
	d := f.d
	switch fl.letter {
	case 'G':
		era := "1"
		if t.Year() <= 0 {
			era = "0"
		}
		key := map[int]string{4: "eraNames", 5: "eraNarrow"}[fl.count]
		if key == "" {
			key = "eraAbbr"
		}
		return "era", d.Eras[key][era]
	case 'y':
		y := t.Year()
		if y <= 0 {
			y = 1 - y
		}
		if fl.count == 2 {
			return "year", f.num(y%100, 2)
		}
		return "year", f.num(y, fl.count)
	case 'M', 'L':
		m := int(t.Month())
		if fl.count <= 2 {
			return "month", f.num(m, fl.count)
		}
		ctx := "format"
		if fl.letter == 'L' {
			ctx = "stand-alone"
		}
		return "month", d.Months[ctx][widthName(fl.count)][strconv.Itoa(m)]
	case 'd':
		return "day", f.num(t.Day(), fl.count)
	case 'E', 'c':
		ctx := "format"
		if fl.letter == 'c' {
			ctx = "stand-alone"
		}
		w := widthName(fl.count)
		if fl.count == 6 {
			w = "short"
		}
		return "weekday", d.Days[ctx][w][dayKeys[t.Weekday()]]
	case 'a', 'b':
		key := "am"
		if t.Hour() >= 12 {
			key = "pm"
		}
		return "dayPeriod", d.DayPeriods["format"][widthName(fl.count)][key]
	case 'h', 'K', 'H', 'k':
		return "hour", f.hour(t, fl)
	case 'm':
		return "minute", f.num(t.Minute(), fl.count)
	case 's':
		return "second", f.num(t.Second(), fl.count)
	case 'S':
		ms := t.Nanosecond() / 1e6
		s := fmt.Sprintf("%03d", ms)[:min(fl.count, 3)]
		return "fractionalSecond", f.num(atoi(s), len(s))
	case 'B':
		return "dayPeriod", f.flexibleDayPeriod(t, fl.count)
	case 'z', 'O', 'v', 'V':
		return "timeZoneName", f.zoneName(t, fl)
	}
	return "literal", strings.Repeat(string(fl.letter), fl.count)
}

// hour is the hour field in its cycle: h 1-12, K 0-11, H 0-23, k 1-24.
func (f *dateFormatter) hour(t time.Time, fl patternField) string {
	h := t.Hour()
	switch fl.letter {
	case 'h':
		if h = h % 12; h == 0 {
			h = 12
		}
	case 'K':
		h %= 12
	case 'k':
		if h == 0 {
			h = 24
		}
	}
	return f.num(h, fl.count)
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// metazoneNames are the locale's names of metazones (none if its data
// cannot be read: the GMT offset names the zone then).
func (f *dateFormatter) metazoneNames() metazoneNames {
	if names, err := f.zones(); err == nil {
		return *names
	}
	return nil
}

// zoneName is the zone's name for t: the metazone's specific (z) or
// generic (v) name where the locale has one, else the GMT offset (O).
func (f *dateFormatter) zoneName(t time.Time, fl patternField) string {
	long := fl.count >= 4
	names := f.d.TimeZoneNames
	if fl.letter == 'z' || fl.letter == 'v' {
		kind := "generic"
		if fl.letter == 'z' {
			kind = "standard"
			if t.IsDST() {
				kind = "daylight"
			}
		}
		if f.zone == "UTC" {
			m := names.UTC.Short
			if long {
				m = names.UTC.Long
			}
			if n := m["standard"]; n != "" {
				return n
			}
		}
		if mz := f.metazone(t); mz != "" {
			if m, ok := f.metazoneNames()[mz]; ok {
				src := m.Short
				if long {
					src = m.Long
				}
				if n := src[kind]; n != "" {
					return n
				}
			}
		}
	}
	return f.gmtOffset(t, long)
}

// metazone is the metazone the zone used at t (CLDR metaZones).
func (f *dateFormatter) metazone(t time.Time) string {
	at := t.UTC().Format("2006-01-02 15:04")
	for _, p := range f.metazones {
		u := p.Uses
		// ICU's metazone mappings begin in 1970 unless they say otherwise.
		from := u.From
		if from == "" {
			from = "1970-01-01 00:00"
		}
		if at >= from && (u.To == "" || at < u.To) {
			return u.Zone
		}
	}
	return ""
}

// gmtOffset is the localized GMT format: "GMT-8", "GMT+5:30" (short),
// "GMT-08:00" (long), "GMT" for zero.
func (f *dateFormatter) gmtOffset(t time.Time, long bool) string {
	names := f.d.TimeZoneNames
	_, off := t.Zone()
	if off == 0 && !long {
		return names.GMTZeroFormat
	}
	pos, neg, _ := strings.Cut(names.HourFormat, ";")
	pat := pos
	if off < 0 {
		pat, off = neg, -off
	}
	h, m, s := off/3600, off/60%60, off%60
	var text string
	if long {
		text = strings.NewReplacer("HH", f.num(h, 2), "mm", f.num(m, 2)).Replace(pat)
		if s != 0 {
			text += ":" + f.num(s, 2)
		}
	} else {
		// The short form: the hour unpadded, minutes only when not zero.
		sign := pat[:strings.IndexAny(pat, "H")]
		text = sign + f.num(h, 1)
		if m != 0 || s != 0 {
			text += ":" + f.num(m, 2)
		}
		if s != 0 {
			text += ":" + f.num(s, 2)
		}
	}
	return strings.Replace(names.GMTFormat, "{0}", text, 1)
}

// flexibleDayPeriod is the B field: the locale's day period (CLDR
// dayPeriodRuleSet) that holds t's time of day, "midnight" only at
// 00:00 exactly, falling back to am/pm.
func (f *dateFormatter) flexibleDayPeriod(t time.Time, count int) string {
	names := f.d.DayPeriods["format"][widthName(count)]
	hm := fmt.Sprintf("%02d:%02d", t.Hour(), t.Minute())
	rules := f.dayPeriods()
	// Noon at 12 o'clock sharp, as far as the pattern shows minutes and
	// seconds (ICU; its midnight is never used).
	if _, ok := rules["noon"]; ok && names["noon"] != "" && t.Hour() == 12 &&
		(t.Minute() == 0 || fieldOf(f.fields, 'm') == nil) && (t.Second() == 0 || fieldOf(f.fields, 's') == nil) {
		return names["noon"]
	}
	for name, r := range rules {
		if r.At != "" || names[name] == "" {
			continue
		}
		from, before := r.From, r.Before
		in := from <= before && hm >= from && hm < before || from > before && (hm >= from || hm < before)
		if in {
			return names[name]
		}
	}
	key := "am"
	if t.Hour() >= 12 {
		key = "pm"
	}
	return names[key]
}
