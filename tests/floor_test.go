package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/median"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// BenchmarkFloor: what the cheapest process per execution costs on this
// machine, beside what a Warden child costs, in one run, two at a time:
// a static Go binary that does nothing (testdata/floor/nothing), one
// that maps the compilation cache's files, touches their pages and says
// ready (testdata/floor/mapready), and a child of bin/warden through
// the supervisor running a trivial script. Reported per process: the
// child's CPU (user+sys, from the kernel for the floors, the envelope's
// child_cpu_ms for Warden), the parent's CPU (this process's, for the
// fork, exec and wait; the whole supervisor for Warden) and the wall
// time, as medians, and Warden's child CPU as a multiple of each floor.
func BenchmarkFloor(b *testing.B) {
	testutil.RequireCmd(b, "go")
	dir := b.TempDir()
	bins := map[string]string{}
	for _, name := range []string{"nothing", "mapready"} {
		bin := filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", bin, "./testdata/floor/"+name+"/main.go")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", name, err, out)
		}
		bins[name] = bin
	}
	// The children are bin/warden's (not this test binary, which links
	// every test's dependencies), on a cache of their own: what mapready
	// maps is what one supervisor's children map.
	warden := testutil.BuildWarden(b, "..", dir)
	cache := testutil.TempPublicDir(b)
	sup, err := supervisor.New(supervisor.Config{Binary: warden, CacheDir: cache, PoolSize: 2, QueueTimeout: testutil.Timeout(), StartTimeout: testutil.Timeout()})
	if err != nil {
		b.Fatal(err)
	}
	defer sup.Close(context.Background())
	req := contract.Request{Code: "return input.a + input.b", Input: []byte(`{"a":1,"b":2}`)}
	if res, _ := sup.Execute(context.Background(), req, nil); !res.OK {
		b.Fatalf("%+v", res.Error)
	}

	type sample struct{ child, parent, wall []float64 }
	samples := map[string]*sample{"nothing": {}, "mapready": {}, "warden": {}}
	// pair runs two at a time and records each one's child CPU, and the
	// parent's CPU and the wall time of the pair, per process; the
	// parent's CPU runs on until settle returns (the pool's refill).
	pair := func(kind string, one func() (childMS float64), settle func()) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		cpu0, start := selfCPU(), time.Now()
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := one()
				mu.Lock()
				samples[kind].child = append(samples[kind].child, c)
				mu.Unlock()
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		settle()
		s := samples[kind]
		s.parent = append(s.parent, float64(selfCPU()-cpu0)/2e6)
		s.wall = append(s.wall, float64(wall)/2e6)
	}
	exe := func(bin string, args ...string) func() float64 {
		return func() float64 {
			cmd := exec.Command(bin, args...)
			cmd.Env = []string{}
			if err := cmd.Run(); err != nil {
				b.Errorf("%s: %v", bin, err)
				return 0
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			return float64(time.Duration(ru.Utime.Nano()+ru.Stime.Nano())) / 1e6
		}
	}
	refilled := func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if st := sup.Stats().Pool; st.Idle == 2 && st.Spawning == 0 {
				return
			}
		}
		b.Fatal("the pool did not refill within 10s")
	}
	refilled()
	for b.Loop() {
		pair("nothing", exe(bins["nothing"]), func() {})
		pair("mapready", exe(bins["mapready"], cache), func() {})
		pair("warden", func() float64 {
			res, _ := sup.Execute(context.Background(), req, nil)
			if !res.OK {
				b.Errorf("%+v", res.Error)
			}
			return res.Stats.ChildCPUMS
		}, refilled)
	}
	for _, kind := range []string{"nothing", "mapready", "warden"} {
		s := samples[kind]
		b.ReportMetric(median.Of(s.child), kind+"-child-cpu-ms")
		b.ReportMetric(median.Of(s.parent), kind+"-parent-cpu-ms")
		b.ReportMetric(median.Of(s.wall), kind+"-wall-ms")
	}
	w := median.Of(samples["warden"].child)
	b.ReportMetric(w/median.Of(samples["nothing"].child), "warden/nothing")
	b.ReportMetric(w/median.Of(samples["mapready"].child), "warden/mapready")
}

// selfCPU is this process's CPU time so far (user+sys, every thread).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
