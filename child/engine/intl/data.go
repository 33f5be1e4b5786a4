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
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// data is the generated CLDR subset: one file per CLDR locale and the
// supplemental data they share (build/intl).
//
//go:embed data/*.json data/*.currencies data/lookup.txt data/zoneinfo.zip
var data embed.FS

// supplementalData is what every locale shares.
type supplementalData struct {
	CLDRVersion     string                       `json:"cldrVersion"`
	Locales         map[string]string            `json:"locales"` // supported tag -> CLDR locale file
	PluralsCardinal map[string]map[string]string `json:"pluralsCardinal"`
	PluralsOrdinal  map[string]map[string]string `json:"pluralsOrdinal"`
	// PluralRanges is each language's plural of a range, keyed
	// "START+END" by the ends' categories.
	PluralRanges   map[string]map[string]string `json:"pluralRanges"`
	CurrencyDigits map[string]struct {
		Digits   string `json:"_digits"`
		Rounding string `json:"_rounding"`
	} `json:"currencyDigits"`

	LanguageAlias  map[string]string `json:"languageAlias"`
	TerritoryAlias map[string]string `json:"territoryAlias"`
	ScriptAlias    map[string]string `json:"scriptAlias"`
	VariantAlias   map[string]string `json:"variantAlias"`
}

// dayPeriodRules are each language's flexible day periods, which only
// DateTimeFormat reads (data/dayperiods.json).
var dayPeriodRules = sync.OnceValues(func() (map[string]map[string]dayPeriodRule, error) {
	v, err := decodeFile[map[string]map[string]dayPeriodRule]("dayperiods.json")
	if err != nil {
		return nil, err
	}
	return *v, nil
})

type dayPeriodRule struct {
	At     string `json:"_at"`
	From   string `json:"_from"`
	Before string `json:"_before"`
}

// lookupTable is data/lookup.txt: sorted lines "KIND:KEY\tVALUE" for the
// tables read one key at a time (la language, ta territory and sa
// script aliases; nu a numbering system's digits; zn a zone's name as
// Node reports it, by its lower-cased name; mz a zone's metazones, JSON;
// td a region's hour cycles, JSON). It is searched, never decoded
// whole.
var lookupTable = sync.OnceValue(func() *sortedLines {
	b, _ := data.ReadFile("data/lookup.txt")
	t := &sortedLines{text: b}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			t.starts = append(t.starts, int32(i+1))
		}
	}
	return t
})

// sortedLines is a text of sorted lines and where each begins.
type sortedLines struct {
	text   []byte
	starts []int32
}

func (t *sortedLines) line(i int) []byte {
	s := t.text[t.starts[i]:]
	if j := bytes.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return s
}

// lookupKeys are every key of a kind, in order.
func lookupKeys(kind string) []string {
	t := lookupTable()
	prefix := []byte(kind + ":")
	var out []string
	i := sort.Search(len(t.starts), func(i int) bool { return bytes.Compare(t.line(i), prefix) >= 0 })
	for ; i < len(t.starts); i++ {
		l := t.line(i)
		if !bytes.HasPrefix(l, prefix) {
			break
		}
		k, _, _ := bytes.Cut(l[len(prefix):], []byte("\t"))
		out = append(out, string(k))
	}
	return out
}

// lookup finds KIND:KEY's value by binary search.
func lookup(kind, key string) (string, bool) {
	t := lookupTable()
	prefix := []byte(kind + ":" + key + "\t")
	i := sort.Search(len(t.starts), func(i int) bool { return bytes.Compare(t.line(i), prefix) >= 0 })
	if i < len(t.starts) {
		if l := t.line(i); bytes.HasPrefix(l, prefix) {
			return string(l[len(prefix):]), true
		}
	}
	return "", false
}

// localeData is one CLDR locale's data: its numbers, decoded with it,
// and the rest, each decoded when first needed.
type localeData struct {
	CLDR    string `json:"cldr"`
	Lang    string `json:"lang"`
	Numbers struct {
		DefaultNumberingSystem string                  `json:"defaultNumberingSystem"`
		OtherNumberingSystems  map[string]string       `json:"otherNumberingSystems"`
		MinimumGroupingDigits  string                  `json:"minimumGroupingDigits"`
		Systems                map[string]numberSystem `json:"systems"`
	} `json:"numbers"`

	dates    func() (*datesData, error)
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
		Metazone map[string]struct {
			Long  map[string]string `json:"long"`
			Short map[string]string `json:"short"`
		} `json:"metazone"`
	} `json:"timeZoneNames"`
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

var supplemental = sync.OnceValues(func() (*supplementalData, error) {
	b, err := data.ReadFile("data/supplemental.json")
	if err != nil {
		return nil, fmt.Errorf("intl: the CLDR data is missing (make intl-data): %w", err)
	}
	s := &supplementalData{}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("intl: supplemental data: %w", err)
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
	b, err := data.ReadFile("data/" + cldr + ".json")
	if err != nil {
		return nil, fmt.Errorf("intl: no data for %s: %w", cldr, err)
	}
	d := &localeData{}
	if err := json.Unmarshal(b, d); err != nil {
		return nil, fmt.Errorf("intl: data for %s: %w", cldr, err)
	}
	d.dates = sync.OnceValues(func() (*datesData, error) { return decodeFile[datesData](cldr + ".dates.json") })
	d.words = sync.OnceValues(func() (*wordsData, error) { return decodeFile[wordsData](cldr + ".words.json") })
	d.names = sync.OnceValues(func() (*namesData, error) { return decodeFile[namesData](cldr + ".names.json") })
	currencies, _ := data.ReadFile("data/" + cldr + ".currencies")
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
	b, err := data.ReadFile("data/" + name)
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
