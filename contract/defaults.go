package contract

import (
	"errors"
	"fmt"
	"strings"
)

// WithDefaults returns l with every zero field taken from d: a
// configuration that sets some limits keeps d's values for the others.
// Negative fields are kept (and refused by Resolve and CheckCaps).
func (l Limits) WithDefaults(d Limits) Limits {
	lf, df := l.fields(), d.fields()
	for i, f := range lf {
		if *f.v == 0 {
			*f.v = *df[i].v
		}
	}
	return l
}

// CheckCaps reports, as one error naming every offending field,
// the fields of defaults that are negative or above their cap in caps,
// and the fields of caps that are negative. A zero field of either is
// not checked: it means "the default", to be filled in (WithDefaults)
// first by a caller that wants it checked.
func CheckCaps(defaults, caps Limits) error {
	var errs []string
	df, cf := defaults.fields(), caps.fields()
	for i, c := range cf {
		d := df[i]
		switch {
		case *c.v < 0:
			errs = append(errs, "cap "+c.name+" is negative")
		case *d.v < 0:
			errs = append(errs, "default "+d.name+" is negative")
		case *c.v > 0 && *d.v > *c.v:
			errs = append(errs, fmt.Sprintf("default %s %s is above its cap %s", d.name, d.format(*d.v), c.format(*c.v)))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "; "))
}

// ConfigLimits resolves a configuration's defaults and caps, field by
// field: a zero cap takes DefaultCaps's, a default set above its cap (or
// a negative field) is an error, and a zero default takes
// DefaultLimits's, lowered to its cap. The supervisor and the in-process
// engine configure their limits through it.
func ConfigLimits(defaults, caps Limits) (Limits, Limits, error) {
	caps = caps.WithDefaults(DefaultCaps)
	if err := CheckCaps(defaults, caps); err != nil {
		return Limits{}, Limits{}, err
	}
	resolved, _, err := Resolve(defaults, DefaultLimits, caps)
	if err != nil {
		return Limits{}, Limits{}, err
	}
	return resolved, caps, nil
}
