package attacks_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/attacks"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// The test binary is also the child: the supervisor re-executes it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

var cacheDir string

// TestCorpus runs every script of the corpus once through a real
// supervisor, two at a time (the suite's machine has two cores), and
// checks each expectation. A script marked known is reported, not
// failed; one marked known that passes fails, so the mark goes when the
// defect is fixed.
func TestCorpus(t *testing.T) {
	scripts, err := attacks.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	s, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, PoolSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	testutil.CloseAtEnd(t, s)
	exec := func(ctx context.Context, req contract.Request, h contract.DataHandler) contract.Result {
		res, _ := s.Execute(ctx, req, h)
		return res
	}
	reports := make([]attacks.Report, len(scripts))
	work := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range 2 {
		wg.Go(func() {
			for i := range work {
				reports[i] = scripts[i].Run(context.Background(), exec, nil)
			}
		})
	}
	for i := range scripts {
		work <- i
	}
	close(work)
	wg.Wait()
	t.Logf("%d scripts in %v", len(scripts), time.Since(start).Round(time.Millisecond))
	for _, r := range reports {
		t.Run(r.Script.Name, func(t *testing.T) {
			switch {
			case r.Script.Known != "" && r.Err == nil:
				t.Errorf("marked known (%s) but passes: remove the mark", r.Script.Known)
			case r.Script.Known != "":
				t.Logf("known failure (%s): %v", r.Script.Known, r.Err)
			case r.Err != nil:
				t.Errorf("%v\nenvelope error: %+v\nstats: %+v", r.Err, r.Result.Error, r.Result.Stats)
			}
		})
	}
}

// TestCorpusSize holds the corpus to its promise: at least 150 scripts,
// and every category covered by several.
func TestCorpusSize(t *testing.T) {
	scripts, err := attacks.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) < 150 {
		t.Errorf("%d scripts, want at least 150", len(scripts))
	}
	per := map[string]int{}
	for _, s := range scripts {
		per[s.Category]++
	}
	for _, c := range attacks.Categories {
		if per[c] < 10 {
			t.Errorf("category %s has %d scripts, want at least 10", c, per[c])
		}
	}
	t.Logf("per category: %v", per)
}
