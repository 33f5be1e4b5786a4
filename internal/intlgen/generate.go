// Package intlgen reduces the Unicode CLDR's JSON packages to the data
// the engine's Intl needs, for the locales Warden supports, and packs it
// for a binary that does not embed it. Two callers: `make intl-data`
// (build/intl) writes the data into the engine's git-ignored data
// directory (child/engine/intl/data), which `make build` embeds, and
// `warden setup` (supervisor.Setup) writes it, as one pack, into the
// compilation cache directory of a binary built without make. Both fetch
// the packages packages.sha256 pins with the ordinary npm client (Fetch)
// and check every tarball's SHA-256; nothing fetched is kept.
//
// Each supported locale is written flattened (the CLDR JSON "full"
// packages are already resolved through inheritance) and trimmed to the
// fields the formatters read; the supplemental data every locale shares
// goes to supplemental.json.
package intlgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// locales maps each supported BCP 47 tag to the CLDR locale whose data
// it uses: the tag itself where CLDR has it, its default-content parent
// otherwise (CLDR keeps de-DE's data as de, zh-TW's as zh-Hant).
var locales = map[string]string{
	"en-US": "en", "en-GB": "en-GB", "en-IN": "en-IN",
	"de-DE": "de", "fr-FR": "fr", "es-ES": "es", "es-MX": "es-MX",
	"it-IT": "it", "pt-BR": "pt", "nl-NL": "nl", "sv-SE": "sv",
	"pl-PL": "pl", "ru-RU": "ru", "tr-TR": "tr", "ar-EG": "ar-EG",
	"hi-IN": "hi", "ja-JP": "ja", "zh-CN": "zh", "zh-TW": "zh-Hant",
	"ko-KR": "ko",
	// The languages on their own (what a lookup falls back to) and the
	// script forms of Chinese.
	"en": "en", "de": "de", "fr": "fr", "es": "es", "it": "it", "pt": "pt",
	"nl": "nl", "sv": "sv", "pl": "pl", "ru": "ru", "tr": "tr", "ar": "ar",
	"hi": "hi", "ja": "ja", "zh": "zh", "ko": "ko",
	"zh-Hans": "zh", "zh-Hant": "zh-Hant",
}

// Generate writes the data into out from src, which holds each package
// extracted into a directory of its name (src/cldr-core/package/...),
// and tz, the tz database as a zip of TZif files (Go's
// $GOROOT/lib/time/zoneinfo.zip).
func Generate(src, out, tz string) error {
	g := &gen{src: src}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	tags := make([]string, 0, len(locales))
	files := map[string]bool{}
	for tag, cldr := range locales {
		tags = append(tags, tag)
		files[cldr] = true
	}
	sort.Strings(tags)
	for cldr := range files {
		data, err := g.locale(cldr)
		if err != nil {
			return fmt.Errorf("%s: %w", cldr, err)
		}
		if err := writeLocale(out, cldr, data); err != nil {
			return err
		}
	}
	sup, err := g.supplemental(tags)
	if err != nil {
		return err
	}
	if sup["zoneData"], err = writeZones(filepath.Join(out, "tzdata.bin"), tz); err != nil {
		return err
	}
	// The tables looked up by key (aliases, numbering systems' digits,
	// zones, metazones, hour cycles, plural rules, day periods, ...) go
	// to one sorted text file the engine searches without decoding it.
	if err := writeLookup(filepath.Join(out, "lookup.txt"), sup); err != nil {
		return err
	}
	return writeJSON(filepath.Join(out, "supplemental.json"), sup)
}

type gen struct{ src string }

// read decodes pkg/package/path and walks keys into it.
func (g *gen) read(pkg, path string, keys ...string) (any, error) {
	b, err := os.ReadFile(filepath.Join(g.src, pkg, "package", filepath.FromSlash(path)))
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s/%s: %w", pkg, path, err)
	}
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s/%s: no %q", pkg, path, k)
		}
		if v, ok = m[k]; !ok {
			return nil, fmt.Errorf("%s/%s: no %q", pkg, path, k)
		}
	}
	return v, nil
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func str(v any) string { s, _ := v.(string); return s }

// locale is one CLDR locale's data.
func (g *gen) locale(cldr string) (map[string]any, error) {
	nums, err := g.read("cldr-numbers-full", "main/"+cldr+"/numbers.json", "main", cldr, "numbers")
	if err != nil {
		return nil, err
	}
	curs, err := g.read("cldr-numbers-full", "main/"+cldr+"/currencies.json", "main", cldr, "numbers", "currencies")
	if err != nil {
		return nil, err
	}
	n := obj(nums)
	systems := numberSystems(n)
	currencies := map[string]any{}
	for code, v := range obj(curs) {
		c := map[string]any{}
		for k, s := range obj(v) {
			switch {
			case k == "symbol", k == "symbol-alt-narrow", k == "displayName", strings.HasPrefix(k, "displayName-count-"):
				c[k] = s
			}
		}
		currencies[code] = c
	}
	dates, err := g.dates(cldr)
	if err != nil {
		return nil, err
	}
	lists, err := g.read("cldr-misc-full", "main/"+cldr+"/listPatterns.json", "main", cldr, "listPatterns")
	if err != nil {
		return nil, err
	}
	fields, err := g.read("cldr-dates-full", "main/"+cldr+"/dateFields.json", "main", cldr, "dates", "fields")
	if err != nil {
		return nil, err
	}
	names, err := g.names(cldr, obj(fields))
	if err != nil {
		return nil, err
	}
	units, err := g.units(cldr)
	if err != nil {
		return nil, err
	}
	relative := map[string]any{}
	for _, unit := range []string{"year", "quarter", "month", "week", "day", "hour", "minute", "second"} {
		for _, w := range []string{"", "-short", "-narrow"} {
			relative[unit+w] = obj(fields)[unit+w]
		}
	}
	lang, _, _ := strings.Cut(cldr, "-")
	return map[string]any{
		"dates":    dates,
		"lists":    lists,
		"relative": relative,
		"names":    names,
		"units":    units,
		"cldr":     cldr,
		"lang":     lang,
		"numbers": map[string]any{
			"defaultNumberingSystem": n["defaultNumberingSystem"],
			"otherNumberingSystems":  n["otherNumberingSystems"],
			"minimumGroupingDigits":  n["minimumGroupingDigits"],
			"systems":                systems,
		},
		"currencies": currencies,
	}, nil
}

// numberSystems are a locale's symbols and patterns by numbering system
// (symbols-numberSystem-latn, decimalFormats-numberSystem-latn, ...).
func numberSystems(n map[string]any) map[string]any {
	systems := map[string]any{}
	for key, v := range n {
		kind, system, ok := strings.Cut(key, "-numberSystem-")
		if !ok {
			continue
		}
		s := obj(systems[system])
		if s == nil {
			s = map[string]any{}
			systems[system] = s
		}
		switch kind {
		case "symbols", "decimalFormats", "percentFormats", "currencyFormats", "scientificFormats", "miscPatterns":
			s[kind] = v
		}
	}
	return systems
}

// supplemental is what every locale shares: plural rules by language,
// currency digits, numbering systems' digits, aliases, the supported
// tags.
func (g *gen) supplemental(tags []string) (map[string]any, error) {
	v := map[string]any{}
	for _, src := range []struct {
		name, pkg, path string
		keys            []string
	}{
		{"cardinal", "cldr-core", "supplemental/plurals.json", []string{"supplemental", "plurals-type-cardinal"}},
		{"ordinal", "cldr-core", "supplemental/ordinals.json", []string{"supplemental", "plurals-type-ordinal"}},
		{"ranges", "cldr-core", "supplemental/pluralRanges.json", []string{"supplemental", "plurals"}},
		{"calendars", "cldr-core", "supplemental/calendarPreferenceData.json", []string{"supplemental", "calendarPreferenceData"}},
		{"week", "cldr-core", "supplemental/weekData.json", []string{"supplemental", "weekData"}},
		{"fractions", "cldr-core", "supplemental/currencyData.json", []string{"supplemental", "currencyData", "fractions"}},
		{"systems", "cldr-core", "supplemental/numberingSystems.json", []string{"supplemental", "numberingSystems"}},
		{"aliases", "cldr-core", "supplemental/aliases.json", []string{"supplemental", "metadata", "alias"}},
		{"metaZones", "cldr-core", "supplemental/metaZones.json", []string{"supplemental", "metaZones", "metazoneInfo", "timezone"}},
		{"dayPeriods", "cldr-core", "supplemental/dayPeriods.json", []string{"supplemental", "dayPeriodRuleSet"}},
		{"timeData", "cldr-core", "supplemental/timeData.json", []string{"supplemental", "timeData"}},
		{"tz", "cldr-bcp47", "bcp47/timezone.json", []string{"keyword", "u", "tz"}},
		{"likely", "cldr-core", "supplemental/likelySubtags.json", []string{"supplemental", "likelySubtags"}},
		{"version", "cldr-core", "package.json", []string{"version"}},
	} {
		x, err := g.read(src.pkg, src.path, src.keys...)
		if err != nil {
			return nil, err
		}
		v[src.name] = x
	}
	cardinal, ordinal, fractions, systems, aliases := v["cardinal"], v["ordinal"], v["fractions"], v["systems"], v["aliases"]
	metaZones, dayPeriods, timeData, tz, likely, version := v["metaZones"], v["dayPeriods"], v["timeData"], v["tz"], v["likely"], v["version"]
	langs := map[string]bool{}
	for _, t := range tags {
		l, _, _ := strings.Cut(t, "-")
		langs[l] = true
	}
	digits := map[string]any{}
	for name, v := range obj(systems) {
		if str(obj(v)["_type"]) == "numeric" {
			digits[name] = obj(v)["_digits"]
		}
	}
	a := obj(aliases)
	reduce := func(v any) map[string]any {
		m := map[string]any{}
		for k, r := range obj(v) {
			m[k] = obj(r)["_replacement"]
		}
		return m
	}
	return map[string]any{
		"cldrVersion":     version,
		"locales":         locales,
		"pluralsCardinal": pickPlurals(cardinal, langs),
		"pluralsOrdinal":  pickPlurals(ordinal, langs),
		"pluralRanges":    pickRanges(v["ranges"], langs),
		"calendarPrefs":   calendarPrefsOf(v["calendars"]),
		"weekInfo":        weekInfoOf(v["week"]),
		"regionZones":     regionZonesOf(tz),
		"currencyDigits":  fractions,
		"numberingDigits": digits,
		"languageAlias":   reduce(a["languageAlias"]),
		"territoryAlias":  reduce(a["territoryAlias"]),
		"scriptAlias":     reduce(a["scriptAlias"]),
		"variantAlias":    reduce(a["variantAlias"]),
		"metaZones":       flattenZones("", metaZones),
		"timeData":        timeData,
		"dayPeriodRules":  pickLangs(dayPeriods, langs),
		"zoneNames":       zoneNamesOf(tz),
		"likelySubtags":   likely,
	}, nil
}

// zoneNamesOf maps every IANA name, lower-cased, to the one ICU (and so
// Node) reports: the first of its CLDR aliases; UTC's are "UTC", as V8
// has it.
func zoneNamesOf(tz any) map[string]string {
	zoneNames := map[string]string{}
	for id, v := range obj(tz) {
		aliases := strings.Fields(str(obj(v)["_alias"]))
		if len(aliases) == 0 {
			continue
		}
		canonical := aliases[0]
		if id == "utc" || id == "gmt" {
			canonical = "UTC"
		}
		for _, a := range aliases {
			zoneNames[strings.ToLower(a)] = canonical
		}
	}
	zoneNames["gmt"], zoneNames["etc/gmt"], zoneNames["utc"] = "UTC", "UTC", "UTC"
	return zoneNames
}

// pickPlurals keeps the supported languages' plural rules (and root's),
// each without its samples ("i = 1 and v = 0 @integer 1").
func pickPlurals(rules any, langs map[string]bool) map[string]any {
	m := map[string]any{}
	for l, r := range obj(rules) {
		if langs[l] || l == "root" {
			rs := map[string]any{}
			for k, v := range obj(r) {
				rule, _, _ := strings.Cut(str(v), "@")
				rs[strings.TrimPrefix(k, "pluralRule-count-")] = strings.TrimSpace(rule)
			}
			m[l] = rs
		}
	}
	return m
}

// pickRanges keeps the supported languages' plural ranges, keyed
// "START+END" (CLDR's "pluralRange-start-one-end-other").
func pickRanges(ranges any, langs map[string]bool) map[string]any {
	m := map[string]any{}
	for l, r := range obj(ranges) {
		if !langs[l] {
			continue
		}
		rs := map[string]any{}
		for k, v := range obj(r) {
			start, end, ok := strings.Cut(strings.TrimPrefix(k, "pluralRange-start-"), "-end-")
			if ok {
				rs[start+"+"+end] = v
			}
		}
		m[l] = rs
	}
	return m
}

// pickLangs keeps the supported languages' entries (CLDR keys them as
// "zh_Hant" too: those are kept under "zh-Hant").
func pickLangs(v any, langs map[string]bool) map[string]any {
	out := map[string]any{}
	for k, r := range obj(v) {
		l, _, _ := strings.Cut(k, "_")
		if langs[l] {
			out[strings.ReplaceAll(k, "_", "-")] = r
		}
	}
	return out
}

// flattenZones turns CLDR's nested zone tree (America -> Los_Angeles ->
// periods) into "America/Los_Angeles" -> periods.
func flattenZones(prefix string, v any) map[string]any {
	out := map[string]any{}
	for k, sub := range obj(v) {
		name := k
		if prefix != "" {
			name = prefix + "/" + k
		}
		if periods, ok := sub.([]any); ok {
			out[name] = periods
			continue
		}
		for n, p := range flattenZones(name, sub) {
			out[n] = p
		}
	}
	return out
}

// lookupKinds are the tables of lookup.txt: a line is "KIND:KEY\tVALUE".
var lookupKinds = map[string]string{
	"languageAlias": "la", "territoryAlias": "ta", "scriptAlias": "sa", "numberingDigits": "nu",
	"zoneNames": "zn", "metaZones": "mz", "timeData": "td", "likelySubtags": "ls",
	"calendarPrefs": "cp", "weekInfo": "wk", "regionZones": "rz",
	"pluralsCardinal": "pc", "pluralsOrdinal": "po", "pluralRanges": "pg", "currencyDigits": "cd",
	"locales": "lc", "variantAlias": "va", "zoneData": "zi", "dayPeriodRules": "dp",
}

func writeLookup(path string, sup map[string]any) error {
	var lines []string
	for table, kind := range lookupKinds {
		var m map[string]any
		switch v := sup[table].(type) {
		case map[string]any:
			m = v
		case map[string]string:
			m = map[string]any{}
			for k, x := range v {
				m[k] = x
			}
		}
		for k, v := range m {
			var value string
			switch x := v.(type) {
			case string:
				value = x
			default:
				b, err := json.Marshal(x)
				if err != nil {
					return err
				}
				value = string(b)
			}
			lines = append(lines, kind+":"+k+"\t"+value)
		}
		delete(sup, table)
	}
	sort.Strings(lines)
	return os.WriteFile(path, []byte("\n"+strings.Join(lines, "\n")+"\n"), 0o644)
}

// writeLocale writes a locale's data in the pieces the engine decodes
// apart, each when first needed: numbers (LOCALE.json), dates
// (LOCALE.dates.json), list and relative-time words (LOCALE.words.json),
// and currencies one per line ("CODE\tJSON", LOCALE.currencies), found
// without decoding the others.
func writeLocale(out, cldr string, data map[string]any) error {
	base := filepath.Join(out, cldr)
	// The metazones' names, three quarters of the dates, are read only
	// to name a zone: a file of their own.
	tzn := obj(obj(data["dates"])["timeZoneNames"])
	if err := writeJSON(base+".zones.json", tzn["metazone"]); err != nil {
		return err
	}
	delete(tzn, "metazone")
	if err := writeJSON(base+".dates.json", data["dates"]); err != nil {
		return err
	}
	if err := writeJSON(base+".words.json", map[string]any{"lists": data["lists"], "relative": data["relative"]}); err != nil {
		return err
	}
	if err := writeJSON(base+".names.json", data["names"]); err != nil {
		return err
	}
	if err := writeJSON(base+".units.json", data["units"]); err != nil {
		return err
	}
	var cur strings.Builder
	codes := make([]string, 0, len(obj(data["currencies"])))
	for code := range obj(data["currencies"]) {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		b, err := json.Marshal(obj(data["currencies"])[code])
		if err != nil {
			return err
		}
		fmt.Fprintf(&cur, "%s\t%s\n", code, b)
	}
	if err := os.WriteFile(base+".currencies", []byte(cur.String()), 0o644); err != nil {
		return err
	}
	// The numbers are NumberFormat's: DateTimeFormat reads only the
	// default numbering system and each system's decimal sign, kept in
	// the small file every first call decodes.
	numbers := obj(data["numbers"])
	if err := writeJSON(base+".numbers.json", numbers); err != nil {
		return err
	}
	decimals := map[string]any{}
	for name, sys := range obj(numbers["systems"]) {
		decimals[name] = obj(obj(sys)["symbols"])["decimal"]
	}
	data["defaultNumberingSystem"] = numbers["defaultNumberingSystem"]
	data["decimals"] = decimals
	for _, k := range []string{"dates", "lists", "relative", "currencies", "names", "units", "numbers"} {
		delete(data, k)
	}
	return writeJSON(base+".json", data)
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
