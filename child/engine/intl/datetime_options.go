package intl

import (
	"strings"
)

// dateOptions is what the prelude read from a DateTimeFormat's options,
// in ECMA-402's order; Required and Defaults are ToDateTimeOptions'
// ("any"/"date"/"time", "date"/"time"/"all").
type dateOptions struct {
	LocaleMatcher          *string `json:"localeMatcher"`
	Calendar               *string `json:"calendar"`
	NumberingSystem        *string `json:"numberingSystem"`
	Hour12                 *bool   `json:"hour12"`
	HourCycle              *string `json:"hourCycle"`
	TimeZone               *string `json:"timeZone"`
	Weekday                *string `json:"weekday"`
	Era                    *string `json:"era"`
	Year                   *string `json:"year"`
	Month                  *string `json:"month"`
	Day                    *string `json:"day"`
	DayPeriod              *string `json:"dayPeriod"`
	Hour                   *string `json:"hour"`
	Minute                 *string `json:"minute"`
	Second                 *string `json:"second"`
	FractionalSecondDigits *string `json:"fractionalSecondDigits"`
	TimeZoneName           *string `json:"timeZoneName"`
	FormatMatcher          *string `json:"formatMatcher"`
	DateStyle              *string `json:"dateStyle"`
	TimeStyle              *string `json:"timeStyle"`
	Required               string  `json:"required"`
	Defaults               string  `json:"defaults"`
}

// dateResolved is a DateTimeFormat's resolved options in Node's order,
// and the pattern it formats with (the handle the prelude keeps).
type dateResolved struct {
	Locale                 string `json:"locale"`
	Calendar               string `json:"calendar"`
	NumberingSystem        string `json:"numberingSystem"`
	TimeZone               string `json:"timeZone"`
	HourCycle              string `json:"hourCycle,omitempty"`
	Hour12                 *bool  `json:"hour12,omitempty"`
	Weekday                string `json:"weekday,omitempty"`
	Era                    string `json:"era,omitempty"`
	Year                   string `json:"year,omitempty"`
	Month                  string `json:"month,omitempty"`
	Day                    string `json:"day,omitempty"`
	DayPeriod              string `json:"dayPeriod,omitempty"`
	Hour                   string `json:"hour,omitempty"`
	Minute                 string `json:"minute,omitempty"`
	Second                 string `json:"second,omitempty"`
	FractionalSecondDigits int    `json:"fractionalSecondDigits,omitempty"`
	TimeZoneName           string `json:"timeZoneName,omitempty"`
	DateStyle              string `json:"dateStyle,omitempty"`
	TimeStyle              string `json:"timeStyle,omitempty"`
	Pattern                string `json:"-"`
}

// dateHandle is what the prelude keeps: the resolved options and the
// pattern.
type dateHandle struct {
	Resolved *dateResolved `json:"r"`
	Pattern  string        `json:"p"`
}

// canonicalZone is the time zone as Node reports it, or "" when it is
// no IANA zone.
func canonicalZone(tz string) string {
	name, _ := lookup("zn", strings.ToLower(tz))
	return name
}

// resolveDateTimeFormat is CreateDateTimeFormat after the options were
// read.
func resolveDateTimeFormat(locales []string, o *dateOptions) (*dateHandle, error) {
	const ctor = "DateTimeFormat"
	if _, err := oneOf(ctor, "localeMatcher", o.LocaleMatcher, "best fit", "lookup", "best fit"); err != nil {
		return nil, err
	}
	if err := checkTypes(o); err != nil {
		return nil, err
	}
	hc, err := oneOf(ctor, "hourCycle", o.HourCycle, "", "h11", "h12", "h23", "h24")
	if err != nil {
		return nil, err
	}
	if o.Hour12 != nil {
		hc = ""
	}
	loc, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	r := &dateResolved{Locale: loc.locale, Calendar: "gregory", TimeZone: "UTC"}
	r.NumberingSystem, r.Locale = numberingSystemFor(loc, o.NumberingSystem)
	if hcKey, ok := loc.keys["hc"]; ok && hc == "" && o.Hour12 == nil {
		switch hcKey {
		case "h11", "h12", "h23", "h24":
			hc = hcKey
			r.Locale += "-u-hc-" + hcKey
		}
	}
	if o.TimeZone != nil {
		if r.TimeZone = canonicalZone(*o.TimeZone); r.TimeZone == "" {
			return nil, rangeError("Invalid time zone specified: " + *o.TimeZone)
		}
	}
	c, fsd, tzn, err := readComponents(o)
	if err != nil {
		return nil, err
	}
	if _, err := oneOf(ctor, "formatMatcher", o.FormatMatcher, "best fit", "basic", "best fit"); err != nil {
		return nil, err
	}
	ds, err := oneOf(ctor, "dateStyle", o.DateStyle, "", "full", "long", "medium", "short")
	if err != nil {
		return nil, err
	}
	ts, err := oneOf(ctor, "timeStyle", o.TimeStyle, "", "full", "long", "medium", "short")
	if err != nil {
		return nil, err
	}
	d, err := loc.data.dates()
	if err != nil {
		return nil, err
	}
	region := regionOf(loc.locale)
	h := &dateHandle{Resolved: r}
	if ds != "" || ts != "" {
		if err := checkStyles(o, c, fsd, tzn, ds, ts); err != nil {
			return nil, err
		}
		r.DateStyle, r.TimeStyle = ds, ts
		h.Pattern = styleHourCycle(d, ds, ts, hourCycleFor(region, hc, o.Hour12))
	} else {
		h.Pattern = bestPattern(d, skeletonOf(withDefaults(o, c, fsd), fsd, tzn), hourCycleFor(region, hc, o.Hour12))
	}
	resolveFields(r, h.Pattern, c["dayPeriod"] != "")
	if r.Hour != "" || r.TimeStyle != "" {
		r.HourCycle = patternHourCycle(h.Pattern)
		b := r.HourCycle == "h11" || r.HourCycle == "h12"
		r.Hour12 = &b
	}
	return h, nil
}

// checkTypes refuses a calendar or numbering system that is no
// Unicode extension type.
func checkTypes(o *dateOptions) error {
	if o.Calendar != nil && !isNumberingSystemType(*o.Calendar) {
		return rangeError("Invalid calendar : " + *o.Calendar)
	}
	if o.NumberingSystem != nil && !isNumberingSystemType(*o.NumberingSystem) {
		return rangeError("Invalid numberingSystem : " + *o.NumberingSystem)
	}
	return nil
}

// readComponents validates the component options: their values, the
// fractional second digits and the time zone name.
func readComponents(o *dateOptions) (map[string]string, int, string, error) {
	const ctor = "DateTimeFormat"
	c := map[string]string{}
	for _, f := range []struct {
		name    string
		v       *string
		allowed []string
	}{
		{"weekday", o.Weekday, []string{"narrow", "short", "long"}},
		{"era", o.Era, []string{"narrow", "short", "long"}},
		{"year", o.Year, []string{"2-digit", "numeric"}},
		{"month", o.Month, []string{"2-digit", "numeric", "narrow", "short", "long"}},
		{"day", o.Day, []string{"2-digit", "numeric"}},
		{"dayPeriod", o.DayPeriod, []string{"narrow", "short", "long"}},
		{"hour", o.Hour, []string{"2-digit", "numeric"}},
		{"minute", o.Minute, []string{"2-digit", "numeric"}},
		{"second", o.Second, []string{"2-digit", "numeric"}},
	} {
		v, err := oneOf(ctor, f.name, f.v, "", f.allowed...)
		if err != nil {
			return nil, 0, "", err
		}
		if v != "" {
			c[f.name] = v
		}
	}
	fsd, err := numberOption("fractionalSecondDigits", o.FractionalSecondDigits, 1, 3, 0)
	if err != nil {
		return nil, 0, "", err
	}
	tzn, err := oneOf(ctor, "timeZoneName", o.TimeZoneName, "", "short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric")
	if err != nil {
		return nil, 0, "", err
	}
	return c, fsd, tzn, nil
}

// checkStyles refuses components beside dateStyle or timeStyle, and a
// style the method does not take.
func checkStyles(o *dateOptions, c map[string]string, fsd int, tzn, ds, ts string) error {
	for _, name := range []string{"weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second"} {
		if _, ok := c[name]; ok {
			return typeError("Can't set option " + name + " when " + styleName(ds) + " is used")
		}
	}
	if fsd != 0 {
		return typeError("Can't set option fractionalSecondDigits when " + styleName(ds) + " is used")
	}
	if tzn != "" {
		return typeError("Can't set option timeZoneName when " + styleName(ds) + " is used")
	}
	if o.Required == "date" && ts != "" && ds == "" {
		return typeError("Invalid option : timeStyle")
	}
	if o.Required == "time" && ds != "" && ts == "" {
		return typeError("Invalid option : dateStyle")
	}
	return nil
}

// styleHourCycle is the styles' pattern in the hour cycle asked for: the
// same class of cycle swaps the letter; the other class regenerates the
// time from its fields, as ICU does.
func styleHourCycle(d *datesData, ds, ts, cycle string) string {
	p := stylePattern(d, ds, ts)
	if ts == "" {
		return p
	}
	if q := applyHourCycle(p, cycle); q != "" {
		return q
	}
	skel := map[string]string{"short": "jmm", "medium": "jmmss", "long": "jmmssz", "full": "jmmsszzzz"}[ts]
	timeP := bestPattern(d, skel, cycle)
	if ds != "" {
		return glue(d, ds, d.DateFormats[ds], timeP)
	}
	return timeP
}

// withDefaults is ToDateTimeOptions: the default components when none
// of those the method requires were asked for.
func withDefaults(o *dateOptions, c map[string]string, fsd int) map[string]string {
	needDefaults := true
	if o.Required == "date" || o.Required == "any" {
		for _, n := range []string{"weekday", "year", "month", "day"} {
			if c[n] != "" {
				needDefaults = false
			}
		}
	}
	if o.Required == "time" || o.Required == "any" {
		for _, n := range []string{"dayPeriod", "hour", "minute", "second"} {
			if c[n] != "" {
				needDefaults = false
			}
		}
		if fsd != 0 {
			needDefaults = false
		}
	}
	if needDefaults && (o.Defaults == "date" || o.Defaults == "all") {
		c["year"], c["month"], c["day"] = "numeric", "numeric", "numeric"
	}
	if needDefaults && (o.Defaults == "time" || o.Defaults == "all") {
		c["hour"], c["minute"], c["second"] = "numeric", "numeric", "numeric"
	}
	return c
}

func styleName(ds string) string {
	if ds != "" {
		return "dateStyle"
	}
	return "timeStyle"
}

// regionOf is a resolved locale's region, from its tag or its language's
// usual one.
func regionOf(locale string) string {
	t, ok := parseTag(baseOf(locale))
	if ok && t.region != "" {
		return t.region
	}
	lang := locale
	if ok {
		lang = t.lang
	}
	return map[string]string{"en": "US", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "pt": "BR", "nl": "NL",
		"sv": "SE", "pl": "PL", "ru": "RU", "tr": "TR", "ar": "EG", "hi": "IN", "ja": "JP", "zh": "CN", "ko": "KR"}[lang]
}
