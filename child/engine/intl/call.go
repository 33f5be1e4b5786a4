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
	switch op {
	case "canonicalize":
		return jsonCall(a, func(list []string) (any, error) { return canonicalizeLocaleList(list) })
	case "supported":
		return jsonCall(a, func(list []string) (any, error) {
			c, err := canonicalizeLocaleList(list)
			if err != nil {
				return nil, err
			}
			return supportedLocalesOf(c)
		})
	case "nf.resolve", "pr.resolve":
		var locales []string
		var o numberOptions
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
		var r *numberResolved
		if op == "nf.resolve" {
			r, err = resolveNumberFormat(locales, &o)
		} else {
			r, err = resolvePluralRules(locales, &o)
		}
		if err != nil {
			return "", err
		}
		out, err := json.Marshal(r)
		return string(out), err
	case "nf.format", "nf.parts":
		f, err := formatterFor(a)
		if err != nil {
			return "", err
		}
		parts := f.formatParts(parseValue(b))
		if op == "nf.parts" {
			out, err := json.Marshal(parts)
			return string(out), err
		}
		var s strings.Builder
		for _, p := range parts {
			s.WriteString(p.Value)
		}
		return s.String(), nil
	case "dtf.resolve":
		var locales []string
		var o dateOptions
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
		h, err := resolveDateTimeFormat(locales, &o)
		if err != nil {
			return "", err
		}
		out, err := json.Marshal(h)
		return string(out), err
	case "dtf.format", "dtf.parts":
		f, err := dateFormatterFor(a)
		if err != nil {
			return "", err
		}
		ms, err := strconv.ParseFloat(b, 64)
		if err != nil {
			ms = math.NaN()
		}
		parts, err := f.formatParts(ms)
		if err != nil {
			return "", err
		}
		if op == "dtf.parts" {
			out, err := json.Marshal(parts)
			return string(out), err
		}
		var s strings.Builder
		for _, p := range parts {
			s.WriteString(p.Value)
		}
		// V8's format (not formatToParts) writes U+202F, CLDR's space
		// before AM/PM among others, as a plain space, for the web's sake.
		return strings.ReplaceAll(s.String(), "\u202f", " "), nil
	case "pr.select":
		p, err := pluralFor(a)
		if err != nil {
			return "", err
		}
		return p.selectValue(parseValue(b)), nil
	case "pr.categories":
		p, err := pluralFor(a)
		if err != nil {
			return "", err
		}
		out, err := json.Marshal(p.rules.categories)
		return string(out), err
	}
	return "", typeError("intl: unknown operation " + op)
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

// The formatters made from handles (a resolved options' JSON), bounded:
// a guest that makes formatters in a loop only refills the cache.
var (
	cacheMu    sync.Mutex
	formatters = map[string]*numberFormatter{}
	plurals    = map[string]*pluralSelector{}
	dates      = map[string]*dateFormatter{}
)

func dateFormatterFor(handle string) (*dateFormatter, error) {
	cacheMu.Lock()
	f, ok := dates[handle]
	cacheMu.Unlock()
	if ok {
		return f, nil
	}
	var h dateHandle
	if err := json.Unmarshal([]byte(handle), &h); err != nil || h.Resolved == nil {
		return nil, typeError("intl: bad handle")
	}
	f, err := newDateFormatter(&h)
	if err != nil {
		return nil, err
	}
	cacheMu.Lock()
	if len(dates) >= maxCached {
		clear(dates)
	}
	dates[handle] = f
	cacheMu.Unlock()
	return f, nil
}

const maxCached = 256

func formatterFor(handle string) (*numberFormatter, error) {
	cacheMu.Lock()
	f, ok := formatters[handle]
	cacheMu.Unlock()
	if ok {
		return f, nil
	}
	var r numberResolved
	if err := json.Unmarshal([]byte(handle), &r); err != nil {
		return nil, typeError("intl: bad handle")
	}
	r.RoundingType = roundingTypeOf(&r)
	f, err := newNumberFormatter(&r)
	if err != nil {
		return nil, err
	}
	cacheMu.Lock()
	if len(formatters) >= maxCached {
		clear(formatters)
	}
	formatters[handle] = f
	cacheMu.Unlock()
	return f, nil
}

// roundingTypeOf recovers the rounding type from resolved options.
func roundingTypeOf(r *numberResolved) string {
	switch {
	case r.RoundingPriority == "morePrecision" || r.RoundingPriority == "lessPrecision":
		return r.RoundingPriority
	case r.MinimumSignificantDigits != nil:
		return "significantDigits"
	}
	return "fractionDigits"
}
