package intl

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Call serves one operation of the prelude's Intl global: op names it,
// a and b are its arguments (JSON or a value to format, as each says).
// A *Error is the guest's exception; any other error is the engine's.
func Call(op, a, b string) (string, error) {
	if err := ready(); err != nil {
		return "", err
	}
	if f, ok := operations[op]; ok {
		return f(a, b)
	}
	return "", typeError("intl: unknown operation " + op)
}

// operations are Call's, by name.
var operations = map[string]func(a, b string) (string, error){
	"canonicalize": func(a, _ string) (string, error) {
		return jsonCall(a, func(list []string) (any, error) { return canonicalizeLocaleList(list) })
	},
	"supported": func(a, _ string) (string, error) {
		return jsonCall(a, func(list []string) (any, error) {
			c, err := canonicalizeLocaleList(list)
			if err != nil {
				return nil, err
			}
			return supportedLocalesOf(c)
		})
	},
	"nf.resolve":   func(a, b string) (string, error) { return resolveWith(a, b, resolveNumberFormat) },
	"pr.resolve":   func(a, b string) (string, error) { return resolveWith(a, b, resolvePluralRules) },
	"dtf.resolve":  func(a, b string) (string, error) { return resolveWith(a, b, resolveDateTimeFormat) },
	"co.resolve":   func(a, b string) (string, error) { return resolveWith(a, b, resolveCollator) },
	"lf.resolve":   func(a, b string) (string, error) { return resolveWith(a, b, resolveListFormat) },
	"dn.resolve":   func(a, b string) (string, error) { return resolveWith(a, b, resolveDisplayNames) },
	"dn.of":        displayName,
	"loc.make":     makeLocale,
	"loc.maximize": func(a, _ string) (string, error) { return maximizeLocale(a, false) },
	"loc.minimize": func(a, _ string) (string, error) { return maximizeLocale(a, true) },
	"loc.info":     localeInfo,
	"values": func(a, _ string) (string, error) {
		v, err := supportedValues(a)
		if err != nil {
			return "", err
		}
		out, err := json.Marshal(v)
		return string(out), err
	},
	"rtf.resolve":    func(a, b string) (string, error) { return resolveWith(a, b, resolveRelativeTimeFormat) },
	"lf.format":      func(a, b string) (string, error) { return partsOf(formatList(a, b))(false) },
	"lf.parts":       func(a, b string) (string, error) { return partsOf(formatList(a, b))(true) },
	"rtf.format":     func(a, b string) (string, error) { return partsOf(formatRelative(a, b))(false) },
	"rtf.parts":      func(a, b string) (string, error) { return partsOf(formatRelative(a, b))(true) },
	"nf.format":      func(a, b string) (string, error) { return numberFormat(a, b, false) },
	"nf.parts":       func(a, b string) (string, error) { return numberFormat(a, b, true) },
	"nf.range":       func(a, b string) (string, error) { return numberRange(a, b, false) },
	"nf.rangeParts":  func(a, b string) (string, error) { return numberRange(a, b, true) },
	"pr.range":       pluralRange,
	"dtf.range":      func(a, b string) (string, error) { return dateRange(a, b, false) },
	"dtf.rangeParts": func(a, b string) (string, error) { return dateRange(a, b, true) },
	"sg.resolve":     func(a, b string) (string, error) { return resolveWith(a, b, resolveSegmenter) },
	"sg.segment":     segment,
	"dtf.format":     func(a, b string) (string, error) { return dateFormat(a, b, false) },
	"dtf.parts":      func(a, b string) (string, error) { return dateFormat(a, b, true) },
	"co.compare": func(a, b string) (string, error) {
		c, err := collatorFor(a)
		if err != nil {
			return "", err
		}
		var pair [2]string
		if err := json.Unmarshal([]byte(b), &pair); err != nil {
			return "", typeError("intl: bad strings")
		}
		return strconv.Itoa(c.compare(pair[0], pair[1])), nil
	},
	"co.key": func(a, b string) (string, error) {
		c, err := collatorFor(a)
		if err != nil {
			return "", err
		}
		return c.key(b), nil
	},
	"pr.select": func(a, b string) (string, error) {
		p, err := pluralFor(a)
		if err != nil {
			return "", err
		}
		return p.selectValue(parseValue(b)), nil
	},
	"pr.categories": func(a, _ string) (string, error) {
		p, err := pluralFor(a)
		if err != nil {
			return "", err
		}
		out, err := json.Marshal(p.rules.categories)
		return string(out), err
	},
}

// resolveWith decodes a constructor's locales (a) and options (b),
// canonicalizes the locales and resolves, answering the resolved
// options' JSON: the handle.
func resolveWith[O any, R any](a, b string, resolve func([]string, *O) (R, error)) (string, error) {
	var locales []string
	var o O
	if err := json.Unmarshal([]byte(a), &locales); err != nil {
		return "", typeError("intl: bad locales")
	}
	if err := json.Unmarshal([]byte(b), &o); err != nil {
		return "", typeError("intl: bad options")
	}
	locales, err := canonicalizeLocaleList(locales)
	if err != nil {
		return "", err
	}
	r, err := resolve(locales, &o)
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(r)
	return string(out), err
}

func numberFormat(handle, value string, parts bool) (string, error) {
	f, err := formatterFor(handle)
	if err != nil {
		return "", err
	}
	return joinParts(f.formatParts(parseValue(value)), parts)
}

func dateFormat(handle, value string, parts bool) (string, error) {
	f, err := dateFormatterFor(handle)
	if err != nil {
		return "", err
	}
	ms, err := strconv.ParseFloat(value, 64)
	if err != nil {
		ms = math.NaN()
	}
	ps, err := f.formatParts(ms)
	if err != nil {
		return "", err
	}
	s, err := joinParts(ps, parts)
	if !parts {
		// V8's format (not formatToParts) writes U+202F, CLDR's space
		// before AM/PM among others, as a plain space, for the web's sake.
		s = strings.ReplaceAll(s, "\u202f", " ")
	}
	return s, err
}

// partsOf defers joining a formatter's parts to the caller's choice.
func partsOf(ps []part, err error) func(asParts bool) (string, error) {
	return func(asParts bool) (string, error) {
		if err != nil {
			return "", err
		}
		return joinParts(ps, asParts)
	}
}

// joinParts is formatToParts' JSON, or format's text.
func joinParts(ps []part, asParts bool) (string, error) {
	if asParts {
		out, err := json.Marshal(ps)
		return string(out), err
	}
	return valuesText(ps), nil
}

func jsonCall(a string, f func([]string) (any, error)) (string, error) {
	var list []string
	if err := json.Unmarshal([]byte(a), &list); err != nil {
		return "", typeError("intl: bad locales")
	}
	v, err := f(list)
	if err != nil {
		return "", err
	}
	if v == nil {
		v = []string{}
	}
	out, err := json.Marshal(v)
	return string(out), err
}

// handleCache holds what was made from handles (a resolved options'
// JSON), bounded: a guest that makes formatters in a loop only refills
// it.
type handleCache[T any] struct {
	mu sync.Mutex
	m  map[string]*T
}

const maxCached = 256

// get is the value made for handle, making it (with make) when there is
// none.
func (c *handleCache[T]) get(handle string, make func(string) (*T, error)) (*T, error) {
	c.mu.Lock()
	v, ok := c.m[handle]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := make(handle)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = map[string]*T{}
	}
	c.m[handle] = v
	c.mu.Unlock()
	return v, nil
}

var (
	formatters     handleCache[numberFormatter]
	plurals        handleCache[pluralSelector]
	dateFormatters handleCache[dateFormatter]
	collators      handleCache[collator]
)

func dateFormatterFor(handle string) (*dateFormatter, error) {
	return dateFormatters.get(handle, func(handle string) (*dateFormatter, error) {
		var h dateHandle
		if err := json.Unmarshal([]byte(handle), &h); err != nil || h.Resolved == nil {
			return nil, typeError("intl: bad handle")
		}
		return newDateFormatter(&h)
	})
}

func formatterFor(handle string) (*numberFormatter, error) {
	return formatters.get(handle, func(handle string) (*numberFormatter, error) {
		r, err := numberHandle(handle)
		if err != nil {
			return nil, err
		}
		return newNumberFormatter(r)
	})
}
