package stress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/attacks"
	"github.com/wardenhq/warden/internal/procfs"
	"github.com/wardenhq/warden/supervisor"
)

// Faults are the faults the runner can inject, by name. Each but starve
// runs its own victim execution on a memory profile no other traffic
// uses, one fault at a time, so a fault changes only its victim's
// expectation:
//
//	kill-child        SIGKILL the busy child of a spinning victim: SandboxError
//	kill-idle         SIGKILL a random idle child, then run on its profile: ok (the supervisor retries)
//	kill-during-data  SIGKILL the victim's child while its data handler runs: SandboxError
//	slow-handler      a data handler that ignores its context for 5 s: TimeoutError at the 300 ms deadline
//	fail-handler      a data handler that fails: ok, the guest caught the rejection
//	oom               lower the victim's cgroup memory cap to its usage, then allocate: ResourceError/oom_kill
//	cgroup-rm         move the victim's child out of its cgroup and remove the group: ok
//	starve            spin 2 goroutines per CPU in the supervisor's process for 300 ms: no expectation changes
var Faults = []string{"kill-child", "kill-idle", "kill-during-data", "slow-handler", "fail-handler", "oom", "cgroup-rm", "starve"}

// Victim profiles: memory limits in buckets of their own (victimBuckets
// adds them), so that the runner can tell a victim's child from every
// other child by its memory profile.
const (
	busyMemory int64 = 5<<20 + 512<<10
	idleMemory int64 = 6<<20 + 512<<10
)

// faultEnv is what the fault injectors share.
type faultEnv struct {
	ex Executor
	// sup is the embedded supervisor, nil against a daemon (where only
	// RemoteFaults are injected).
	sup      *supervisor.Supervisor
	overhead int64
	// noSeccomp: children run without their seccomp filter, so it
	// cannot tell which have started.
	noSeccomp bool
	// why, when set, says why faults that must find a child cannot.
	why string
	mu  sync.Mutex // one fault at a time
	rng *rand.Rand
}

// profileChildren lists this process's children of the given memory
// profile with their CPU ticks.
func (f *faultEnv) profileChildren(memory int64) map[int]int64 {
	want := strconv.FormatInt(supervisor.ChildGoMemLimit(memory, f.overhead), 10)
	out := map[int]int64{}
	for _, p := range descendants(allProcs(), os.Getpid()) {
		// Only children past start-up: a child installs its seccomp
		// filter once its stream is open, and one still starting burns
		// CPU like a spinning victim. (Without the filter every child
		// of the profile counts.)
		if strings.HasPrefix(p.cmdline, supervisor.ChildProcessName) && childEnv(p.pid, "GOMEMLIMIT") == want &&
			(f.noSeccomp || procStatus(p.pid, "Seccomp") == "2") {
			out[p.pid] = p.cpuTicks
		}
	}
	return out
}

// spinner finds the victim's child, called when the victim has started:
// among the children of the profile that had finished starting up then,
// the one that has since used at least 150 ms of CPU and three times as
// much as any other (a victim spins until it is found; an idle child
// only keeps its memory warm, a few ms a second). It gives up after 6 s.
func (f *faultEnv) spinner(memory int64) (int, error) {
	const minTicks = 15 // 150 ms at the usual 100 ticks a second
	before := f.profileChildren(memory)
	for deadline := time.Now().Add(6 * time.Second); time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		best, bestGrew, second := 0, int64(0), int64(0)
		for pid, t := range f.profileChildren(memory) {
			t0, ok := before[pid]
			if !ok {
				continue
			}
			switch d := t - t0; {
			case d > bestGrew:
				best, bestGrew, second = pid, d, bestGrew
			case d > second:
				second = d
			}
		}
		if bestGrew >= minTicks && bestGrew >= 3*second+5 {
			return best, nil
		}
	}
	return 0, errors.New("no single child of the victim's profile kept spinning")
}

// victimRun runs script through Stream; onStarted runs (once, in its own
// goroutine) when the child has the request, and has returned by the
// time victimRun does.
func (f *faultEnv) victimRun(ctx context.Context, script *attacks.Script, handler contract.DataHandler, onStarted func()) attacks.Report {
	var wg sync.WaitGroup
	exec := func(ctx context.Context, req contract.Request, h contract.DataHandler) contract.Result {
		var once sync.Once
		res, _ := f.sup.Stream(ctx, req, h, func(e contract.Event) {
			if e.Type == contract.EventStarted && onStarted != nil {
				once.Do(func() { wg.Go(onStarted) })
			}
		})
		return res
	}
	rep := script.Run(ctx, exec, handler)
	wg.Wait()
	return rep
}

func victim(name, code string, timeout time.Duration, memory int64, expect attacks.Expect) *attacks.Script {
	return &attacks.Script{
		Name: "fault/" + name, Category: "fault", Source: "warden stress",
		Steps:  []attacks.Step{{Request: contract.Request{Code: code, Limits: contract.Limits{Timeout: timeout, MemoryBytes: memory}}}},
		Expect: expect,
	}
}

func expectErr(t contract.ErrorType, kind string) attacks.Expect {
	return attacks.Expect{Outcomes: []attacks.Outcome{{Type: t, Kind: kind}}}
}

func expectValue(v string) attacks.Expect {
	return attacks.Expect{Outcomes: []attacks.Outcome{{}}, Value: json.RawMessage(v)}
}

// skipped is a fault that cannot be injected here.
type skipped struct{ why string }

func (s skipped) Error() string { return "skipped: " + s.why }

// inject runs fault name once and reports its victim.
func (f *faultEnv) inject(ctx context.Context, name string) attacks.Report {
	f.mu.Lock()
	defer f.mu.Unlock()
	needsChild := name != "slow-handler" && name != "fail-handler" && name != "starve"
	if needsChild && f.why != "" {
		return attacks.Report{Script: victim(name, "", 0, 0, attacks.Expect{}), Err: skipped{f.why}}
	}
	switch name {
	case "kill-child":
		s := victim(name, `const end = Date.now() + 8000; while (Date.now() < end) {} return "not killed";`, 10*time.Second, busyMemory, expectErr(contract.SandboxError, ""))
		return f.killBusy(ctx, s, nil)
	case "kill-during-data":
		s := victim(name, `await host.request("wait", 1); return "not killed";`, 10*time.Second, busyMemory, expectErr(contract.SandboxError, ""))
		return f.killBusy(ctx, s, func(pid int) { procfs.WaitGone(pid, 2*time.Second) })
	case "kill-idle":
		return f.killIdle(ctx, victim(name, `return 1 + 1;`, 5*time.Second, idleMemory, expectValue("2")))
	case "slow-handler":
		s := victim(name, `return await host.request("stall", 1);`, 300*time.Millisecond, 0, expectErr(contract.TimeoutError, ""))
		return s.Run(ctx, f.exec, func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			time.Sleep(5 * time.Second) // ignores its context, on purpose
			return json.RawMessage(`"late"`), nil
		})
	case "fail-handler":
		s := victim(name, `try { await host.request("x", 1); return "answered"; } catch (e) { return "caught " + e.message; }`, 5*time.Second, 0, expectValue(`"caught injected failure"`))
		return s.Run(ctx, f.exec, func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("injected failure")
		})
	case "oom":
		s := victim(name, `await host.request("squeeze", 1); const keep = []; for (let i = 0; i < 40; i++) keep.push("x".repeat(1 << 16) + i); return "not killed";`, 10*time.Second, busyMemory, expectErr(contract.ResourceError, contract.KindOOMKill))
		return f.withBusyChild(ctx, s, squeeze)
	case "cgroup-rm":
		s := victim(name, `await host.request("unplug", 1); let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s;`, 10*time.Second, busyMemory, expectValue("4999950000"))
		return f.withBusyChild(ctx, s, unplug)
	case "starve":
		starve(300 * time.Millisecond)
		return attacks.Report{Script: victim(name, "", 0, 0, attacks.Expect{})}
	}
	return attacks.Report{Script: victim(name, "", 0, 0, attacks.Expect{}), Err: fmt.Errorf("unknown fault %q", name)}
}

func (f *faultEnv) exec(ctx context.Context, req contract.Request, h contract.DataHandler) contract.Result {
	return execute(ctx, f.ex, req, h)
}

// killBusy runs s and SIGKILLs its child once found spinning, or, with
// during, from its data handler (which then waits for the kill to land).
func (f *faultEnv) killBusy(ctx context.Context, s *attacks.Script, during func(pid int)) attacks.Report {
	if during == nil {
		var injectErr error
		rep := f.victimRun(ctx, s, nil, func() {
			pid, err := f.spinner(busyMemory)
			if err == nil {
				err = syscall.Kill(pid, syscall.SIGKILL)
			}
			injectErr = err
		})
		if injectErr != nil {
			rep.Err = fmt.Errorf("fault not injected: %w (victim: %v)", injectErr, rep.Err)
		}
		return rep
	}
	return f.withBusyChild(ctx, s, func(pid int) error {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			return err
		}
		during(pid)
		return nil
	})
}

// withBusyChild runs s, whose first data request has do act on its
// child. Until then the victim spins, asking between bursts whether its
// child has been found, so that a loaded machine only makes it wait
// longer.
func (f *faultEnv) withBusyChild(ctx context.Context, s *attacks.Script, do func(pid int) error) attacks.Report {
	var injectErr error
	var pid int
	found := make(chan struct{})
	onStarted := func() {
		pid, injectErr = f.spinner(busyMemory)
		close(found)
	}
	s.Steps[0].Request.Code = `for (;;) { const end = Date.now() + 100; while (Date.now() < end) {} if (await host.request("found", 1)) break; }` +
		"\n" + s.Steps[0].Request.Code
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		if name == "found" {
			select {
			case <-found:
				return json.RawMessage("true"), nil
			default:
				return json.RawMessage("false"), nil
			}
		}
		if injectErr == nil {
			injectErr = do(pid)
		}
		return json.RawMessage(`"answered"`), nil
	}
	rep := f.victimRun(ctx, s, handler, onStarted)
	if injectErr != nil {
		var sk skipped
		if errors.As(injectErr, &sk) {
			rep.Err = sk
		} else {
			rep.Err = fmt.Errorf("fault not injected: %w (victim: %v)", injectErr, rep.Err)
		}
	}
	return rep
}

// killIdle SIGKILLs a random idle child of the idle victim profile and
// at once runs s on that profile.
func (f *faultEnv) killIdle(ctx context.Context, s *attacks.Script) attacks.Report {
	var pids []int
	deadline := time.Now().Add(5 * time.Second)
	for len(pids) == 0 && time.Now().Before(deadline) {
		for pid := range f.profileChildren(idleMemory) {
			pids = append(pids, pid)
		}
		if len(pids) == 0 {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if len(pids) == 0 {
		return attacks.Report{Script: s, Err: errors.New("fault not injected: no idle child of the victim profile")}
	}
	if err := syscall.Kill(pids[f.rng.IntN(len(pids))], syscall.SIGKILL); err != nil {
		return attacks.Report{Script: s, Err: fmt.Errorf("fault not injected: %w", err)}
	}
	return s.Run(ctx, f.exec, nil)
}

// squeeze lowers the memory cap of pid's cgroup to just above what it
// uses, so that its next allocations get it OOM-killed.
func squeeze(pid int) error {
	dirs := cgroupDirs(pid)
	for _, h := range []struct{ hierarchy, usage, limit string }{
		{"memory", "memory.usage_in_bytes", "memory.limit_in_bytes"}, // v1
		{"unified", "memory.current", "memory.max"},                  // v2
	} {
		d, ok := dirs[h.hierarchy]
		if !ok || !strings.Contains(d, "warden-") {
			continue
		}
		use, err := readInt(filepath.Join(d, h.usage))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(d, h.limit), []byte(strconv.FormatInt(use+256<<10, 10)), 0)
	}
	return skipped{"the child has no memory cgroup of its own"}
}

// unplug moves pid out of each of its own cgroups into the parent group
// and removes the group it left, under the supervisor's feet.
func unplug(pid int) error {
	moved := false
	for _, d := range cgroupDirs(pid) {
		if !strings.Contains(d, "warden-") || filepath.Base(d) == cgroup.GroupName(os.Getpid()) {
			continue
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(d), "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return fmt.Errorf("move %d out of %s: %w", pid, d, err)
		}
		if err := os.Remove(d); err != nil {
			return fmt.Errorf("remove %s: %w", d, err)
		}
		moved = true
	}
	if !moved {
		return skipped{"the child has no cgroup of its own"}
	}
	return nil
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// starve keeps every CPU of this process busy for d: the supervisor's
// goroutines (timers, the kill at the deadline, reaping) must still do
// their work.
func starve(d time.Duration) {
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for range 2 * runtime.NumCPU() {
		wg.Go(func() {
			for time.Now().Before(end) {
			}
		})
	}
	wg.Wait()
}
