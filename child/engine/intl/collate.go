package intl

import (
	"encoding/json"
	"strings"

	"unicode"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// Collation is golang.org/x/text/collate's (CLDR 23's root order and
// tailorings, not the CLDR 48 of Node's ICU: the order of letters,
// digits and the common punctuation agrees; TestIntlNodeTable holds it
// to Node's on its cases).

// collatorOptions is what the prelude read from a Collator's options.
type collatorOptions struct {
	Usage             *string `json:"usage"`
	LocaleMatcher     *string `json:"localeMatcher"`
	Collation         *string `json:"collation"`
	Numeric           *bool   `json:"numeric"`
	CaseFirst         *string `json:"caseFirst"`
	Sensitivity       *string `json:"sensitivity"`
	IgnorePunctuation *bool   `json:"ignorePunctuation"`
}

// collatorResolved is a Collator's resolved options in Node's order.
type collatorResolved struct {
	Locale            string `json:"locale"`
	Usage             string `json:"usage"`
	Sensitivity       string `json:"sensitivity"`
	IgnorePunctuation bool   `json:"ignorePunctuation"`
	Collation         string `json:"collation"`
	Numeric           bool   `json:"numeric"`
	CaseFirst         string `json:"caseFirst"`
}

func resolveCollator(locales []string, o *collatorOptions) (*collatorResolved, error) {
	const ctor = "Collator"
	usage, err := oneOf(ctor, "usage", o.Usage, "sort", "sort", "search")
	if err != nil {
		return nil, err
	}
	if _, err := oneOf(ctor, "localeMatcher", o.LocaleMatcher, "best fit", "lookup", "best fit"); err != nil {
		return nil, err
	}
	if o.Collation != nil && !isNumberingSystemType(*o.Collation) {
		return nil, rangeError("Invalid collation : " + *o.Collation)
	}
	caseFirst, err := oneOf(ctor, "caseFirst", o.CaseFirst, "", "upper", "lower", "false")
	if err != nil {
		return nil, err
	}
	loc, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	// Collation is tailored by language: the locale resolves to it, as in
	// Node, but for the tags ICU keeps collation data of their own for.
	locale := loc.data.Lang
	if loc.locale == "en-US" || loc.locale == "zh-CN" || loc.locale == "zh-TW" || loc.locale == "zh-Hant" || loc.locale == "zh-Hans" {
		locale = loc.locale
	}
	r := &collatorResolved{Locale: locale, Usage: usage, Collation: "default"}
	// -u-kn- and -u-kf- count where the options say nothing, and then
	// stay in the locale.
	if o.Numeric != nil {
		r.Numeric = *o.Numeric
	} else if kn, ok := loc.keys["kn"]; ok && (kn == "" || kn == "true" || kn == "false") {
		r.Numeric = kn != "false"
		if kn == "" || kn == "true" {
			r.Locale += "-u-kn"
		} else {
			r.Locale += "-u-kn-false"
		}
	}
	if caseFirst == "" {
		caseFirst = "false"
		if kf, ok := loc.keys["kf"]; ok && (kf == "upper" || kf == "lower" || kf == "false") && o.CaseFirst == nil {
			caseFirst = kf
			if !strings.Contains(r.Locale, "-u-") {
				r.Locale += "-u-kf-" + kf
			} else {
				r.Locale += "-kf-" + kf
			}
		}
	}
	r.CaseFirst = caseFirst
	sens, err := oneOf(ctor, "sensitivity", o.Sensitivity, "variant", "base", "accent", "case", "variant")
	if err != nil {
		return nil, err
	}
	r.Sensitivity = sens
	if o.IgnorePunctuation != nil {
		r.IgnorePunctuation = *o.IgnorePunctuation
	}
	return r, nil
}

// collatorOf is a resolved Collator's x/text collators: the one it
// compares with, and, for caseFirst upper, one blind to case.
type collator struct {
	r     *collatorResolved
	c     *collate.Collator
	cased *collate.Collator // ignoring case: set for caseFirst "upper"
	// caseLevel compares, accents stripped, strings equal as base
	// letters: set for sensitivity "case".
	caseLevel *collate.Collator
}

func newCollator(r *collatorResolved) *collator {
	tag := language.Make(baseOf(r.Locale))
	opts := []collate.Option{}
	switch r.Sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)
	case "accent":
		opts = append(opts, collate.IgnoreCase)
	}
	if r.Numeric {
		opts = append(opts, collate.Numeric)
	}
	if r.IgnorePunctuation {
		opts = append(opts, collate.OptionsFromTag(language.Make("und-u-ka-shifted")))
	}
	c := &collator{r: r, c: collate.New(tag, opts...)}
	if r.Sensitivity == "case" {
		// ICU's primary strength with a case level: equal as base
		// letters, then compared by case alone (accents stripped).
		c.c = collate.New(tag, append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)...)
		c.caseLevel = collate.New(tag, opts...)
	}
	if r.CaseFirst == "upper" && (r.Sensitivity == "variant" || r.Sensitivity == "case") {
		c.cased = collate.New(tag, append(opts, collate.IgnoreCase)...)
	}
	return c
}

// compare is the Collator's compare: -1, 0 or 1.
func (c *collator) compare(a, b string) int {
	n := c.c.CompareString(a, b)
	if n == 0 && c.caseLevel != nil {
		return c.caseLevel.CompareString(stripMarks(a), stripMarks(b))
	}
	if n != 0 && c.cased != nil && c.cased.CompareString(a, b) == 0 {
		// They differ only in case: upper case first.
		return -n
	}
	return n
}

// stripMarks removes the combining marks of s's canonical decomposition.
func stripMarks(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// key is a's sort key as "k" and a string of code points 0-255 (one per byte),
// which JavaScript compares as the bytes compare; "" when the collator
// cannot be keyed (caseFirst upper).
func (c *collator) key(a string) string {
	if c.cased != nil || c.caseLevel != nil {
		return ""
	}
	var buf collate.Buffer
	k := c.c.KeyFromString(&buf, a)
	var b strings.Builder
	b.Grow(2*len(k) + 1)
	// A first character that is not NUL: the prelude reads a NUL first
	// as an error.
	b.WriteByte('k')
	for _, x := range k {
		b.WriteRune(rune(x))
	}
	return b.String()
}

func collatorFor(handle string) (*collator, error) {
	return collators.get(handle, func(handle string) (*collator, error) {
		var r collatorResolved
		if err := json.Unmarshal([]byte(handle), &r); err != nil {
			return nil, typeError("intl: bad handle")
		}
		return newCollator(&r), nil
	})
}
