package intl

import (
	"encoding/json"
	"sort"
	"strings"
)

// Intl.Locale: a tag with options applied, its parts, and the likely
// subtags (CLDR likelySubtags) it maximizes to or minimizes from.

type localeOptions struct {
	Language        *string `json:"language"`
	Script          *string `json:"script"`
	Region          *string `json:"region"`
	Calendar        *string `json:"calendar"`
	Collation       *string `json:"collation"`
	HourCycle       *string `json:"hourCycle"`
	CaseFirst       *string `json:"caseFirst"`
	Numeric         *bool   `json:"numeric"`
	NumberingSystem *string `json:"numberingSystem"`
}

// localeParts is what a Locale's accessors read.
type localeParts struct {
	Tag             string  `json:"tag"`
	BaseName        string  `json:"baseName"`
	Language        *string `json:"language"`
	Script          *string `json:"script"`
	Region          *string `json:"region"`
	Calendar        *string `json:"calendar"`
	CaseFirst       *string `json:"caseFirst"`
	Collation       *string `json:"collation"`
	HourCycle       *string `json:"hourCycle"`
	Numeric         bool    `json:"numeric"`
	NumberingSystem *string `json:"numberingSystem"`
}

// makeLocale is the Locale constructor's work after the tag and options
// were read.
func makeLocale(tagText, optionsJSON string) (string, error) {
	var o localeOptions
	if err := json.Unmarshal([]byte(optionsJSON), &o); err != nil {
		return "", typeError("intl: bad options")
	}
	sup, err := supplemental()
	if err != nil {
		return "", err
	}
	t, ok := parseTag(tagText)
	if !ok {
		return "", errBadLocale
	}
	t.canonicalize(sup)
	if o.Language != nil {
		if l := *o.Language; !isAlpha(l) || !(len(l) >= 2 && len(l) <= 3 || len(l) >= 5 && len(l) <= 8) {
			return "", errBadLocale
		}
		t.lang = strings.ToLower(*o.Language)
	}
	if o.Script != nil {
		if len(*o.Script) != 4 || !isAlpha(*o.Script) {
			return "", errBadLocale
		}
		t.script = strings.ToUpper((*o.Script)[:1]) + strings.ToLower((*o.Script)[1:])
	}
	if o.Region != nil {
		if r := *o.Region; !(len(r) == 2 && isAlpha(r) || len(r) == 3 && isDigit(r)) {
			return "", errBadLocale
		}
		t.region = strings.ToUpper(*o.Region)
	}
	for _, k := range []struct {
		key string
		v   *string
	}{{"ca", o.Calendar}, {"co", o.Collation}, {"hc", o.HourCycle}, {"kf", o.CaseFirst}, {"nu", o.NumberingSystem}} {
		if k.v == nil {
			continue
		}
		v := strings.ToLower(*k.v)
		switch {
		case k.key == "hc" && v != "h11" && v != "h12" && v != "h23" && v != "h24":
			return "", rangeError("Value " + *k.v + " out of range for locale options property hourCycle")
		case k.key == "kf" && v != "upper" && v != "lower" && v != "false":
			return "", rangeError("Value " + *k.v + " out of range for locale options property caseFirst")
		case !isNumberingSystemType(v):
			return "", errBadLocale
		}
		t.setKeyword(k.key, v)
	}
	if o.Numeric != nil {
		if *o.Numeric {
			t.setKeyword("kn", "")
		} else {
			t.setKeyword("kn", "false")
		}
	}
	out, err := json.Marshal(partsOfTag(t))
	return string(out), err
}

func (t *tag) setKeyword(key, value string) {
	if t.uKeys == nil {
		t.uKeys = map[string]string{}
	}
	if _, ok := t.uKeys[key]; !ok {
		t.uOrder = append(t.uOrder, key)
	}
	if value == "true" {
		value = ""
	}
	t.uKeys[key] = value
	sort.Strings(t.uOrder)
}

func partsOfTag(t *tag) *localeParts {
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	p := &localeParts{Tag: t.String(), BaseName: t.base(), Language: opt(t.lang), Script: opt(t.script), Region: opt(t.region)}
	if t.lang == "und" {
		p.Language = nil // V8 reports und's language as undefined
	}
	kw := func(k string) *string {
		if v, ok := t.uKeys[k]; ok {
			if v == "" {
				v = "true"
			}
			return &v
		}
		return nil
	}
	p.Calendar, p.Collation, p.HourCycle, p.CaseFirst, p.NumberingSystem = kw("ca"), kw("co"), kw("hc"), kw("kf"), kw("nu")
	if v, ok := t.uKeys["kn"]; ok {
		p.Numeric = v == "" || v == "true"
	}
	return p
}

// likely is the tag's base with its likely subtags added (UTS 35).
func likely(t *tag) (lang, script, region string) {
	lang, script, region = t.lang, t.script, t.region
	try := func(key string) bool {
		v, ok := lookup("ls", key)
		if !ok {
			return false
		}
		m, _ := parseTag(v)
		if lang == "und" {
			lang = m.lang
		}
		if script == "" {
			script = m.script
		}
		if region == "" {
			region = m.region
		}
		return true
	}
	l := lang
	switch {
	case script != "" && region != "" && try(l+"-"+script+"-"+region):
	case region != "" && try(l+"-"+region):
	case script != "" && try(l+"-"+script):
	case try(l):
	case l != "und" && try("und"):
	}
	if lang == "und" && !(script != "" && try("und-"+script)) && region != "" {
		try("und-" + region)
	}
	return lang, script, region
}

// maximizeLocale and minimizeLocale are Locale's maximize and minimize.
func maximizeLocale(tagText string, minimize bool) (string, error) {
	t, ok := parseTag(tagText)
	if !ok {
		return "", errBadLocale
	}
	lang, script, region := likely(t)
	if minimize {
		full := lang + "-" + script + "-" + region
		for _, cand := range []struct{ s, r string }{{"", ""}, {"", region}, {script, ""}} {
			c := &tag{lang: lang, script: cand.s, region: cand.r}
			l, s, r := likely(c)
			if l+"-"+s+"-"+r == full {
				script, region = cand.s, cand.r
				break
			}
		}
	}
	t.lang, t.script, t.region = lang, script, region
	out, err := json.Marshal(partsOfTag(t))
	return string(out), err
}
