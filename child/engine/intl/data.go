// Package intl is the engine's ECMA-402 (Intl) formatting: the
// locale-dependent work behind the Intl global the prelude defines. The
// prelude reads and checks a constructor's options in the order the
// specification gives; this package resolves the locale, validates the
// values, and formats, from the Unicode CLDR data `make intl-data`
// generates into data/ (build/intl: the CLDR version Node 20's ICU
// ships, so that the output is Node's).
//
// Nothing here touches guest memory: the engine's host function passes
// strings in and out (Call).
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package intl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// supplementalData is what every locale shares.
type supplementalData struct {
	Locales      map[string]string // supported tag -> CLDR locale file
	VariantAlias map[string]string
}

// dayPeriodRulesOf are a language's flexible day periods (CLDR
// dayPeriodRuleSet, the lookup table's dp lines), nil if it has none.
func dayPeriodRulesOf(lang string) map[string]dayPeriodRule {
	var rules map[string]dayPeriodRule
	lookupJSON("dp", lang, &rules)
	return rules
}

type dayPeriodRule struct {
	At     string `json:"_at"`
	From   string `json:"_from"`
	Before string `json:"_before"`
}

// lookupText (source.go) is data/lookup.txt: "\n", then sorted lines "KIND:KEY\tVALUE",
// each ending in "\n", for the tables read one key at a time (la
// language, ta territory and sa script aliases; nu a numbering system's
// digits; zn a zone's name as Node reports it, by its lower-cased name;
// mz a zone's metazones, JSON; td a region's hour cycles, JSON; pc, po
// and pg a language's cardinal and ordinal plural rules and plural
// ranges, JSON; cd a currency's digits, JSON; cp, wk and rz a region's
// calendars, week and zones). It is searched where it lies (in the
// binary, or in the mapped pack): never copied, indexed or decoded whole, so a first lookup
// touches a few pages of it, not all.

// lookupLine finds the first line at or after prefix: its offset (the
// newline before it) or -1 when there is none. Lines are sorted, so
// "the line after the first newline at or after p" grows with p, and
// a binary search over byte offsets finds it.
func lookupLine(prefix string) int {
	text := lookupText
	last := len(text) - 1
	if last < 0 || text[last] != '\n' {
		return -1
	}
	nextNL := func(p int) int { return p + strings.IndexByte(text[p:], '\n') }
	n := nextNL(sort.Search(last+1, func(p int) bool {
		n := nextNL(p)
		return n == last || text[n+1:nextNL(n+1)] >= prefix
	}))
	if n == last {
		return -1
	}
	return n
}

// lookupAt is the line after the newline at n.
func lookupAt(n int) string {
	rest := lookupText[n+1:]
	return rest[:strings.IndexByte(rest, '\n')]
}

// lookupEntries calls each with every key of a kind and its value, in
// order.
func lookupEntries(kind string, each func(key, value string)) {
	prefix := kind + ":"
	for n := lookupLine(prefix); n >= 0 && n < len(lookupText)-1; n += len(lookupAt(n)) + 1 {
		l := lookupAt(n)
		if !strings.HasPrefix(l, prefix) {
			break
		}
		k, v, _ := strings.Cut(l[len(prefix):], "\t")
		each(k, v)
	}
}

// lookupKeys are every key of a kind, in order.
func lookupKeys(kind string) []string {
	var out []string
	lookupEntries(kind, func(k, _ string) { out = append(out, k) })
	return out
}

// lookup finds KIND:KEY's value by binary search.
func lookup(kind, key string) (string, bool) {
	prefix := kind + ":" + key + "\t"
	if n := lookupLine(prefix); n >= 0 {
		if l := lookupAt(n); strings.HasPrefix(l, prefix) {
			return l[len(prefix):], true
		}
	}
	return "", false
}

// lookupRegion is KIND:REGION's value or, when the table has none for
// the region, the world's (001): the region tables' rule.
func lookupRegion(kind, region string) (string, bool) {
	if v, ok := lookup(kind, region); ok {
		return v, true
	}
	return lookup(kind, "001")
}

// lookupJSON decodes KIND:KEY's value into v; false when there is none.
func lookupJSON(kind, key string, v any) bool {
	text, ok := lookup(kind, key)
	return ok && json.Unmarshal([]byte(text), v) == nil
}

// numbersData is a locale's numbers (LOCALE.numbers.json), decoded by
// its first NumberFormat.
type numbersData struct {
	DefaultNumberingSystem string                  `json:"defaultNumberingSystem"`
	OtherNumberingSystems  map[string]string       `json:"otherNumberingSystems"`
	MinimumGroupingDigits  string                  `json:"minimumGroupingDigits"`
	Systems                map[string]numberSystem `json:"systems"`
}

// localeData is one CLDR locale's data: its numbers, decoded with it,
// and the rest, each decoded when first needed.
type localeData struct {
	CLDR string `json:"cldr"`
	Lang string `json:"lang"`
	// DefaultNumberingSystem and Decimals (each system's decimal sign)
	// are what DateTimeFormat needs of the numbers.
	DefaultNumberingSystem string            `json:"defaultNumberingSystem"`
	Decimals               map[string]string `json:"decimals"`

	numbers func() (*numbersData, error)

	dates    func() (*datesData, error)
	zones    func() (*metazoneNames, error)
	words    func() (*wordsData, error)
	names    func() (*namesData, error)
	codes    func() []string
	currency func(code string) map[string]string
}

// wordsData is a locale's list patterns and relative-time fields.
type wordsData struct {
	// Lists are the list patterns by type ("listPattern-type-or-short").
	Lists map[string]map[string]string `json:"lists"`
	// Relative are the relative-time fields by unit and width ("day-short").
	Relative map[string]relativeField `json:"relative"`
}

// datesData is a locale's Gregorian calendar and zone names.
type datesData struct {
	Months          map[string]map[string]map[string]string `json:"months"` // format|stand-alone -> width -> "1".."12"
	Days            map[string]map[string]map[string]string `json:"days"`   // -> width -> "sun".."sat"
	DayPeriods      map[string]map[string]map[string]string `json:"dayPeriods"`
	Eras            map[string]map[string]string            `json:"eras"` // eraNames|eraAbbr|eraNarrow -> "0"|"1"
	DateFormats     map[string]string                       `json:"dateFormats"`
	TimeFormats     map[string]string                       `json:"timeFormats"`
	DateTimeFormats struct {
		Full             any               `json:"full"`
		Long             any               `json:"long"`
		Medium           any               `json:"medium"`
		Short            any               `json:"short"`
		AvailableFormats map[string]string `json:"availableFormats"`
		AtTime           map[string]any    `json:"atTime"`
		// IntervalFormats are formatRange's patterns: by skeleton, by
		// the letter of the largest field that differs; and
		// "intervalFormatFallback", "{0} – {1}".
		IntervalFormats map[string]json.RawMessage `json:"intervalFormats"`
	} `json:"dateTimeFormats"`
	TimeZoneNames struct {
		HourFormat    string `json:"hourFormat"`
		GMTFormat     string `json:"gmtFormat"`
		GMTZeroFormat string `json:"gmtZeroFormat"`
		UTC           struct {
			Long  map[string]string `json:"long"`
			Short map[string]string `json:"short"`
		} `json:"utc"`
	} `json:"timeZoneNames"`

	skeletonsOnce sync.Once
	parsed        []availableSkeleton
}

// metazoneNames are a locale's names of the metazones
// (LOCALE.zones.json), decoded when a zone is first named.
type metazoneNames map[string]struct {
	Long  map[string]string `json:"long"`
	Short map[string]string `json:"short"`
}

// relativeField is one unit's relative-time names and patterns.
type relativeField struct {
	Named  map[string]string `json:"-"` // "-1", "0", "1"... from relative-type-N
	Future map[string]string `json:"relativeTime-type-future"`
	Past   map[string]string `json:"relativeTime-type-past"`
}

// UnmarshalJSON keeps relative-type-N entries.
func (f *relativeField) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	f.Named = map[string]string{}
	for k, v := range m {
		switch {
		case strings.HasPrefix(k, "relative-type-"):
			var s string
			json.Unmarshal(v, &s)
			f.Named[strings.TrimPrefix(k, "relative-type-")] = s
		case k == "relativeTime-type-future":
			json.Unmarshal(v, &f.Future)
		case k == "relativeTime-type-past":
			json.Unmarshal(v, &f.Past)
		}
	}
	return nil
}

// numberSystem is a locale's symbols and patterns in one numbering
// system.
type numberSystem struct {
	Symbols         map[string]string `json:"symbols"`
	DecimalFormats  json.RawMessage   `json:"decimalFormats"`
	PercentFormats  map[string]any    `json:"percentFormats"`
	CurrencyFormats json.RawMessage   `json:"currencyFormats"`
	Scientific      map[string]any    `json:"scientificFormats"`
	MiscPatterns    map[string]string `json:"miscPatterns"`
}

// supplemental is the supported locales and the variant aliases, read
// from the lookup table's lc and va lines (no JSON to decode: a first
// Intl call pays for what it reads).
var supplemental = sync.OnceValues(func() (*supplementalData, error) {
	s := &supplementalData{Locales: map[string]string{}, VariantAlias: map[string]string{}}
	for kind, m := range map[string]map[string]string{"lc": s.Locales, "va": s.VariantAlias} {
		lookupEntries(kind, func(k, v string) { m[k] = v })
	}
	if len(s.Locales) == 0 {
		return nil, errors.New("intl: the CLDR data is missing (make intl-data)")
	}
	return s, nil
})

var (
	localesMu sync.Mutex
	loaded    = map[string]*localeData{}
)

// dataFor is the data of a resolved locale (a supported tag, its -u-
// extension apart).
func dataFor(locale string) (*localeData, error) {
	sup, err := supplemental()
	if err != nil {
		return nil, err
	}
	return loadLocale(sup.Locales[baseOf(locale)])
}

// loadLocale reads one CLDR locale's file, once.
func loadLocale(cldr string) (*localeData, error) {
	localesMu.Lock()
	defer localesMu.Unlock()
	if d, ok := loaded[cldr]; ok {
		return d, nil
	}
	b, err := readData(cldr + ".json")
	if err != nil {
		return nil, fmt.Errorf("intl: no data for %s: %w", cldr, err)
	}
	d := &localeData{}
	if err := json.Unmarshal(b, d); err != nil {
		return nil, fmt.Errorf("intl: data for %s: %w", cldr, err)
	}
	d.numbers = sync.OnceValues(func() (*numbersData, error) { return decodeFile[numbersData](cldr + ".numbers.json") })
	d.dates = sync.OnceValues(func() (*datesData, error) { return decodeFile[datesData](cldr + ".dates.json") })
	d.zones = sync.OnceValues(func() (*metazoneNames, error) { return decodeFile[metazoneNames](cldr + ".zones.json") })
	d.words = sync.OnceValues(func() (*wordsData, error) { return decodeFile[wordsData](cldr + ".words.json") })
	d.names = sync.OnceValues(func() (*namesData, error) { return decodeFile[namesData](cldr + ".names.json") })
	currencies, _ := readData(cldr + ".currencies")
	d.codes = func() []string {
		var out []string
		for _, line := range bytes.Split(currencies, []byte("\n")) {
			if code, _, ok := bytes.Cut(line, []byte("\t")); ok {
				out = append(out, string(code))
			}
		}
		return out
	}
	d.currency = func(code string) map[string]string { return findCurrency(currencies, code) }
	loaded[cldr] = d
	return d, nil
}

func decodeFile[T any](name string) (*T, error) {
	b, err := readData(name)
	if err != nil {
		return nil, fmt.Errorf("intl: no data %s: %w", name, err)
	}
	v := new(T)
	if err := json.Unmarshal(b, v); err != nil {
		return nil, fmt.Errorf("intl: data %s: %w", name, err)
	}
	return v, nil
}

// findCurrency decodes one line ("CODE\tJSON") of a locale's currencies.
func findCurrency(lines []byte, code string) map[string]string {
	key := []byte(code + "\t")
	for len(lines) > 0 {
		line, rest, _ := bytes.Cut(lines, []byte("\n"))
		if bytes.HasPrefix(line, key) {
			var m map[string]string
			json.Unmarshal(line[len(key):], &m)
			return m
		}
		lines = rest
	}
	return nil
}
