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
package intl

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// data is the generated CLDR subset: one file per CLDR locale and the
// supplemental data they share (build/intl).
//
//go:embed data/*.json data/zoneinfo.zip
var data embed.FS

// supplementalData is what every locale shares.
type supplementalData struct {
	CLDRVersion     string                       `json:"cldrVersion"`
	Locales         map[string]string            `json:"locales"` // supported tag -> CLDR locale file
	PluralsCardinal map[string]map[string]string `json:"pluralsCardinal"`
	PluralsOrdinal  map[string]map[string]string `json:"pluralsOrdinal"`
	CurrencyDigits  map[string]struct {
		Digits   string `json:"_digits"`
		Rounding string `json:"_rounding"`
	} `json:"currencyDigits"`
	NumberingDigits map[string]string `json:"numberingDigits"`
	// ZoneNames maps every IANA name, lower-cased, to the one Node
	// reports (ICU's canonical: "Asia/Kolkata" is "Asia/Calcutta").
	ZoneNames map[string]string `json:"zoneNames"`
	// MetaZones maps a zone to its metazones over time.
	MetaZones map[string][]struct {
		Uses struct {
			Zone string `json:"_mzone"`
			From string `json:"_from"`
			To   string `json:"_to"`
		} `json:"usesMetazone"`
	} `json:"metaZones"`
	// DayPeriodRules are each language's flexible day periods.
	DayPeriodRules map[string]map[string]struct {
		At     string `json:"_at"`
		From   string `json:"_from"`
		Before string `json:"_before"`
	} `json:"dayPeriodRules"`
	// TimeData gives a region's preferred and allowed hour cycles.
	TimeData map[string]struct {
		Allowed   string `json:"_allowed"`
		Preferred string `json:"_preferred"`
	} `json:"timeData"`
	LanguageAlias  map[string]string `json:"languageAlias"`
	TerritoryAlias map[string]string `json:"territoryAlias"`
	ScriptAlias    map[string]string `json:"scriptAlias"`
	VariantAlias   map[string]string `json:"variantAlias"`
}

// localeData is one CLDR locale's data.
type localeData struct {
	CLDR    string `json:"cldr"`
	Lang    string `json:"lang"`
	Numbers struct {
		DefaultNumberingSystem string                  `json:"defaultNumberingSystem"`
		OtherNumberingSystems  map[string]string       `json:"otherNumberingSystems"`
		MinimumGroupingDigits  string                  `json:"minimumGroupingDigits"`
		Systems                map[string]numberSystem `json:"systems"`
	} `json:"numbers"`
	Dates *datesData `json:"dates"`
	// Lists are the list patterns by type ("listPattern-type-or-short").
	Lists map[string]map[string]string `json:"lists"`
	// Relative are the relative-time fields by unit and width ("day-short").
	Relative map[string]relativeField `json:"relative"`
	// Currencies are decoded one at a time, when a format needs one.
	Currencies map[string]json.RawMessage `json:"currencies"`
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
	Raw    map[string]any    `json:"-"`
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
	loaded[cldr] = d
	return d, nil
}
