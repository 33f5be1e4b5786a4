package intl

import (
	"encoding/json"
	"strings"
)

// localeInfo is one of Intl.Locale's information getters for tagText:
// calendars, collations, hourCycles, numberingSystems, timeZones,
// textInfo, weekInfo (Node 20's, the Intl Locale Info proposal), as
// JSON ("null": undefined). A keyword the tag carries is the answer
// for its own getter; otherwise the region, as the tag gives it or its
// likely subtags add it, chooses from CLDR's data.
func localeInfo(tagText, which string) (string, error) {
	t, ok := parseTag(tagText)
	if !ok {
		return "", errBadLocale
	}
	_, script, region := likely(t)
	keyword := func(k string) []string {
		if v, ok := t.uKeys[k]; ok && v != "" {
			return []string{v}
		}
		return nil
	}
	var v any
	list := func(k string, otherwise func() []string) {
		if kw := keyword(k); kw != nil {
			v = kw
		} else {
			v = otherwise()
		}
	}
	switch which {
	case "calendars":
		list("ca", func() []string {
			if text, ok := lookupRegion("cp", region); ok {
				return strings.Fields(text)
			}
			return []string{"gregory"}
		})
	case "collations":
		// Warden's Collator has the default collation only: no other is
		// the locale's to list (Node lists ICU's).
		list("co", func() []string { return []string{} })
	case "hourCycles":
		list("hc", func() []string { return []string{hourCycleFor(region, "", nil)} })
	case "numberingSystems":
		list("nu", func() []string { return []string{defaultNumberingSystem(tagText)} })
	case "timeZones":
		// Only for a region the tag itself names (none: an empty list).
		if t.region != "" {
			text, _ := lookup("rz", t.region)
			v = append([]string{}, strings.Fields(text)...)
		}
	case "textInfo":
		dir := "ltr"
		if rtlScripts[script] {
			dir = "rtl"
		}
		v = map[string]string{"direction": dir}
	case "weekInfo":
		text, _ := lookupRegion("wk", region)
		return text, nil
	default:
		return "", typeError("intl: unknown locale information " + which)
	}
	out, err := json.Marshal(v)
	return string(out), err
}

// defaultNumberingSystem is the numbering system of the locale the tag
// resolves to.
func defaultNumberingSystem(tagText string) string {
	loc, err := resolveLocale([]string{tagText})
	if err != nil {
		return "latn"
	}
	nu, _ := numberingSystemFor(loc, nil)
	return nu
}

// rtlScripts are the scripts written right to left (CLDR's
// characterOrder, by script).
var rtlScripts = map[string]bool{"Adlm": true, "Arab": true, "Hebr": true, "Mand": true, "Mend": true, "Nkoo": true,
	"Rohg": true, "Samr": true, "Syrc": true, "Thaa": true, "Yezi": true}
