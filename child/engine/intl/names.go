package intl

import (
	"encoding/json"
	"sort"
	"strings"
)

// DisplayNames and supportedValuesOf.

type namesData struct {
	Languages   map[string]string `json:"languages"`
	Territories map[string]string `json:"territories"`
	Scripts     map[string]string `json:"scripts"`
	Pattern     map[string]string `json:"pattern"`
	Calendars   map[string]string `json:"calendars"`
	DateFields  map[string]string `json:"dateFields"`
}

type displayOptions struct {
	LocaleMatcher   *string `json:"localeMatcher"`
	Style           *string `json:"style"`
	Type            *string `json:"type"`
	Fallback        *string `json:"fallback"`
	LanguageDisplay *string `json:"languageDisplay"`
}

type displayResolved struct {
	Locale          string `json:"locale"`
	Style           string `json:"style"`
	Type            string `json:"type"`
	Fallback        string `json:"fallback"`
	LanguageDisplay string `json:"languageDisplay,omitempty"`
}

func resolveDisplayNames(locales []string, o *displayOptions) (*displayResolved, error) {
	const ctor = "DisplayNames"
	if _, err := oneOf(ctor, "localeMatcher", o.LocaleMatcher, "best fit", "lookup", "best fit"); err != nil {
		return nil, err
	}
	loc, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	style, err := oneOf(ctor, "style", o.Style, "long", "narrow", "short", "long")
	if err != nil {
		return nil, err
	}
	kind, err := oneOf(ctor, "type", o.Type, "", "language", "region", "script", "currency", "calendar", "dateTimeField")
	if err != nil {
		return nil, err
	}
	if kind == "" {
		return nil, typeError("invalid_argument")
	}
	fallback, err := oneOf(ctor, "fallback", o.Fallback, "code", "code", "none")
	if err != nil {
		return nil, err
	}
	r := &displayResolved{Locale: loc.locale, Style: style, Type: kind, Fallback: fallback}
	ld, err := oneOf(ctor, "languageDisplay", o.LanguageDisplay, "dialect", "dialect", "standard")
	if err != nil {
		return nil, err
	}
	if kind == "language" {
		r.LanguageDisplay = ld
	}
	return r, nil
}

var dateTimeFields = map[string]string{"era": "era", "year": "year", "quarter": "quarter", "month": "month",
	"weekOfYear": "week", "weekday": "weekday", "day": "day", "dayPeriod": "dayperiod", "hour": "hour",
	"minute": "minute", "second": "second", "timeZoneName": "zone"}

// displayName is DisplayNames.prototype.of: the name, or the code (or
// "\x01" for undefined) when the locale has none.
func displayName(handle, code string) (string, error) {
	var r displayResolved
	if json.Unmarshal([]byte(handle), &r) != nil {
		return "", typeError("intl: bad handle")
	}
	d, err := dataFor(r.Locale)
	if err != nil {
		return "", err
	}
	n, err := d.names()
	if err != nil {
		return "", err
	}
	name, canonical, err := nameOf(&r, d, n, code)
	if err != nil {
		return "", err
	}
	if name != "" {
		return name, nil
	}
	if r.Fallback == "none" {
		return "\x01", nil
	}
	return canonical, nil
}

// nameOf is a code's name in the locale (or "") and its canonical form.
func nameOf(r *displayResolved, d *localeData, n *namesData, code string) (name, canonical string, err error) {
	sup, err := supplemental()
	if err != nil {
		return "", "", err
	}
	alt := func(m map[string]string, key string) string {
		if r.Style != "long" {
			if v, ok := m[key+"-alt-short"]; ok {
				return v
			}
		}
		return m[key]
	}
	switch r.Type {
	case "language":
		t, ok := parseTag(code)
		if !ok {
			return "", "", rangeError("invalid_argument")
		}
		// Extensions are not named (V8 names "en-u-ca-japanese" "English").
		t.uOrder, t.uAttrs, t.other = nil, nil, nil
		t.canonicalize(sup)
		canonical = t.String()
		name = languageName(n, t, r.LanguageDisplay == "dialect", alt)
	case "region":
		if !(len(code) == 2 && isAlpha(code) || len(code) == 3 && isDigit(code)) {
			return "", "", rangeError("invalid_argument")
		}
		canonical = strings.ToUpper(code)
		name = alt(n.Territories, canonical)
	case "script":
		if len(code) != 4 || !isAlpha(code) {
			return "", "", rangeError("invalid_argument")
		}
		canonical = strings.ToUpper(code[:1]) + strings.ToLower(code[1:])
		name = n.Scripts[canonical]
	case "currency":
		if !isWellFormedCurrency(code) {
			return "", "", rangeError("invalid_argument")
		}
		canonical = strings.ToUpper(code)
		// Every style names the currency, as V8's does.
		name = d.currency(canonical)["displayName"]
	case "calendar":
		if !isNumberingSystemType(code) {
			return "", "", rangeError("invalid_argument")
		}
		canonical = strings.ToLower(code)
		key := map[string]string{"gregory": "gregorian", "ethioaa": "ethiopic-amete-alem", "islamicc": "islamic-civil"}[canonical]
		if key == "" {
			key = canonical
		}
		name = n.Calendars[key]
	case "dateTimeField":
		f, ok := dateTimeFields[code]
		if !ok {
			return "", "", rangeError("invalid_argument")
		}
		canonical = code
		if r.Style != "long" {
			name = n.DateFields[f+"-"+r.Style]
		}
		if name == "" {
			name = n.DateFields[f]
		}
	}
	return name, canonical, nil
}

// languageName is a language tag's name: the whole tag's where the locale
// names it (a dialect name, "American English", when asked for), else the
// language's with its script, region and variants in the locale pattern.
func languageName(n *namesData, t *tag, dialect bool, alt func(map[string]string, string) string) string {
	if dialect {
		for _, k := range []string{t.base(), t.lang + "-" + t.script + "-" + t.region, t.lang + "-" + t.region, t.lang + "-" + t.script} {
			if strings.Count(k, "-") > strings.Count(t.base(), "-") || strings.Contains(k, "--") || strings.HasSuffix(k, "-") {
				continue
			}
			if v := alt(n.Languages, k); v != "" {
				rest := strings.TrimPrefix(t.base(), k)
				if rest == "" {
					return v
				}
			}
		}
	}
	base := alt(n.Languages, t.lang)
	if base == "" {
		return ""
	}
	var extra []string
	if t.script != "" {
		if s := n.Scripts[t.script]; s != "" {
			extra = append(extra, s)
		} else {
			extra = append(extra, t.script)
		}
	}
	if t.region != "" {
		if s := alt(n.Territories, t.region); s != "" {
			extra = append(extra, s)
		} else {
			extra = append(extra, t.region)
		}
	}
	for _, v := range t.variants {
		extra = append(extra, strings.ToUpper(v))
	}
	if len(extra) == 0 {
		return base
	}
	joined := extra[0]
	for _, e := range extra[1:] {
		joined = strings.NewReplacer("{0}", joined, "{1}", e).Replace(n.Pattern["localeSeparator"])
	}
	return strings.NewReplacer("{0}", base, "{1}", joined).Replace(n.Pattern["localePattern"])
}

// supportedValues is Intl.supportedValuesOf: what this build supports.
func supportedValues(key string) ([]string, error) {
	var out []string
	switch key {
	case "calendar":
		out = []string{"gregory"}
	case "collation":
		out = []string{"default"}
	case "currency":
		d, err := loadLocale("en")
		if err != nil {
			return nil, err
		}
		out = d.codes()
	case "numberingSystem":
		out = lookupKeys("nu")
	case "timeZone":
		seen := map[string]bool{}
		for _, k := range lookupKeys("zn") {
			v, _ := lookup("zn", k)
			if !seen[v] && strings.Contains(v, "/") && !strings.HasPrefix(v, "Etc/") || v == "UTC" && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	case "unit":
		for u := range sanctionedUnits {
			out = append(out, u)
		}
	default:
		return nil, rangeError("Invalid key : " + key)
	}
	sort.Strings(out)
	return out, nil
}
