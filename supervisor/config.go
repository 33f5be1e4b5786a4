package supervisor

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// Config configures a Supervisor. It is copied and validated once in New;
// every zero field takes the documented default.
type Config struct {
	// Binary is the program started as a child, with ChildArgs. Default:
	// the lean child this executable carries (`make build` appends
	// cmd/warden-child to bin/warden), run from a sealed memory file;
	// else this executable (os.Executable), which must then call
	// child.RunIfChild at the top of main or be the warden binary.
	Binary string
	// ChildArgs are the child's arguments. Default: ["child"].
	ChildArgs []string
	// CacheDir is the wazero compilation cache every child shares: only
	// the supervisor writes it (with a compile child, as its own uid,
	// before the first child starts); children read it and check each
	// file's SHA-256. New creates it 0755 if missing and refuses it
	// (ErrUnsafeCache) when it, or anything in it, is a symbolic link,
	// is owned by another uid or is writable by group or others, or when
	// a directory on its path is not searchable by the children's uid.
	// Default: DefaultCacheDir (RootCacheDir as root).
	CacheDir string
	// WasmFile names a file holding the QuickJS wasm module, for a child
	// binary built without it (a plain go build or go install: `make
	// build` embeds it). New checks it against the pinned SHA-256 and
	// copies it into CacheDir, where children find it; Setup puts it
	// there too. With neither, and a child binary without the module,
	// New fails with ErrNoWasm.
	WasmFile string
	// PoolSize is the number of idle children kept ready per memory
	// profile. Default 2.
	PoolSize int
	// MemoryBuckets are the memory profiles children are prepared for: a
	// request's memory limit is rounded up to the next one for choosing
	// a child and for the child's linear-memory and cgroup caps, while
	// QuickJS enforces the request's exact limit. The default limit,
	// the memory cap and PrewarmMemory's values are always buckets.
	// Default: powers of two from 1 MiB up to the memory cap.
	MemoryBuckets []int64
	// PrewarmMemory lists memory limits whose profiles are warmed at New
	// and kept warm, besides the default limit's. Default: none.
	PrewarmMemory []int64
	// ProfileIdleTTL is how long the profile of a memory limit that is
	// not kept warm keeps its idle children after its last use; then
	// they are discarded (cgroups removed) and the pool forgets the
	// profile. Default 1m.
	ProfileIdleTTL time.Duration
	// MaxChildren caps the children alive at once across all profiles:
	// idle, busy, starting and being removed. Past it an execution waits
	// (an idle child of another profile is evicted to make room) and
	// fails with CapacityError after QueueTimeout. Default max(4 x
	// PoolSize, 2 x the CPUs), raised so that one profile more than the
	// ones kept warm fits; a value below PoolSize x the kept-warm
	// profiles is an error.
	MaxChildren int
	// SpawnConcurrency bounds children starting at once. Default 2.
	SpawnConcurrency int
	// MaxIdleAge replaces idle children older than this. Default 5m.
	MaxIdleAge time.Duration
	// QueueTimeout bounds the wait for a free child; past it an execution
	// fails with CapacityError. Default 5s.
	QueueTimeout time.Duration
	// KillGrace is how long past its deadline a child may take before its
	// process group is SIGKILLed. The child's engine stops JavaScript at
	// the deadline by itself and sends its envelope; the kill is for what
	// it cannot stop (a slow C builtin, its own Go side). Nothing is lost
	// to the kill that a longer grace would save: the child streams its
	// logs as they happen, and the supervisor's envelope of a killed
	// execution carries them. So the grace only needs to cover how late
	// the engine's own stop arrives on a loaded machine. Default
	// DefaultKillGrace.
	KillGrace time.Duration
	// StartTimeout bounds one child's whole start-up, one budget for the
	// handshake, its first ping and opening its stream: a child still not
	// ready then is killed and the spawn fails. It bounds the compile
	// child's run too, but never below a minute (compileMinTimeout).
	// Default 10s.
	StartTimeout time.Duration
	// Defaults are the limits a request gets for the fields it leaves
	// zero, and Caps the most it may ask for (a request above a cap is
	// clamped to it and says so in Result.Clamped). Both are merged field
	// by field: a zero field of Caps is contract.DefaultCaps' value, a
	// zero field of Defaults is contract.DefaultLimits' value lowered to
	// the cap. A field of Defaults set above its cap, a negative field,
	// or caps (with MaxInputBytes) that need a message to or from a child
	// over the 2 GiB gRPC carries (ipc.DeriveWireCaps), is an error from
	// New.
	Defaults contract.Limits
	Caps     contract.Limits
	// MaxInputBytes caps a request's Input (its JSON text): a larger
	// input is a ContractError before any child is taken, so that no
	// caller makes the supervisor copy and send an unbounded input.
	// Default DefaultMaxInputBytes.
	MaxInputBytes int64
	// Cgroups selects the cgroup layer: CgroupsAuto (default) uses
	// cgroups where the machine allows and falls back to rlimits on the
	// child otherwise (RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NPROC);
	// CgroupsRequired fails New without them;
	// CgroupsOff never uses them.
	Cgroups CgroupPolicy
	// CgroupParent is the cgroup children are created below. Default: the
	// supervisor's own cgroup.
	CgroupParent string
	// MemoryOverheadBytes is added to the wasm linear-memory cap to form
	// the child's cgroup memory cap: the Go runtime, wazero's compiled
	// code and the module's decode. Default 48 MiB (see BENCHMARKS.md).
	MemoryOverheadBytes int64
	// PidsMax caps the tasks (threads included) in a child's cgroup.
	// Default 64.
	PidsMax int64
	// NoNamespaces, NoSeccomp and NoRlimits switch off single layers of
	// the child's hardening (all on by default, where the kernel allows):
	// for measurements and for tests that attack one layer at a time.
	NoNamespaces, NoSeccomp, NoRlimits bool
	// ChildUIDBase and ChildUIDCount are the ids children run as when the
	// supervisor is root: each live child gets a uid of its own from
	// [ChildUIDBase, ChildUIDBase+ChildUIDCount), and a gid equal to it,
	// reused only after its previous holder is reaped; when all are
	// held, a spawn fails with ErrNoChildUID. Distinct ids keep children
	// from signalling, tracing or reading one another (kill and ptrace
	// need the same uid). Each zero field takes its default on its own:
	// DefaultChildUIDBase (2^30) and DefaultChildUIDCount (65536), so no
	// child ever gets uid 0. New refuses a negative value, a range past
	// 2^31, and a range that a user, group or subordinate-id range of
	// this machine claims. Without root
	// a user namespace makes children unprivileged instead, and these are
	// unused.
	ChildUIDBase, ChildUIDCount int
	// ChildAsSupervisorUser keeps children as the supervisor's own user
	// (root, when it is root) instead of giving each its own uid: for
	// measurements and for tests that attack one layer at a time.
	ChildAsSupervisorUser bool
	// KeepWarm is how often an idle child re-reads the memory it has
	// resident, so that an execution after a long idle spell does not
	// pay for memory gone cold (BENCHMARKS.md measures both the gain and
	// the idle child's CPU it costs). Default 1s; a positive value under
	// 100ms is raised to 100ms; negative turns it off.
	KeepWarm time.Duration
	// ReapedUsage makes Execute wait until the child is reaped and report
	// the kernel's account of it (Stats.ChildCPUMS and ChildMaxRSSBytes
	// from wait4's rusage, so CPU the child spent after its result and
	// its exit count too) instead of the child's own getrusage sent with
	// its result. The kernel's figures hold even for a child whose Go
	// side was subverted; waiting costs latency (BENCHMARKS.md). Default
	// false: the child reports, and the reap happens off the caller's
	// path; a child killed at its deadline, which cannot report, then
	// has no such figures either (its reap would delay the envelope).
	ReapedUsage bool
	// Modules are host-approved modules, name -> source (a name ending
	// in ".ts" is TypeScript, imported by that name), and ModulesDir a
	// directory of them (each regular .js, .mjs or .ts file is a module
	// named by its file name without the extension). They are compiled
	// once, by the compile child, and evaluated into every child's heap
	// (the heap snapshot) before any untrusted code exists: code imports
	// them by name (import _ from "lodash-es") at the cost of a lookup.
	// They are trusted code, run with the prelude's rights: a module that
	// imports a name outside them, or whose top level fails, makes New
	// fail. A request's own modules cannot take their names, and
	// Request.Imports limits which a request may import. Each child has
	// its own copy of their objects. Default: none.
	Modules    map[string]string
	ModulesDir string
	// MaxModulesBytes caps the registered modules' sources, all
	// together. Default DefaultMaxModulesBytes.
	MaxModulesBytes int64
	// ModulesHeapBytes is the QuickJS heap the registered modules may
	// take once evaluated: every memory profile's linear-memory and
	// cgroup caps grow by it, and a request's memory_bytes comes on top.
	// Default: eight times their sources' size plus 4 MiB.
	ModulesHeapBytes int64
	// ParkKey is the AES-256 key (32 bytes) that seals parked states
	// (contract.ErrPark) under ParkKeyID; supervisors that should resume
	// each other's states share it. ParkOldKeys are earlier keys by id,
	// which still open the states they sealed (rotation). Default: a
	// random key, so only this supervisor resumes its states.
	ParkKey     []byte
	ParkKeyID   string
	ParkOldKeys map[string][]byte
	// ParkTTL is how long a parked state can be resumed. Default
	// DefaultParkTTL.
	ParkTTL time.Duration
	// Logger receives the supervisor's logs, and what children write to
	// stderr as bounded, rate-limited text under the fixed message
	// "child stderr" (a child cannot make a record of its own).
	// Default: discard.
	Logger *slog.Logger
}

// DefaultKillGrace is Config.KillGrace's default: long enough that the
// child's engine, which stops JavaScript at the deadline by itself,
// normally ends the execution first on a loaded machine, and short
// enough that what it cannot stop ends soon after the deadline
// (BENCHMARKS.md, "The hard stop").
const DefaultKillGrace = 20 * time.Millisecond

// DefaultMaxModulesBytes is Config.MaxModulesBytes's default.
const DefaultMaxModulesBytes = 16 << 20

// DefaultStartTimeout bounds one child's start-up when
// Config.StartTimeout is zero.
const DefaultStartTimeout = 10 * time.Second

// CgroupPolicy says whether children get cgroups.
type CgroupPolicy int

// The cgroup policies.
const (
	CgroupsAuto CgroupPolicy = iota
	CgroupsRequired
	CgroupsOff
)

// resolveChildCommand resolves the child's binary, its arguments and the
// logger. With no Binary, children are the lean child this executable
// carries, when it carries one that starts here (lean; note says why
// not), else this executable.
func resolveChildCommand(cfg *Config) (lean *leanChild, note string, err error) {
	if cfg.Binary == "" {
		if lean, note, err = startLeanChild(); err != nil {
			return nil, "", err
		}
		if lean != nil {
			cfg.Binary = lean.path()
		} else {
			exe, err := os.Executable()
			if err != nil {
				return nil, "", fmt.Errorf("supervisor: find own executable: %w", err)
			}
			cfg.Binary = exe
		}
	} else {
		note = "Config.Binary: " + cfg.Binary
	}
	if _, err := os.Stat(cfg.Binary); err != nil {
		lean.close()
		return nil, "", fmt.Errorf("supervisor: child binary: %w", err)
	}
	if cfg.ChildArgs == nil {
		cfg.ChildArgs = []string{"child"}
	}
	cfg.ChildArgs = append([]string(nil), cfg.ChildArgs...)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return lean, note, nil
}

// resolveDefaults refuses negative durations and sizes and resolves every
// other default, so that what reaches a child is final.
func resolveDefaults(cfg *Config) error {
	if cfg.KillGrace < 0 || cfg.QueueTimeout < 0 || cfg.StartTimeout < 0 || cfg.PoolSize < 0 || cfg.MaxInputBytes < 0 || cfg.ParkTTL < 0 {
		return errors.New("supervisor: negative duration or size in Config")
	}
	if cfg.KillGrace == 0 {
		cfg.KillGrace = DefaultKillGrace
	}
	switch {
	case cfg.KeepWarm == 0:
		cfg.KeepWarm = time.Second
	case cfg.KeepWarm > 0:
		// Raised here, not truncated to milliseconds on the way to the
		// child, where under 1ms would read as off.
		cfg.KeepWarm = max(cfg.KeepWarm, ipc.MinKeepWarm)
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.ParkTTL == 0 {
		cfg.ParkTTL = DefaultParkTTL
	}
	if cfg.MaxInputBytes == 0 {
		cfg.MaxInputBytes = DefaultMaxInputBytes
	}
	// Caps and Defaults are merged field by field with the contract's:
	// a default set above its cap is the caller's mistake, one left
	// unset is lowered to the cap.
	defaults, caps, err := contract.ConfigLimits(cfg.Defaults, cfg.Caps)
	if err != nil {
		return fmt.Errorf("supervisor: Config.Defaults and Config.Caps: %w", err)
	}
	cfg.Defaults, cfg.Caps = defaults, caps
	if cfg.MemoryOverheadBytes == 0 {
		cfg.MemoryOverheadBytes = DefaultMemoryOverhead
	}
	if cfg.PidsMax == 0 {
		cfg.PidsMax = 64
	}
	return nil
}
