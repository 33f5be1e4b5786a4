package supervisor

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/wardenhq/warden/contract"
)

// Memory profiles. Children are prepared for one memory limit each (the
// wasm runtime's page cap, the cgroup cap and GOMEMLIMIT all follow from
// it), and the pool keeps children per profile. Keying profiles by the
// exact limit would let a caller create one profile, with its idle
// children and cgroups, per distinct memory_bytes it sends. So a
// request's limit is rounded up to a bucket for the pool key and for the
// child's caps, while the limit QuickJS enforces stays the request's own
// (the resolved limits travel with the request; a VM prepared for more
// accepts a request for less).

// memoryBuckets is the sorted set of memory profiles: cfg.MemoryBuckets,
// or powers of two from contract.MinMemoryBytes below the memory cap;
// plus the cap (every resolved limit fits a bucket), the default limit
// and each PrewarmMemory value (so that the profiles kept warm are
// exact). cfg's Defaults and Caps are already resolved
// (contract.ConfigLimits): the cap is set and the default within it.
func memoryBuckets(cfg Config) ([]int64, error) {
	def, capv := cfg.Defaults.MemoryBytes, cfg.Caps.MemoryBytes
	check := func(what string, m int64) error {
		if m < contract.MinMemoryBytes || m > capv {
			return fmt.Errorf("supervisor: %s %d is outside [%d, Caps.MemoryBytes %d]", what, m, contract.MinMemoryBytes, capv)
		}
		return nil
	}
	var b []int64
	if len(cfg.MemoryBuckets) == 0 {
		for m := int64(contract.MinMemoryBytes); m < capv; m *= 2 {
			b = append(b, m)
		}
	}
	for _, m := range cfg.MemoryBuckets {
		if err := check("Config.MemoryBuckets value", m); err != nil {
			return nil, err
		}
		b = append(b, m)
	}
	for _, m := range cfg.PrewarmMemory {
		if err := check("Config.PrewarmMemory value", m); err != nil {
			return nil, err
		}
		b = append(b, m)
	}
	b = append(b, capv, def)
	slices.Sort(b)
	return slices.Compact(b), nil
}

// prewarmKeys are the pool keys kept warm: the default limit's profile
// and PrewarmMemory's.
func prewarmKeys(cfg Config, buckets []int64) []int64 {
	keys := []int64{limitsKey(cfg.Defaults, buckets)}
	for _, m := range cfg.PrewarmMemory {
		if k := limitsKey(contract.Limits{MemoryBytes: m}, buckets); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// limitsKey is the pool key of resolved limits l: the smallest memory
// bucket that holds l.MemoryBytes. The memory cap is a bucket, so a
// resolved limit always has one; past the largest bucket it would be the
// next power of two, so that the profiles stay logarithmic in number
// whatever the buckets.
func limitsKey(l contract.Limits, buckets []int64) int64 {
	m := l.MemoryBytes
	if i, _ := slices.BinarySearch(buckets, m); i < len(buckets) {
		return buckets[i]
	}
	if m <= 0 || m > 1<<62 {
		return m
	}
	return 1 << bits.Len64(uint64(m-1))
}
