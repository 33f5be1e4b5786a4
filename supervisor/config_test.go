package supervisor

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// TestPartialCapsKeepTheOthers: setting one cap leaves the others at
// contract.DefaultCaps, so a request for 1 GiB of memory is still clamped.
func TestPartialCapsKeepTheOthers(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 1; c.Caps = contract.Limits{Timeout: 5 * time.Second} })
	res, err := s.Execute(context.Background(), contract.Request{Code: "return 1",
		Limits: contract.Limits{Timeout: time.Minute, MemoryBytes: 1 << 30, OutputBytes: 1 << 40}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := contract.DefaultLimits
	want.Timeout = 5 * time.Second
	want.MemoryBytes = contract.DefaultCaps.MemoryBytes
	want.OutputBytes = contract.DefaultCaps.OutputBytes
	if res.Limits != want {
		t.Errorf("limits in force %+v, want %+v", res.Limits, want)
	}
	for _, f := range []string{"timeout_ms", "memory_bytes", "output_bytes"} {
		if !slices.Contains(res.Clamped, f) {
			t.Errorf("clamped %v, want it to name %s", res.Clamped, f)
		}
	}
}

// TestPartialDefaultsKeepTheOthers: setting one default leaves the others
// at contract.DefaultLimits instead of failing New.
func TestPartialDefaultsKeepTheOthers(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 1; c.Defaults = contract.Limits{Timeout: 2 * time.Second} })
	res, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := contract.DefaultLimits
	want.Timeout = 2 * time.Second
	if res.Limits != want || len(res.Clamped) != 0 {
		t.Errorf("limits in force %+v (clamped %v), want %+v", res.Limits, res.Clamped, want)
	}
}

// TestDefaultsAboveCaps: a default set above its cap is an error from New
// that names the field; a default left unset is lowered to a cap set
// below it.
func TestDefaultsAboveCaps(t *testing.T) {
	_, err := New(Config{CacheDir: cacheDir, Cgroups: CgroupsOff,
		Defaults: contract.Limits{MemoryBytes: 64 << 20, OutputBytes: 1 << 20},
		Caps:     contract.Limits{MemoryBytes: 32 << 20}})
	if err == nil {
		t.Fatal("New took a default memory limit above the memory cap")
	}
	if msg := err.Error(); !strings.Contains(msg, "memory_bytes") || !strings.Contains(msg, "Caps") || strings.Contains(msg, "output_bytes") {
		t.Errorf("error %q should name memory_bytes (only) and Caps", msg)
	}

	s := newSup(t, func(c *Config) { c.PoolSize = 1; c.Caps = contract.Limits{MemoryBytes: 8 << 20} })
	res, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Limits.MemoryBytes != 8<<20 || len(res.Clamped) != 0 {
		t.Errorf("default memory %d (clamped %v), want the 8 MiB cap, unclamped", res.Limits.MemoryBytes, res.Clamped)
	}
}

// TestNegativeCapsRefused: a negative cap or default is an error, not
// "uncapped".
func TestNegativeCapsRefused(t *testing.T) {
	for _, cfg := range []Config{
		{Caps: contract.Limits{DataBytes: -1}},
		{Defaults: contract.Limits{OutputBytes: -1}},
	} {
		cfg.CacheDir, cfg.Cgroups = cacheDir, CgroupsOff
		if s, err := New(cfg); err == nil {
			s.Close(context.Background())
			t.Errorf("New took %+v / %+v", cfg.Defaults, cfg.Caps)
		}
	}
}

// TestSmallKeepWarmRaised: a KeepWarm under a millisecond is raised to
// 100ms as documented; it must reach the child as 100ms, not as zero
// (which turns keep-warm off).
func TestSmallKeepWarmRaised(t *testing.T) {
	for _, tc := range []struct {
		keepWarm time.Duration
		wantMS   int64
	}{
		{500 * time.Microsecond, 100},
		{50 * time.Millisecond, 100},
		{0, 1000},
		{-1, 0},
	} {
		t.Run(tc.keepWarm.String(), func(t *testing.T) {
			s := newSup(t, func(c *Config) { c.PoolSize = 1; c.KeepWarm = tc.keepWarm })
			cfg := idleChildConfig(t, s)
			if cfg.KeepWarmMS != tc.wantMS {
				t.Errorf("KeepWarm %v reached the child as %d ms, want %d", tc.keepWarm, cfg.KeepWarmMS, tc.wantMS)
			}
		})
	}
}

// idleChildConfig waits for an idle child of s and reads the
// configuration it was started with from its environment.
func idleChildConfig(t *testing.T, s *Supervisor) ipc.ChildConfig {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); s.Stats().Pool.Idle < 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no idle child: %+v", s.Stats().Pool)
		}
	}
	for _, pid := range childPIDs(t) {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(string(env), "\x00") {
			if v, ok := strings.CutPrefix(kv, ipc.ChildConfigEnv+"="); ok {
				var cfg ipc.ChildConfig
				if err := json.Unmarshal([]byte(v), &cfg); err != nil {
					t.Fatal(err)
				}
				if !cfg.CompileOnly {
					return cfg
				}
			}
		}
	}
	t.Fatal("found no child with a configuration in its environment")
	return ipc.ChildConfig{}
}
