package stress

import (
	"math"
	"testing"
)

// TestRSSGrowth: the soak's RSS trend compares the medians of the samples
// in the first and the last tenth of the executions, and says nothing
// when a tenth has no sample.
func TestRSSGrowth(t *testing.T) {
	const mb = 1 << 20
	samples := []Sample{
		{Executions: 0, RSSBytes: 5 * mb}, // before the first execution ended: not counted
		{Executions: 10, RSSBytes: 20 * mb},
		{Executions: 50, RSSBytes: 21 * mb},
		{Executions: 90, RSSBytes: 100 * mb}, // a spike in the first tenth: the median ignores it
		{Executions: 500, RSSBytes: 40 * mb},
		{Executions: 905, RSSBytes: 22 * mb},
		{Executions: 950, RSSBytes: 22 * mb},
		{Executions: 1000, RSSBytes: 23 * mb},
	}
	if g, want := rssGrowth(samples, 1000), 22.0/21-1; math.Abs(g-want) > 1e-9 {
		t.Errorf("rssGrowth = %v, want %v", g, want)
	}
	if g := rssGrowth(samples[:4], 1000); g != 0 {
		t.Errorf("rssGrowth with no sample in the last tenth = %v, want 0", g)
	}
}
