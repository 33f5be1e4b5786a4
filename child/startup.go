package child

import (
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// startupClock keeps the child's account of its own start-up: for each
// phase, wall time and the process's CPU time and page faults during it.
// The supervisor gets it with its first ping (ipc.StartupReporter) and
// `warden bench` prints the medians: it is how Warden knows where a
// child's start-up goes, measured on every child rather than once.
type startupClock struct {
	mu     sync.Mutex
	mainAt time.Time
	last   time.Time
	cpu    time.Duration
	faults int64
	phases []ipc.StartupPhase
	served sync.Once // closes the serve phase at the first account
}

// newStartupClock starts the account at main. Its first phase, exec to
// main (the kernel's exec, the Go runtime's start and every package's
// init), has the CPU time and faults the process had used by now; its
// wall time is the supervisor's to measure.
func newStartupClock() *startupClock {
	c := &startupClock{mainAt: time.Now()}
	c.last = c.mainAt
	c.cpu, c.faults = selfCPUAndFaults()
	c.phases = append(c.phases, ipc.StartupPhase{Name: PhaseExecToMain, CPUMS: contract.Millis(c.cpu), PageFaults: c.faults})
	return c
}

// Start-up phase names, in order.
const (
	PhaseExecToMain = "exec to main (runtime start, package inits)"
	PhaseHarden     = "configuration, /proc, uid, no_new_privs"
	PhaseCacheCheck = "compilation cache SHA-256 check"
	PhaseSealed     = "sealed cache files: seals checked"
	PhaseModule     = "engine: QuickJS module from the compilation cache"
	PhaseVM         = "engine: instance, QuickJS init, prelude"
	PhaseVMSnapshot = "engine: instance from the heap snapshot"
	PhaseTypeScript = "TypeScript: esbuild warmed (TypeScript profile)"
	PhaseWarmUp     = "wire warm-up (protobuf coders)"
	PhaseLockDown   = "rlimits, seccomp preparation"
	PhaseServe      = "go-plugin serve, handshake, gRPC, first ping"
)

// mark ends the current phase under name.
func (c *startupClock) mark(name string) {
	now := time.Now()
	cpu, faults := selfCPUAndFaults()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.phases = append(c.phases, ipc.StartupPhase{
		Name: name, WallMS: contract.Millis(now.Sub(c.last)), CPUMS: contract.Millis(cpu - c.cpu), PageFaults: faults - c.faults,
	})
	c.last, c.cpu, c.faults = now, cpu, faults
}

// account closes the serve phase the first time it is asked (the first
// ping) and returns the whole account.
func (c *startupClock) account() ipc.Startup {
	c.served.Do(func() { c.mark(PhaseServe) })
	c.mu.Lock()
	defer c.mu.Unlock()
	return ipc.Startup{MainAt: c.mainAt, Phases: append([]ipc.StartupPhase(nil), c.phases...)}
}
