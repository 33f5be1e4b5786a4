package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

const mib = 1 << 20

func TestMemoryBuckets(t *testing.T) {
	caps := contract.DefaultCaps // memory cap 256 MiB
	def20 := contract.DefaultLimits
	def20.MemoryBytes = 20 * mib
	caps100 := caps
	caps100.MemoryBytes = 100 * mib
	tests := []struct {
		name    string
		cfg     Config
		want    []int64
		wantErr bool
	}{
		{name: "powers of two up to the cap",
			cfg:  Config{Defaults: contract.DefaultLimits, Caps: caps},
			want: []int64{1 * mib, 2 * mib, 4 * mib, 8 * mib, 16 * mib, 32 * mib, 64 * mib, 128 * mib, 256 * mib}},
		{name: "the default limit and the prewarmed ones are exact",
			cfg:  Config{Defaults: def20, Caps: caps100, PrewarmMemory: []int64{48 * mib}},
			want: []int64{1 * mib, 2 * mib, 4 * mib, 8 * mib, 16 * mib, 20 * mib, 32 * mib, 48 * mib, 64 * mib, 100 * mib}},
		{name: "configured buckets plus the default and the cap",
			cfg:  Config{Defaults: contract.DefaultLimits, Caps: caps, MemoryBuckets: []int64{64 * mib, 8 * mib, 64 * mib}},
			want: []int64{8 * mib, 16 * mib, 64 * mib, 256 * mib}},
		{name: "bucket over the cap", cfg: Config{Defaults: contract.DefaultLimits, Caps: caps, MemoryBuckets: []int64{512 * mib}}, wantErr: true},
		{name: "prewarm under the minimum", cfg: Config{Defaults: contract.DefaultLimits, Caps: caps, PrewarmMemory: []int64{1000}}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := memoryBuckets(tc.cfg)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error %v", err, tc.wantErr)
			}
			if !tc.wantErr && !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLimitsKey(t *testing.T) {
	buckets := []int64{1 * mib, 16 * mib, 64 * mib}
	tests := []struct{ memory, want int64 }{
		{1 * mib, 1 * mib},
		{1*mib + 1, 16 * mib},
		{16 * mib, 16 * mib},
		{16*mib + 1, 64 * mib},
		{64 * mib, 64 * mib},
		// Past the largest bucket (no memory cap): the next power of two.
		{64*mib + 1, 128 * mib},
		{300 * mib, 512 * mib},
	}
	for _, tc := range tests {
		if got := limitsKey(contract.Limits{MemoryBytes: tc.memory}, buckets); got != tc.want {
			t.Errorf("limitsKey(%d) = %d, want %d", tc.memory, got, tc.want)
		}
	}
}

// TestManyMemoryProfiles: requests with distinct memory limits share a
// handful of profiles. Before buckets, every distinct memory_bytes made a
// profile kept at PoolSize idle children forever (16 requests left 17
// idle children). Now the profiles stay within the buckets, live
// children within MaxChildren (sampled while the requests run), every
// request succeeds or ends with CapacityError, and after ProfileIdleTTL
// only the default profile's children and cgroups are left.
func TestManyMemoryProfiles(t *testing.T) {
	const maxChildren, ttl = 4, time.Second
	s := newSup(t, func(c *Config) {
		c.PoolSize = 1
		c.MaxChildren = maxChildren
		c.ProfileIdleTTL = ttl
		c.QueueTimeout = 10 * time.Second
	})
	total, callers := 200, 4
	if testing.Short() {
		total = 60
	}
	stop := make(chan struct{})
	sampler := sync.WaitGroup{}
	var over atomic.Value // string: the first sample over a bound
	var samples, maxLive, maxProfiles, maxPIDs atomic.Int32
	raise := func(m *atomic.Int32, v int) {
		for old := m.Load(); int32(v) > old && !m.CompareAndSwap(old, int32(v)); old = m.Load() {
		}
	}
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			st := s.Stats().Pool
			n := len(childPIDs(nil))
			samples.Add(1)
			raise(&maxLive, st.Live)
			raise(&maxProfiles, st.Profiles)
			raise(&maxPIDs, n)
			if st.Live > maxChildren || n > maxChildren || st.Profiles > len(s.buckets) {
				over.CompareAndSwap(nil, fmt.Sprintf("%d child processes, pool %+v", n, st))
			}
		}
	}()
	var ok, capacity atomic.Int32
	var wg sync.WaitGroup
	for c := 0; c < callers; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; i < total; i += callers {
				// Distinct limits spread over every bucket.
				mem := int64(contract.MinMemoryBytes) + int64(i)*(255*mib/int64(total)) + int64(i) + 1
				res, err := s.Execute(context.Background(), contract.Request{Code: "return 1",
					Limits: contract.Limits{MemoryBytes: mem}}, nil)
				switch {
				case err == nil:
					ok.Add(1)
					if res.Limits.MemoryBytes != mem {
						t.Errorf("request %d: limit in force %d, want the exact %d", i, res.Limits.MemoryBytes, mem)
					}
				case errors.Is(err, contract.ErrCapacity):
					capacity.Add(1)
				default:
					t.Errorf("request %d (memory %d): %v", i, mem, err)
				}
			}
		}(c)
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	st := s.Stats().Pool
	t.Logf("%d ok, %d CapacityError; %d samples: at most %d live, %d child processes, %d profiles (%d buckets); pool %+v",
		ok.Load(), capacity.Load(), samples.Load(), maxLive.Load(), maxPIDs.Load(), maxProfiles.Load(), len(s.buckets), st)
	if v := over.Load(); v != nil {
		t.Fatalf("over a bound (MaxChildren %d, %d buckets): %s", maxChildren, len(s.buckets), v)
	}
	if ok.Load() == 0 {
		t.Fatal("no request succeeded")
	}

	// After the TTL only the default profile is left, with its children
	// and cgroups.
	deadline := time.Now().Add(ttl + 5*time.Second)
	for {
		st := s.Stats().Pool
		pids := childPIDs(t)
		groups, hierarchies := childCgroups()
		if st.Profiles == 1 && st.Live == 1 && st.Idle == 1 && len(pids) == 1 && len(groups) == hierarchies {
			t.Logf("after the idle TTL: pool %+v; child cgroups %v", st, groups)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the idle TTL: pool %+v, child processes %v, child cgroups %v (in %d hierarchies)", st, pids, groups, hierarchies)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// childCgroups lists this supervisor's child cgroups and the number of
// hierarchies it has groups in (0 without cgroups).
func childCgroups() (groups []string, hierarchies int) {
	dirs := wardenCgroups(os.Getpid())
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "child-*"))
		groups = append(groups, m...)
	}
	return groups, len(dirs)
}

// TestBucketKeepsTheExactLimit: a request's child comes from a larger
// bucket, but QuickJS enforces the request's own memory limit.
func TestBucketKeepsTheExactLimit(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 1 })
	code := `return "x".repeat(20 * 1024 * 1024).length`
	_, err := s.Execute(context.Background(), contract.Request{Code: code, Limits: contract.Limits{MemoryBytes: 17 * mib}}, nil)
	if !errors.Is(err, contract.ErrResource) {
		t.Fatalf("20 MiB string under a 17 MiB limit (32 MiB bucket): want ResourceError, got %v", err)
	}
	res, err := s.Execute(context.Background(), contract.Request{Code: code, Limits: contract.Limits{MemoryBytes: 30 * mib}}, nil)
	if err != nil || string(res.Value) != "20971520" {
		t.Fatalf("same bucket, 30 MiB limit: %v %s", err, res.Value)
	}
}

// TestMaxChildrenCapacityError: with every child under MaxChildren busy,
// an execution waits out QueueTimeout and gets a CapacityError that says
// so; once one finishes, executions run again.
func TestMaxChildrenCapacityError(t *testing.T) {
	s := newSup(t, func(c *Config) {
		c.PoolSize = 1
		c.MaxChildren = 2
		c.QueueTimeout = 2 * time.Second
	})
	waitIdle(t, s, 1) // the compilation cache may be cold
	release := make(chan struct{})
	held := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return json.RawMessage("1"), nil
	}
	var wg sync.WaitGroup
	for _, mem := range []int64{16 * mib, 64 * mib} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Execute(context.Background(), contract.Request{Code: "return await host.request('hold')",
				Limits: contract.Limits{MemoryBytes: mem, Timeout: 20 * time.Second}}, held)
			if err != nil {
				t.Errorf("held execution (memory %d): %v", mem, err)
			}
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); s.Stats().Pool.Busy < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			close(release)
			t.Fatalf("the two held executions did not start: %+v", s.Stats().Pool)
		}
	}
	_, err := s.Execute(context.Background(), contract.Request{Code: "return 1", Limits: contract.Limits{MemoryBytes: 4 * mib}}, nil)
	if !errors.Is(err, contract.ErrCapacity) || !strings.Contains(err.Error(), "2 of at most 2 children alive") {
		t.Fatalf("want a CapacityError naming the cap, got %v", err)
	}
	close(release)
	wg.Wait()
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1", Limits: contract.Limits{MemoryBytes: 4 * mib}}, nil); err != nil {
		t.Fatalf("after the held executions ended: %v", err)
	}
}

// waitIdle waits until the pool holds n idle children.
func waitIdle(t *testing.T, s *Supervisor, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); s.Stats().Pool.Idle < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the pool did not fill: %+v", s.Stats().Pool)
		}
	}
}
