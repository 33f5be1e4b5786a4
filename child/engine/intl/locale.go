package intl

import (
	"sort"
	"strings"
)

// Error is an error the guest sees as a JavaScript exception of Name
// (TypeError, RangeError) with Message, as Node's V8 words it.
type Error struct{ Name, Message string }

func (e *Error) Error() string { return e.Name + ": " + e.Message }

func rangeError(msg string) error { return &Error{"RangeError", msg} }
func typeError(msg string) error  { return &Error{"TypeError", msg} }

// errBadLocale is V8's error for a tag that is not well-formed.
var errBadLocale = rangeError("Incorrect locale information provided")

// badTag is V8's error for a tag that is not well-formed: ICU refuses
// one whose language subtag is not one ("Incorrect locale information
// provided"); one it reads but ECMA-402 does not is named.
func badTag(s string) error {
	first, _, _ := strings.Cut(s, "-")
	if isAlpha(first) && (len(first) >= 2 && len(first) <= 3 || len(first) >= 5 && len(first) <= 8) {
		return rangeError("Invalid language tag: " + strings.ToLower(s))
	}
	return errBadLocale
}

// defaultLocale is the locale used when none is asked for or none asked
// for is supported, as Node's in an empty environment.
const defaultLocale = "en-US"

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

func isDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	return s != ""
}

// tag is a parsed Unicode BCP 47 locale identifier.
type tag struct {
	lang, script, region string
	variants             []string
	// unicode extension: attributes and keywords (key -> value, "" for
	// a key with no type)
	uAttrs []string
	uKeys  map[string]string
	uOrder []string
	other  []string // other extensions, each "s-sub-sub", and "x-..." last
}

// parseTag parses a language tag (ECMA-402 IsStructurallyValidLanguageTag).
func parseTag(s string) (*tag, bool) {
	if s == "" {
		return nil, false
	}
	parts := strings.Split(strings.ToLower(s), "-")
	t := &tag{}
	i := 0
	l := parts[0]
	if !isAlpha(l) || !(len(l) >= 2 && len(l) <= 3 || len(l) >= 5 && len(l) <= 8) {
		return nil, false
	}
	t.lang = l
	i++
	if i < len(parts) && len(parts[i]) == 4 && isAlpha(parts[i]) {
		t.script = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		i++
	}
	if i < len(parts) && (len(parts[i]) == 2 && isAlpha(parts[i]) || len(parts[i]) == 3 && isDigit(parts[i])) {
		t.region = strings.ToUpper(parts[i])
		i++
	}
	seenVariant := map[string]bool{}
	for i < len(parts) {
		p := parts[i]
		if len(p) >= 5 && len(p) <= 8 && isAlnum(p) || len(p) == 4 && p[0] >= '0' && p[0] <= '9' && isAlnum(p) {
			if seenVariant[p] {
				return nil, false
			}
			seenVariant[p] = true
			t.variants = append(t.variants, p)
			i++
			continue
		}
		break
	}
	seenExt := map[byte]bool{}
	for i < len(parts) {
		p := parts[i]
		if len(p) != 1 || !isAlnum(p) {
			return nil, false
		}
		single := p[0]
		i++
		if single == 'x' {
			if i >= len(parts) {
				return nil, false
			}
			for _, q := range parts[i:] {
				if len(q) < 1 || len(q) > 8 || !isAlnum(q) {
					return nil, false
				}
			}
			t.other = append(t.other, "x-"+strings.Join(parts[i:], "-"))
			return t, true
		}
		if seenExt[single] {
			return nil, false
		}
		seenExt[single] = true
		start := i
		for i < len(parts) && len(parts[i]) >= 2 && len(parts[i]) <= 8 && isAlnum(parts[i]) {
			i++
		}
		if i == start {
			return nil, false
		}
		subs := parts[start:i]
		if single == 'u' {
			if !t.parseUnicodeExtension(subs) {
				return nil, false
			}
			continue
		}
		t.other = append(t.other, string(single)+"-"+strings.Join(subs, "-"))
	}
	return t, true
}

func (t *tag) parseUnicodeExtension(subs []string) bool {
	t.uKeys = map[string]string{}
	j := 0
	for j < len(subs) && len(subs[j]) >= 3 {
		t.uAttrs = append(t.uAttrs, subs[j])
		j++
	}
	for j < len(subs) {
		k := subs[j]
		if len(k) != 2 || !(k[1] >= 'a' && k[1] <= 'z') {
			return false
		}
		j++
		var vals []string
		for j < len(subs) && len(subs[j]) >= 3 {
			vals = append(vals, subs[j])
			j++
		}
		if _, dup := t.uKeys[k]; dup {
			continue // the first wins (UTS 35)
		}
		v := strings.Join(vals, "-")
		if v == "true" {
			v = ""
		}
		t.uKeys[k] = v
		t.uOrder = append(t.uOrder, k)
	}
	return true
}

// canonicalize applies CLDR's aliases and UTS 35's ordering.
func (t *tag) canonicalize(sup *supplementalData) {
	if r, ok := lookup("la", t.lang+"-"+t.region); ok && t.region != "" {
		t.applyLanguageAlias(r, true)
	} else if r, ok := lookup("la", t.lang); ok {
		t.applyLanguageAlias(r, false)
	}
	if r, ok := lookup("sa", strings.ToLower(t.script)); ok && t.script != "" && r != "" {
		t.script = strings.ToUpper(r[:1]) + r[1:]
	}
	if r, ok := lookup("ta", t.region); ok && t.region != "" {
		t.region, _, _ = strings.Cut(r, " ")
	}
	sort.Strings(t.variants)
	sort.Strings(t.uAttrs)
	sort.Strings(t.uOrder)
	sort.Strings(t.other[:len(t.other)-t.privateCount()])
}

func (t *tag) privateCount() int {
	if n := len(t.other); n > 0 && strings.HasPrefix(t.other[n-1], "x-") {
		return 1
	}
	return 0
}

func (t *tag) applyLanguageAlias(r string, regionUsed bool) {
	p, ok := parseTag(r)
	if !ok {
		return
	}
	t.lang = p.lang
	if t.script == "" {
		t.script = p.script
	}
	if regionUsed || t.region == "" {
		t.region = p.region
	}
}

// base is the tag without extensions.
func (t *tag) base() string {
	var b strings.Builder
	b.WriteString(t.lang)
	for _, s := range append([]string{t.script, t.region}, t.variants...) {
		if s != "" {
			b.WriteByte('-')
			b.WriteString(s)
		}
	}
	return b.String()
}

func (t *tag) String() string {
	var b strings.Builder
	b.WriteString(t.base())
	u := t.unicodeExtension()
	exts := append([]string(nil), t.other[:len(t.other)-t.privateCount()]...)
	if u != "" {
		exts = append(exts, u)
		sort.Strings(exts)
	}
	for _, e := range exts {
		b.WriteByte('-')
		b.WriteString(e)
	}
	if t.privateCount() == 1 {
		b.WriteByte('-')
		b.WriteString(t.other[len(t.other)-1])
	}
	return b.String()
}

func (t *tag) unicodeExtension() string {
	if len(t.uAttrs) == 0 && len(t.uOrder) == 0 {
		return ""
	}
	parts := append([]string{"u"}, t.uAttrs...)
	for _, k := range t.uOrder {
		parts = append(parts, k)
		if v := t.uKeys[k]; v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, "-")
}

// canonicalizeLocaleList is ECMA-402's CanonicalizeLocaleList over the
// tags the prelude collected (each already a string).
func canonicalizeLocaleList(list []string) ([]string, error) {
	sup, err := supplemental()
	if err != nil {
		return nil, err
	}
	out := []string{}
	seen := map[string]bool{}
	for _, s := range list {
		t, ok := parseTag(s)
		if !ok {
			return nil, badTag(s)
		}
		t.canonicalize(sup)
		c := t.String()
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// bestAvailable is ECMA-402's BestAvailableLocale (lookup).
func bestAvailable(sup *supplementalData, locale string) string {
	candidate := locale
	for {
		if _, ok := sup.Locales[candidate]; ok {
			return candidate
		}
		pos := strings.LastIndexByte(candidate, '-')
		if pos < 0 {
			return ""
		}
		if pos >= 2 && candidate[pos-2] == '-' {
			pos -= 2
		}
		candidate = candidate[:pos]
	}
}

// resolved is a resolved locale: the supported tag, its data, and the
// tag's Unicode extension keywords.
type resolved struct {
	locale string // the supported tag
	data   *localeData
	keys   map[string]string
}

// resolveLocale is ECMA-402's ResolveLocale by lookup over the requested
// (canonical) locales, defaulting to en-US.
func resolveLocale(requested []string) (*resolved, error) {
	sup, err := supplemental()
	if err != nil {
		return nil, err
	}
	r := &resolved{locale: defaultLocale}
	for _, s := range requested {
		t, ok := parseTag(s)
		if !ok {
			continue
		}
		if avail := bestAvailable(sup, t.base()); avail != "" {
			r.locale, r.keys = avail, t.uKeys
			break
		}
	}
	if r.data, err = loadLocale(sup.Locales[r.locale]); err != nil {
		return nil, err
	}
	return r, nil
}

// supportedLocalesOf is ECMA-402's LookupSupportedLocales.
func supportedLocalesOf(requested []string) ([]string, error) {
	sup, err := supplemental()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range requested {
		if t, ok := parseTag(s); ok && bestAvailable(sup, t.base()) != "" {
			out = append(out, s)
		}
	}
	return out, nil
}
