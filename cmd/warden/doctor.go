package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/child/engine/intl"
	"github.com/wardenhq/warden/child/seccomp"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/runtimefiles"
	"github.com/wardenhq/warden/ipc"
	"github.com/wardenhq/warden/supervisor"
)

// layerCheck is one line of `warden doctor`.
type layerCheck struct {
	Layer  string `json:"layer"`
	Active bool   `json:"active"`
	Detail string `json:"detail"`
}

func cmdDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("warden doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	modulesDir := fs.String("modules", "", "a directory of host-approved modules to register, as warden run --modules and serve's modules_dir do: doctor lists them")
	wasm := wasmFlag(fs)
	cacheDir := fs.String("cache-dir", defaultCacheDir(), "the compilation cache directory of the supervisor doctor starts (warden run's --cache-dir)")
	singleValued(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	// The queue waits as long as `warden run`'s: a first run fills the
	// compilation cache and writes the heap snapshot first, which takes
	// seconds on a slow machine (an emulated VM: the VM lane).
	checks := doctorChecks(supervisor.Config{PoolSize: 1, QueueTimeout: 30 * time.Second, ModulesDir: *modulesDir, WasmFile: *wasm, CacheDir: *cacheDir})
	if *asJSON {
		writeJSON(stdout, checks)
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "LAYER\tSTATUS\tDETAIL")
		for _, c := range checks {
			st := "active"
			if !c.Active {
				st = "MISSING"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Layer, st, c.Detail)
		}
		tw.Flush()
	}
	for _, c := range checks {
		if !c.Active {
			return exitFailed
		}
	}
	return exitOK
}

// doctorChecks reports the layers of a supervisor started with cfg.
func doctorChecks(cfg supervisor.Config) []layerCheck {
	d := contract.DefaultLimits
	checks := []layerCheck{
		{"1 capabilities", true, "ECMAScript built-ins + console, sha256, host.request only"},
		{"2 interpreter limits", true, fmt.Sprintf("QuickJS heap %d MiB, stack %d KiB, interrupt at the deadline (%v)", d.MemoryBytes>>20, d.StackBytes>>10, d.Timeout)},
		{"4 deadline in the interpreter", true, "QuickJS's interrupt handler stops JavaScript at the deadline; a slow C builtin it cannot stop is layer 7's kill"},
		{"3 wasm imports and memory cap", true, fmt.Sprintf("6 WASI functions written by the host, no filesystem or sockets; linear memory capped at %d MiB for the %d MiB heap (contract.LinearMemoryCap)", contract.LinearMemoryCap(d.MemoryBytes)>>20, d.MemoryBytes>>20)},
	}
	// One supervisor serves the checks that need one (it starts a child).
	sup, supErr := supervisor.New(cfg)
	if supErr == nil {
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			sup.Close(ctx)
		}()
	}
	proc := len(checks) // processCheck's line
	checks = append(checks, processCheck(sup, supErr), cacheCheck(sup, supErr), registryCheck(sup, supErr))
	// Every process-level layer as the supervisor configures its
	// children, not as this process could (Supervisor.Layers).
	var l supervisor.Layers
	if supErr == nil {
		l = sup.Layers()
	}
	checks = append(checks, cgroupCheck(l, supErr))
	checks = append(checks, namespaceChecks(l, supErr)...)
	checks = append(checks, hardeningChecks(l, supErr)...)
	checks = append(checks, userCheck(l, supErr))
	checks = append(checks, isolationChecks(l, supErr)...)
	checks = append(checks, boundsChecks(sup, supErr)...)
	checks = append(checks, layerCheck{"7 kill at deadline + grace", true, "SIGKILL of the child's process group; Pdeathsig ties children to the supervisor"})
	if supErr == nil {
		// Where the kernel shows it, check the supervisor's word against
		// a live child (the pool refills after processCheck's execution):
		// one the pool counts as ready, which a slow machine (an emulated
		// guest: 1.4 s a child) takes longer than the 2 s the kernel's
		// view gets after it to show the filter. A child still starting
		// has no filter yet and is not evidence of a missing one.
		waitForIdleChild(sup, startWait(cfg))
		seen, err := seeIdleChild(l, 2*time.Second)
		confirmInChild(checks, seen, err)
		if err != nil {
			checks[proc].Detail += "; the hardening of a live child could not be read: " + err.Error()
		}
	}
	sortByLayer(checks)
	return checks
}

// sortByLayer puts checks in layer order (the number that begins each
// line), each layer's checks in the order they were made.
func sortByLayer(checks []layerCheck) {
	sort.SliceStable(checks, func(i, j int) bool { return layerNumber(checks[i].Layer) < layerNumber(checks[j].Layer) })
}

// layerNumber is the number a check's layer name begins with.
func layerNumber(layer string) int {
	n, _ := strconv.Atoi(strings.Fields(layer)[0])
	return n
}

func processCheck(sup *supervisor.Supervisor, supErr error) layerCheck {
	c := layerCheck{Layer: "5 process per execution"}
	if supErr != nil {
		c.Detail = supErr.Error()
		return c
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	res, err := sup.Execute(ctx, contract.Request{Code: "return 1"}, nil)
	if err != nil {
		c.Detail = "a child could not run `return 1`: " + err.Error()
		return c
	}
	c.Active = true
	c.Detail = fmt.Sprintf("child %d ran `return 1` in %v (spawn included), then was killed", res.Stats.ChildPID, time.Since(start).Round(time.Millisecond))
	return c
}

// cacheCheck reports the compilation cache: where it is, that New found
// it (and everything in it) the supervisor's own and closed to others,
// and how much each child checks against the digests. It comes after
// processCheck, whose execution filled the cache.
func cacheCheck(sup *supervisor.Supervisor, supErr error) layerCheck {
	c := layerCheck{Layer: "5 compilation cache"}
	if supErr != nil {
		c.Detail = supErr.Error()
		if !errors.Is(supErr, supervisor.ErrUnsafeCache) && !errors.Is(supErr, supervisor.ErrNoCacheDir) {
			c.Detail = "not checked: " + c.Detail
		}
		return c
	}
	info := sup.Cache()
	owner := fmt.Sprintf("owned by uid %d, not writable by group or others, searchable by the children", os.Geteuid())
	if !info.Ready {
		c.Detail = fmt.Sprintf("%s: %s; the compile child has not filled it", info.Dir, owner)
		return c
	}
	c.Active = true
	check := fmt.Sprintf("SHA-256 check on: every child verifies its files (of %d, %.1f MiB) before loading; %s", info.Files, float64(info.Bytes)/(1<<20), info.SealedNote)
	if info.SealedFiles > 0 {
		check = fmt.Sprintf("sealed: the supervisor checked the SHA-256 of the %d file(s) children read (%.1f MiB) once and sealed them into memory files every child maps, checking only the seals", info.SealedFiles, float64(info.SealedBytes)/(1<<20))
	}
	c.Detail = fmt.Sprintf("%s: %s; written only by the compile child; %s; %s; children: %s",
		info.Dir, owner, check, runtimeFilesNote(info.Dir), info.Child)
	return c
}

// runtimeFilesNote says where this binary's children take the QuickJS
// module and the Intl data from: embedded by `make build`, or the files
// `warden setup` (or --wasm, for the module) put in the cache.
func runtimeFilesNote(cacheDir string) string {
	module := "QuickJS module embedded in the binary"
	if !runtimefiles.WasmEmbedded() {
		module = "QuickJS module from " + filepath.Join(cacheDir, runtimefiles.WasmFile()) + " (warden setup or --wasm)"
	}
	data := "Intl data embedded"
	if !intl.Embedded() {
		pack := filepath.Join(cacheDir, runtimefiles.IntlFile())
		if fi, err := os.Stat(pack); err == nil && fi.Mode().IsRegular() {
			data = "Intl data from " + pack + " (warden setup)"
		} else {
			data = "no Intl data: Intl throws until `warden setup` is run"
		}
	}
	return module + "; " + data
}

// cgroupCheck reports the supervisor's cgroup layer, with what the
// machine offers (cgroup.Detect) for the detail.
func cgroupCheck(l supervisor.Layers, supErr error) layerCheck {
	c := layerCheck{Layer: "6 cgroup", Active: supErr == nil && l.CgroupMode != ""}
	r := cgroup.Detect()
	var ctl []string
	for name, ok := range r.Controllers {
		if ok {
			ctl = append(ctl, name)
		}
	}
	sort.Strings(ctl)
	machine := fmt.Sprintf("mode %s, controllers %s, writable %v", r.Mode, strings.Join(ctl, ","), r.Writable)
	if r.Reason != "" {
		machine += "; " + r.Reason
	}
	switch {
	case supErr != nil:
		c.Detail = "not checked: " + supErr.Error() + "; here: " + machine
	case c.Active:
		c.Detail = fmt.Sprintf("each child in its own %s cgroup, memory and pids capped; %s", l.CgroupMode, machine)
	default:
		c.Detail = fmt.Sprintf("%s; children get %s instead", l.CgroupNote, strings.Join(l.FallbackRlimits, ", "))
	}
	return c
}

// namespaceChecks report the namespaces children get, but for PID and
// cgroup (isolationChecks).
func namespaceChecks(l supervisor.Layers, supErr error) []layerCheck {
	var checks []layerCheck
	for _, name := range []string{"network", "ipc", "uts", "mount", "user"} {
		c := layerCheck{Layer: "5 " + name + " namespace"}
		switch {
		case supErr != nil:
			c.Detail = "not checked: " + supErr.Error()
		case slices.Contains(l.Namespaces, name):
			c.Active, c.Detail = true, "children get their own"
			if name == "user" {
				c.Detail = "children get their own (the supervisor is not root): it makes the others possible"
			}
		case name == "user" && os.Geteuid() == 0 && len(l.Namespaces) > 0:
			// As root the other namespaces need none, and children get
			// their own uids instead (unprivileged child user).
			c.Active, c.Detail = true, "not needed: the supervisor is root"
		default:
			c.Detail = l.NamespaceNote
			if c.Detail == "" {
				c.Detail = "children do not get one"
			}
		}
		checks = append(checks, c)
	}
	return checks
}

// hardeningChecks report the steps children take on themselves, as the
// supervisor asks for them.
func hardeningChecks(l supervisor.Layers, supErr error) []layerCheck {
	sec := layerCheck{Layer: "5 seccomp filter"}
	nnp := layerCheck{Layer: "5 no_new_privs"}
	rl := layerCheck{Layer: "5 rlimits"}
	if supErr != nil {
		why := "not checked: " + supErr.Error()
		sec.Detail, nnp.Detail, rl.Detail = why, why, why
		return []layerCheck{sec, nnp, rl}
	}
	switch {
	case !l.Seccomp:
		sec.Detail = "off by configuration (NoSeccomp)"
	case !seccompSupported():
		sec.Detail = "unsupported here: " + seccompNote()
	default:
		sec.Active, sec.Detail = true, "every child installs it before its execution; "+seccompNote()
	}
	nnp.Active, nnp.Detail = l.NoNewPrivs, "PR_SET_NO_NEW_PRIVS set in every child"
	if !l.NoNewPrivs {
		nnp.Detail = "children do not set PR_SET_NO_NEW_PRIVS"
	}
	var steady []string
	for _, r := range child.SteadyRlimits() {
		steady = append(steady, fmt.Sprintf("%s %d", r.Name, r.Value))
	}
	rl.Active, rl.Detail = l.Rlimits, "after start-up: "+strings.Join(steady, ", ")
	if !l.Rlimits {
		rl.Detail = "off by configuration (NoRlimits)"
	}
	return []layerCheck{sec, nnp, rl}
}

func userCheck(l supervisor.Layers, supErr error) layerCheck {
	c := layerCheck{Layer: "5 unprivileged child user"}
	if os.Geteuid() != 0 {
		c.Active, c.Detail = true, fmt.Sprintf("the supervisor and its children run as uid %d", os.Geteuid())
		return c
	}
	if supErr != nil {
		c.Detail = supErr.Error()
		return c
	}
	if l.ChildUIDCount > 0 {
		c.Active, c.Detail = true, fmt.Sprintf("supervisor is root; each live child has its own uid and gid from %d-%d, switched to before it reads any input", l.ChildUIDBase, l.ChildUIDBase+l.ChildUIDCount-1)
		return c
	}
	c.Detail = "supervisor is root and children too: " + l.UserNote
	return c
}

// isolationChecks are the lines that keep children apart: PID and cgroup
// namespaces as the supervisor set them up, non-dumpable children and
// the socket's peer check.
func isolationChecks(l supervisor.Layers, supErr error) []layerCheck {
	pid := layerCheck{Layer: "5 pid namespace"}
	cg := layerCheck{Layer: "5 cgroup namespace"}
	if supErr != nil {
		pid.Detail, cg.Detail = supErr.Error(), supErr.Error()
	} else {
		pid.Active, cg.Active = l.PIDNamespace, l.CgroupNamespace
		switch {
		case l.PIDNamespace && l.PrivateProc:
			pid.Detail = "each child is pid 1 of its own, with a /proc that shows only itself"
		case l.PIDNamespace:
			pid.Detail = "each child is pid 1 of its own (the host's /proc stays visible: the supervisor is not root)"
		default:
			pid.Detail = l.NamespaceNote
		}
		cg.Detail = "children see their own cgroup as the root"
		if !l.CgroupNamespace {
			cg.Detail = l.NamespaceNote
		}
	}
	dump := layerCheck{Layer: "5 not dumpable", Active: supErr == nil && l.NotDumpable,
		Detail: "PR_SET_DUMPABLE 0 in every child once start-up has opened /proc/self/pagemap: no ptrace, no /proc/PID/mem or environ"}
	if supErr != nil {
		dump.Detail = "not checked: " + supErr.Error()
	} else if !l.NotDumpable {
		dump.Detail = "children stay dumpable"
	}
	return []layerCheck{pid, cg, dump,
		{"5 socket peer check", true, "on: the supervisor checks the credentials of the process at the other end of each child's socket"},
	}
}

// boundsChecks report what the supervisor bounds of what a child (which
// may have been taken over) sends it or makes it hold: fixed in the
// code, so they are reported, not probed.
func boundsChecks(sup *supervisor.Supervisor, supErr error) []layerCheck {
	d := contract.DefaultLimits
	req := contract.Request{Limits: d}
	checks := []layerCheck{
		{"2 host calls", true, fmt.Sprintf("arguments copied out of the sandbox only within the budget left; data_requests %d, data_bytes %d MiB per execution (caps %d, %d MiB); timers %d pending at once (cap %d); nested host calls refused",
			d.DataRequests, d.DataBytes>>20, contract.DefaultCaps.DataRequests, contract.DefaultCaps.DataBytes>>20, d.Timers, contract.DefaultCaps.Timers)},
		{"7 child stderr", true, ipc.StderrBounds()},
		{"7 wire budget", true, fmt.Sprintf("every byte a child sends counts: %d MiB at the default limits, then the child is killed (SandboxError); results and data-request arguments must be JSON; the child's socket must belong to the child (SO_PEERCRED)",
			ipc.WireBudget(req)>>20)},
	}
	pool := layerCheck{Layer: "7 children alive"}
	if supErr != nil {
		pool.Detail = "not checked: " + supErr.Error()
	} else {
		st := sup.Stats().Pool
		pool.Active = true
		pool.Detail = fmt.Sprintf("at most %d here (Config.MaxChildren), across memory profiles: a request's memory limit rounds up to a bucket, profiles not kept warm are dropped when idle; each start-up bounded by StartTimeout", st.MaxChildren)
	}
	return append(checks, pool)
}

// seccompAvailable is the kernel's answer to whether a child can install
// its filter here: the supervisor does not link the filter, so doctor
// asks it directly. Asked when doctor needs it, not at package init: every
// child runs this binary's package inits too.
var seccompAvailable = sync.OnceValues(seccomp.Available)

func seccompSupported() bool {
	ok, _ := seccompAvailable()
	return ok
}

func seccompNote() string {
	_, note := seccompAvailable()
	return note
}

// registryCheck lists the registered modules (Config.ModulesDir), their
// sizes and digests, and the registry's cap.
func registryCheck(sup *supervisor.Supervisor, supErr error) layerCheck {
	c := layerCheck{Layer: "1 registered modules", Active: true}
	if supErr != nil {
		c.Detail = "not checked: " + supErr.Error()
		return c
	}
	maxBytes, heap := sup.RegistryLimits()
	mods := sup.Modules()
	if len(mods) == 0 {
		c.Detail = fmt.Sprintf("none (--modules DIR, serve's modules_dir; at most %d MiB of sources)", maxBytes>>20)
		return c
	}
	var total int64
	list := make([]string, len(mods))
	for i, m := range mods {
		total += m.Bytes
		list[i] = fmt.Sprintf("%s (%d KiB, sha256 %s)", m.Name, (m.Bytes+1023)>>10, m.SHA256[:12])
	}
	c.Detail = fmt.Sprintf("%d modules, %d KiB of the %d MiB allowed (MaxModulesBytes), evaluated by init (into the heap snapshot, where there is one) before any untrusted code, each child with its own copy; heap allowance %d MiB on every profile: %s",
		len(mods), (total+1023)>>10, maxBytes>>20, heap>>20, strings.Join(list, ", "))
	return c
}
