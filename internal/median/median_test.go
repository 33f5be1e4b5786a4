package median

import (
	"math"
	"slices"
	"testing"
)

func TestOf(t *testing.T) {
	tests := []struct {
		name string
		v    []float64
		want float64
	}{
		{"empty", nil, 0},
		{"one", []float64{7}, 7},
		{"odd, unsorted", []float64{3, 1, 2}, 2},
		// The mean of the two middle values, not the upper one (what
		// warden bench's own median returned before).
		{"even", []float64{4, 1, 3, 2}, 2.5},
		{"even, equal middle", []float64{1, 5, 5, 9}, 5},
		{"negative", []float64{-3, -1, -2, -4}, -2.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.v)
			if got := Of(tc.v); got != tc.want {
				t.Errorf("Of(%v) = %v, want %v", tc.v, got, tc.want)
			}
			if !slices.Equal(in, tc.v) {
				t.Errorf("Of reordered its argument: %v, was %v", tc.v, in)
			}
		})
	}
}

func TestOfIntegers(t *testing.T) {
	if got := Of([]int64{10, 20, 30, 41}); got != 25 {
		t.Errorf("Of(int64s) = %v, want 25", got)
	}
	// Two large middle values: converted before they are added, so the
	// sum does not overflow.
	if got := Of([]int64{math.MaxInt64, math.MaxInt64}); got != float64(math.MaxInt64) {
		t.Errorf("Of(MaxInt64, MaxInt64) = %v", got)
	}
}

func TestOfNaN(t *testing.T) {
	// cmp.Compare orders NaN first, so a NaN sample does not scramble
	// the order the median reads.
	if got := Of([]float64{math.NaN(), 1, 2}); got != 1 {
		t.Errorf("Of(NaN, 1, 2) = %v, want 1", got)
	}
}
