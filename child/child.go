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
// The child's configuration (ipc.ChildConfig, part of the wire contract)
// arrives in one environment variable (ipc.ChildConfigEnv), because its
// environment is otherwise empty; it holds no secrets, only its memory
// profile, its hardening and the cache directory (limits come resolved
// with each request). Guest output never
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
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/child/seccomp"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/runtimefiles"
	"github.com/wardenhq/warden/ipc"
)

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
	// JSON lines on stderr, which the supervisor reads as bounded text
	// (ipc/stderr.go), never as records.
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("module", "child")
	var cfg ipc.ChildConfig
	if err := json.Unmarshal([]byte(os.Getenv(ipc.ChildConfigEnv)), &cfg); err != nil {
		logger.Error("bad child configuration", "env", ipc.ChildConfigEnv, "error", err.Error())
		return 2
	}
	if cfg.Probe {
		return 0
	}
	if cfg.CompileOnly {
		if err := compileOnly(context.Background(), cfg, logger); err != nil {
			logger.Error("compile child failed", "error", err.Error())
			if errors.Is(err, runtimefiles.ErrNoWasm) {
				return 4 // the supervisor's compileExitNoWasm
			}
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
		err = seccomp.Prepare()
	}
	if err != nil {
		logger.Error("child start-up failed", "error", err.Error())
		return 3
	}
	clock.mark(PhaseLockDown)
	ipc.Serve(r, cfg.Wire, logger)
	return 0
}

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
	logger        *slog.Logger
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
			r.filterErr = seccomp.Install()
		}
	})
	return r.filterErr
}

func prepare(ctx context.Context, cfg ipc.ChildConfig, clock *startupClock, logger *slog.Logger) (*runner, error) {
	if err := harden(cfg.Harden); err != nil {
		return nil, err
	}
	clock.mark(PhaseHarden)
	sealed, err := openSealed(cfg)
	if err != nil {
		return nil, err
	}
	if sealed != nil {
		clock.mark(PhaseSealed)
	} else if cfg.CacheDigests != nil {
		if err := verifyCache(cfg.CacheDir, cfg.CacheDigests); err != nil {
			return nil, err
		}
		clock.mark(PhaseCacheCheck)
	}
	eng, err := newEngine(ctx, cfg, sealed)
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
	if eng.FromSnapshot() {
		clock.mark(PhaseVMSnapshot)
	} else {
		clock.mark(PhaseVM)
	}
	if cfg.WarmTypeScript {
		if err := engine.WarmTypeScript(); err != nil {
			return nil, fmt.Errorf("child: %w", err)
		}
		clock.mark(PhaseTypeScript)
	}
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
	return r.serve(ctx, req, emit, request, func(opts engine.RunOptions) contract.Result { return r.vm.Run(ctx, req, opts) })
}

// Resume continues a parked execution from its state, as Run runs one:
// req carries its id and limits, for the fault hooks and the events.
func (r *runner) Resume(ctx context.Context, req contract.Request, state []byte, answers map[int64]contract.Answer,
	emit func(contract.Event), request contract.DataHandler) contract.Result {
	return r.serve(ctx, req, emit, request, func(opts engine.RunOptions) contract.Result {
		return r.vm.Resume(ctx, state, answers, opts)
	})
}

// serve is Run's and Resume's: the filter on, the fault hooks, then run
// with the options that forward logs, and the child's own cost added.
func (r *runner) serve(ctx context.Context, req contract.Request, emit func(contract.Event), request contract.DataHandler,
	run func(engine.RunOptions) contract.Result) contract.Result {
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
	secondP := false
	res := run(engine.RunOptions{
		Handler: request,
		OnLog: func(e contract.LogEntry) {
			if !secondP {
				// So that gRPC's writer can send the log events while the
				// guest holds the one P (RATIONALE.md, "Why does a child
				// run with GOMAXPROCS=1 and GOGC=off?").
				secondP = true
				runtime.GOMAXPROCS(2)
			}
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
