// Package child is the child side of Warden: a process that the
// supervisor starts, that prepares one QuickJS instance before it reports
// ready, serves exactly one execution over the ipc wire, and exits.
//
// The warden binary re-executes itself with the explicit subcommand
// "child" (cmd.Args[0] is "warden-child", so children are easy to spot in
// ps). A program that embeds the supervisor and wants the same re-exec
// calls RunIfChild at the top of main: it recognises go-plugin's magic
// cookie in the environment, serves, and never returns.
//
// The child's configuration arrives in one environment variable
// (ConfigEnv), because its environment is otherwise empty; it holds no
// secrets, only its memory profile, its hardening and the cache
// directory (limits come resolved with each request). Guest output never
// reaches the child's stdout (go-plugin's handshake) or stderr (which the
// supervisor logs as rate-limited text): the engine captures it.
//
// Apart from RunIfChild, which a program embedding the supervisor calls
// at the top of main, this is an implementation package of Warden, with
// no compatibility promise: its API changes whenever Warden's internals
// do. Programs that embed Warden use the supervisor and contract
// packages.
package child

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// ConfigEnv is the environment variable that carries Config as JSON.
const ConfigEnv = "WARDEN_CHILD_CONFIG"

// Config is what the supervisor tells a child.
//
// Limits are not part of it: each request carries its own, resolved by
// the supervisor, and the child enforces them as they come.
type Config struct {
	// MemoryBytes is the memory profile this child is prepared for (its
	// linear-memory cap, contract.LinearMemoryCap); the request's exact
	// memory limit may be lower. Required.
	MemoryBytes int64 `json:"memory_bytes"`
	// CacheDir is the wazero compilation cache shared by all children.
	CacheDir string `json:"cache_dir"`
	// CacheDigests is the SHA-256 (hex) of every file in CacheDir, by
	// path relative to it, as the supervisor recorded them after the
	// compile child ran. When set, the child refuses to start unless the
	// cache holds exactly these files with these digests. The cache is
	// then warm, so the engine only reads it.
	CacheDigests map[string]string `json:"cache_digests,omitempty"`
	// CompileOnly makes the process a compile child: it compiles the
	// module into CacheDir (or loads it from there) and exits 0, without
	// serving. The supervisor runs one, as its own uid, before the first
	// child.
	CompileOnly bool             `json:"compile_only,omitempty"`
	Harden      HardeningOptions `json:"harden"`
	// KeepWarmMS, when positive, makes the child re-read its resident
	// memory every so many milliseconds while it waits for its execution
	// (keepwarm.go).
	KeepWarmMS int64 `json:"keep_warm_ms,omitempty"`
}

// HardeningOptions select the child's self-hardening steps.
type HardeningOptions struct {
	// NoNewPrivs sets PR_SET_NO_NEW_PRIVS before anything untrusted runs.
	NoNewPrivs bool `json:"no_new_privs"`
	// RlimitDataBytes caps the data segment (all private writable
	// mappings) when there is no cgroup to cap memory. Zero: no cap.
	RlimitDataBytes int64 `json:"rlimit_data_bytes,omitempty"`
	// RlimitCPUSeconds caps the child's CPU time over its whole life
	// (RLIMIT_CPU, soft = hard: the kernel SIGKILLs it there) when there
	// is no cgroup, so that a child the supervisor's kill misses still
	// dies. Zero: no cap.
	RlimitCPUSeconds int64 `json:"rlimit_cpu_seconds,omitempty"`
	// RlimitNProc caps the tasks (threads included) of the child's real
	// uid (RLIMIT_NPROC) when there is no cgroup pids cap. The kernel
	// counts every task of that uid, so the cap is per child only when
	// each child has a uid of its own. Zero: no cap.
	RlimitNProc int64 `json:"rlimit_nproc,omitempty"`
	// Rlimits, after start-up: no core files, no file writes
	// (RLIMIT_FSIZE 0), few descriptors.
	Rlimits bool `json:"rlimits"`
	// Seccomp installs the system-call filter before the execution runs.
	Seccomp bool `json:"seccomp"`
	// PrivateProc: the child was started as root in new mount and PID
	// namespaces, and mounts a /proc of its own, which shows no process
	// but itself.
	PrivateProc bool `json:"private_proc,omitempty"`
	// UID and GID, when UID is positive: the child was started as root
	// and switches to them (with no supplementary groups) first thing.
	UID int `json:"uid,omitempty"`
	GID int `json:"gid,omitempty"`
	// NotDumpable clears PR_SET_DUMPABLE once start-up has opened what
	// it needs of /proc/self: no process of the child's uid can then
	// ptrace it or read its /proc/PID/mem and environ.
	NotDumpable bool `json:"not_dumpable,omitempty"`
}

// IsChild reports whether this process was started as a Warden child.
func IsChild() bool {
	return ipc.IsChild()
}

// RunIfChild serves as a child and exits when this process was started
// as one; otherwise it returns at once.
func RunIfChild() {
	if IsChild() {
		os.Exit(Main())
	}
}

// Main runs the child: prepare, serve one execution, exit. It returns the
// process exit status; it returns only on a start-up failure (go-plugin
// exits the process when the supervisor is done with it).
func Main() int {
	clock := newStartupClock()
	logger := hclog.New(&hclog.LoggerOptions{Output: os.Stderr, JSONFormat: true, Level: hclog.Info, Name: "child"})
	var cfg Config
	if err := json.Unmarshal([]byte(os.Getenv(ConfigEnv)), &cfg); err != nil {
		logger.Error("bad child configuration", "env", ConfigEnv, "error", err.Error())
		return 2
	}
	if cfg.CompileOnly {
		if err := compileOnly(context.Background(), cfg); err != nil {
			logger.Error("compile child failed", "error", err.Error())
			return 3
		}
		return 0
	}
	r, err := prepare(context.Background(), cfg, clock, logger)
	if err == nil {
		err = ipc.WarmUp()
		clock.mark(PhaseWarmUp)
	}
	if err == nil {
		err = hardenAfterStartup(cfg.Harden)
	}
	if err == nil && cfg.Harden.Seccomp {
		// Everything the filter needs that would open files (the maps of
		// libc, the time zone) happens now, off the execution's path.
		err = prepareSeccomp()
	}
	if err != nil {
		logger.Error("child start-up failed", "error", err.Error())
		return 3
	}
	clock.mark(PhaseLockDown)
	ipc.Serve(r, logger)
	return 0
}

// installSeccompFilter installs the child's system-call filter.
var installSeccompFilter = func() error { return errors.New("seccomp filter not built into this binary") }

// faultHook is set only in test builds (faults.go, build tag
// wardenfaults): it lets tests make the child itself misbehave.
var faultHook func(context.Context, contract.Request) (contract.Result, bool)

// runner serves the one VM this child prepared.
type runner struct {
	vm      *engine.VM
	seccomp bool
	clock   *startupClock

	// filterOnce installs the seccomp filter, when the execution's stream
	// opens or, at the latest, when the execution starts; filterErr is
	// why that failed.
	filterOnce sync.Once
	filterErr  error

	keepWarmEvery time.Duration
	warm          *keepWarm // nil when off or not started
	logger        hclog.Logger
}

// StreamOpened installs the seccomp filter as soon as the execution's
// stream is open. The supervisor opens it right after start-up, so the
// install's cost (BENCHMARKS.md) is paid before the
// request comes; start-up (and go-plugin's listener) is done by then,
// and nothing untrusted has run.
//
// Before that, it lists the pages resident by now (start-up and the
// gRPC connection are complete) for keep-warm, which needs /proc and so
// must come first.
func (r *runner) StreamOpened() {
	if r.keepWarmEvery > 0 && r.warm == nil {
		k, err := startKeepWarm(r.keepWarmEvery)
		if err != nil {
			r.logger.Warn("keep-warm not started", "error", err.Error())
		}
		r.warm = k
	}
	r.installFilter()
}

func (r *runner) installFilter() error {
	r.filterOnce.Do(func() {
		if r.seccomp {
			r.filterErr = installSeccompFilter()
		}
	})
	return r.filterErr
}

func prepare(ctx context.Context, cfg Config, clock *startupClock, logger hclog.Logger) (*runner, error) {
	if err := harden(cfg.Harden); err != nil {
		return nil, err
	}
	clock.mark(PhaseHarden)
	if cfg.CacheDigests != nil {
		if err := verifyCache(cfg.CacheDir, cfg.CacheDigests); err != nil {
			return nil, err
		}
		clock.mark(PhaseCacheCheck)
	}
	eng, err := newEngine(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("child: engine: %w", err)
	}
	clock.mark(PhaseModule)
	vm, err := eng.NewVM(ctx, cfg.MemoryBytes)
	if err != nil {
		return nil, fmt.Errorf("child: prepare VM: %w", err)
	}
	// A child that had to compile the module (cold cache) holds tens of
	// MiB of compiler garbage; give it back before the execution, so that
	// it does not count against the child's cgroup cap.
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapSys-ms.HeapReleased > 32<<20 {
		debug.FreeOSMemory()
	}
	clock.mark(PhaseVM)
	return &runner{
		vm:            vm,
		seccomp:       cfg.Harden.Seccomp,
		clock:         clock,
		keepWarmEvery: time.Duration(cfg.KeepWarmMS) * time.Millisecond,
		logger:        logger,
	}, nil
}

// Startup is the child's account of its start-up, for the first ping.
func (r *runner) Startup() ipc.Startup { return r.clock.account() }

// Run runs the one execution, under the limits the request carries
// (resolved by the supervisor; the engine refuses any that are not). The
// engine enforces the deadline itself; the supervisor's kill is the
// layer above.
func (r *runner) Run(ctx context.Context, req contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result {
	start := time.Now()
	r.warm.Stop()
	// The filter is on before anything untrusted runs: normally since the
	// stream opened, else from here.
	if err := r.installFilter(); err != nil {
		return contract.Fail(contract.Errorf(contract.SandboxError, "child: seccomp: %v", err), req.Limits)
	}
	if faultHook != nil {
		if res, ok := faultHook(ctx, req); ok {
			return res
		}
	}
	res := r.vm.Run(ctx, req, engine.RunOptions{
		Handler: request,
		OnLog: func(e contract.LogEntry) {
			emit(contract.Event{Type: contract.EventLog, ExecutionID: req.ID, Log: &e})
		},
	})
	if res.Stats.WallMS == 0 {
		res.Stats.WallMS = contract.Millis(time.Since(start))
	}
	// The whole child's cost so far (start-up included), reported with the
	// result so the supervisor need not wait for the reap.
	if u, ok := selfRusage(); ok {
		res.Stats.ChildCPUMS = contract.Millis(u.cpu)
		res.Stats.ChildMaxRSSBytes = u.maxRSS
	}
	return res
}
