package supervisor

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/wardenhq/warden/contract"
)

// Memory sizing: everything the supervisor computes about a child's
// memory, from the request's limit to the kernel's caps. Both sides of
// the supervisor use it: the request path picks a profile (limitsKey),
// the spawner sizes the child it starts for that profile.
//
// A request asks for memory_bytes m of QuickJS heap (resolved against
// Config.Defaults and Caps). From m:
//
//	profile   P = limitsKey(m)                 smallest bucket >= m (memoryBuckets)
//	linear    L = contract.LinearMemoryCap(P)  P + P/4 + 4 MiB: the engine's page cap
//	cgroup    C = L + Config.MemoryOverheadBytes       childMemoryCap; default overhead 48 MiB
//	Go        GOMEMLIMIT = C - goMemoryHeadroom        goMemLimit (ChildGoMemLimit); 12 MiB
//	no cgroup RLIMIT_DATA = C + rlimitDataSlack        rlimitDataBytes; 256 MiB
//
// and QuickJS's own heap limit stays m, the request's exact limit: the
// resolved limits travel with the request, and a VM prepared for P
// accepts a request for less. Only L belongs to the contract (the engine
// enforces it in every mode, in-process included), so it lives in
// contract/limits.go; the rest is the supervisor's.
//
// Why profiles. Children are prepared for one memory limit each (the
// wasm runtime's page cap, the cgroup cap and GOMEMLIMIT all follow from
// it), and the pool keeps children per profile. Keying profiles by the
// exact limit would let a caller create one profile, with its idle
// children and cgroups, per distinct memory_bytes it sends. So a
// request's limit is rounded up to a bucket for the pool key and for the
// child's caps.
//
// Why GOMEMLIMIT with GOGC=off (childRuntimeEnv): a child lives for one
// execution, and collecting during start-up costs CPU for garbage it
// would never reuse. The limit still makes the collector run as the heap
// nears it, so a long execution's garbage (thousands of host.request
// answers, say) stays under the cgroup cap
// (tests/TestGoGarbageStaysUnderTheCap).

// DefaultMemoryOverhead is what a child needs beyond its wasm linear
// memory: the Go runtime, wazero's compiled code and the garbage of
// decoding the module at start-up. It covers the peak of a child that
// compiles the module, with room for the gRPC buffers of a large result
// (BENCHMARKS.md, "Memory overhead default").
const DefaultMemoryOverhead = 48 << 20

// goMemoryHeadroom is the part of a child's memory cap left to what the
// Go runtime does not manage (wazero's 2.5 MiB of machine code, the
// binary's pages charged to the cgroup, thread stacks).
const goMemoryHeadroom = 12 << 20

// rlimitDataSlack is what RLIMIT_DATA needs above the cgroup cap: the
// limit counts every private writable mapping, and the Go runtime maps
// its heap in 64 MiB arenas, so a child needs far more than its heap to
// start (BENCHMARKS.md, "Behind the comments") and the fallback is
// coarser than a cgroup cap.
const rlimitDataSlack = 256 << 20

// childMemoryCap is the cgroup memory cap of a child prepared for memory
// bytes of QuickJS heap: its linear-memory cap plus the runtime overhead.
func childMemoryCap(memory, overhead int64) int64 {
	return contract.LinearMemoryCap(memory) + overhead
}

// goMemLimit is the GOMEMLIMIT of a child whose memory cap is memCap.
func goMemLimit(memCap int64) int64 { return memCap - goMemoryHeadroom }

// ChildGoMemLimit is the GOMEMLIMIT of a child prepared for memory bytes
// of QuickJS heap, overhead being Config.MemoryOverheadBytes (resolved:
// DefaultMemoryOverhead when unset): its memory cap less the Go runtime's
// headroom (childRuntimeEnv). It tells a child's memory profile from
// outside the child; warden stress finds its fault victims by it.
func ChildGoMemLimit(memory, overhead int64) int64 {
	return goMemLimit(childMemoryCap(memory, overhead))
}

// rlimitDataBytes is the RLIMIT_DATA that stands in for the cgroup cap
// memCap when there is no cgroup layer (fallbackRlimits).
func rlimitDataBytes(memCap int64) int64 { return memCap + rlimitDataSlack }

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

// profile is the pool's key: children of one memory bucket, and whether
// they are TypeScript's, which warm esbuild during start-up (a first
// transform in a fresh process costs milliseconds that a JavaScript
// child should never pay: RATIONALE.md, "TypeScript in the execution's
// own child").
type profile struct {
	memory     int64
	typescript bool
}

// profileOf is the profile that serves req: its memory limit's bucket,
// TypeScript's when its code or one of its modules is TypeScript.
func profileOf(req contract.Request, buckets []int64) profile {
	p := profile{memory: limitsKey(req.Limits, buckets), typescript: req.IsTypeScript()}
	for name := range req.Modules {
		p.typescript = p.typescript || contract.IsTypeScriptModule(name)
	}
	return p
}

// prewarmKeys are the pool keys kept warm: the default limit's profile
// and PrewarmMemory's, for JavaScript (a TypeScript profile is warmed
// by its first request, and kept while used).
func prewarmKeys(cfg Config, buckets []int64) []profile {
	keys := []profile{{memory: limitsKey(cfg.Defaults, buckets)}}
	for _, m := range cfg.PrewarmMemory {
		if k := (profile{memory: limitsKey(contract.Limits{MemoryBytes: m}, buckets)}); !slices.Contains(keys, k) {
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
