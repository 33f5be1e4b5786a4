// Package median is the one median Warden reports (start-up phases in
// supervisor.Stats, idle child memory in warden bench): the middle value
// of the sorted samples, or the mean of the two middle ones when their
// number is even.
package median

import (
	"cmp"
	"slices"
)

// Number is what a median is taken of.
type Number interface {
	~int | ~int64 | ~uint64 | ~float64
}

// Of is the median of v, 0 when v is empty. It sorts a copy: v is left
// as it is.
func Of[T Number](v []T) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.SortFunc(s, cmp.Compare[T])
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return float64(s[mid])
	}
	return (float64(s[mid-1]) + float64(s[mid])) / 2
}
