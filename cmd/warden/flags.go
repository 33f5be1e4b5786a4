package main

import (
	"errors"
	"flag"
	"reflect"
	"slices"
)

// errGivenTwice is the Set error of a single-valued flag given again.
var errGivenTwice = errors.New("given twice (the flag takes one value)")

// singleValued makes every flag of fs but the repeatable ones a usage
// error when given twice: the flag package would silently keep the last
// value (`--input A --input B` ran with B). Call it once every flag is
// defined, before Parse.
func singleValued(fs *flag.FlagSet, repeatable ...string) {
	fs.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(repeatable, f.Name) {
			// PrintDefaults takes a default that is not the wrapper's
			// zero ("") for a real one: "(default 0s)" for a duration
			// whose usage gives the default that applies.
			if f.DefValue == zeroString(f.Value) {
				f.DefValue = ""
			}
			f.Value = &onceValue{Value: f.Value}
		}
	})
}

// zeroString is what the zero of v's type prints, as flag's own check
// of a default computes it.
func zeroString(v flag.Value) string {
	t := reflect.TypeOf(v)
	if t.Kind() != reflect.Pointer {
		return ""
	}
	return reflect.New(t.Elem()).Interface().(flag.Value).String()
}

// onceValue is a flag.Value that takes one Set.
type onceValue struct {
	flag.Value
	set bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return errGivenTwice
	}
	v.set = true
	return v.Value.Set(s)
}

// IsBoolFlag keeps a boolean flag one that takes no argument.
func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// String serves flag.PrintDefaults, which calls it on a zero onceValue.
func (v *onceValue) String() string {
	if v == nil || v.Value == nil {
		return ""
	}
	return v.Value.String()
}

// parseInterspersed parses args with fs, taking flags after the
// positional arguments too (`warden run FILE.js --input X`, as most CLIs
// do; the flag package stops at the first non-flag). Everything after
// "--" is positional. It returns the positional arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// fs.Parse consumed a "--" if it met one: then rest is all
		// positional.
		if len(rest) == 0 || terminated(args, rest) {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// terminated reports whether the parse of args stopped at a "--" (the
// argument before rest).
func terminated(args, rest []string) bool {
	i := len(args) - len(rest) - 1
	return i >= 0 && args[i] == "--"
}
