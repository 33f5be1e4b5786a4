//go:build linux

package cgroup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/internal/procfs"
)

// initPIDNamespace is the inode number of the initial PID namespace, fixed
// by the kernel (PROC_PID_INIT_INO).
const initPIDNamespace = 0xEFFFFFFC

// pidNamespace is the inode number of the PID namespace of process proc
// ("self" or a pid), 0 when it cannot be read.
func pidNamespace(proc string) uint64 {
	var st unix.Stat_t
	if err := unix.Stat("/proc/"+proc+"/ns/pid", &st); err != nil {
		return 0
	}
	return st.Ino
}

// ownPIDNamespace is this process's PID namespace; the initial one when
// /proc does not say (as before namespaces were told apart).
var ownPIDNamespace = sync.OnceValue(func() uint64 {
	if ns := pidNamespace("self"); ns != 0 {
		return ns
	}
	return initPIDNamespace
})

// parentName is the name of a supervisor's own group: "warden-<pid>" for its
// first Manager, "warden-<pid>-<n>" for the next ones in the same process.
// A supervisor outside the initial PID namespace (in a container) puts its
// namespace's inode first, "warden-ns<inode>-<pid>[-<n>]": its pid means
// nothing to a supervisor in another namespace sharing the parent, which
// must not take the group for a dead supervisor's.
func parentName(pid, n int) string {
	return groupName("", pid, n)
}

// GroupName is the name of the group the first supervisor in process pid
// makes below its cgroup parent, pid being in this process's PID
// namespace (which the name carries outside the initial one). What is
// left of a supervisor is found under it.
func GroupName(pid int) string { return parentName(pid, 0) }

// groupName is parentName with a kind ("probe-" for Detect's probe).
func groupName(kind string, pid, n int) string {
	name := "warden-" + kind
	if ns := ownPIDNamespace(); ns != initPIDNamespace {
		name += fmt.Sprintf("ns%d-", ns)
	}
	name += strconv.Itoa(pid)
	if n > 0 {
		name += "-" + strconv.Itoa(n)
	}
	return name
}

// makeParent creates this supervisor's parent group, warden-<pid> (or
// warden-<pid>-<n> if that is taken), below every base directory at
// once, and returns its name.
func makeParent(bases []string) (string, error) {
	for n := 0; ; n++ {
		name := parentName(os.Getpid(), n)
		dirs := make([]string, len(bases))
		for i, b := range bases {
			dirs[i] = filepath.Join(b, name)
		}
		err := mkdirExclusive(dirs)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, ErrExists) || n >= 100 {
			return "", fmt.Errorf("cgroup: create parent group: %w", err)
		}
	}
}

// groupOwner is the supervisor a group name made by groupName belongs to:
// its pid, in the PID namespace ns.
type groupOwner struct {
	pid int
	ns  uint64
}

// ownerOf parses a group name made by groupName. A name without a
// namespace is the initial namespace's.
func ownerOf(name string) (groupOwner, bool) {
	rest, ok := strings.CutPrefix(name, "warden-")
	if !ok {
		return groupOwner{}, false
	}
	rest = strings.TrimPrefix(rest, "probe-")
	o := groupOwner{ns: initPIDNamespace}
	if nsRest, ok := strings.CutPrefix(rest, "ns"); ok {
		nsStr, after, found := strings.Cut(nsRest, "-")
		ns, err := strconv.ParseUint(nsStr, 10, 64)
		if !found || err != nil || ns == 0 || nsStr != strconv.FormatUint(ns, 10) {
			return groupOwner{}, false
		}
		o.ns, rest = ns, after
	}
	pidStr, suffix, hasSuffix := strings.Cut(rest, "-")
	if hasSuffix {
		if _, err := strconv.ParseUint(suffix, 10, 32); err != nil {
			return groupOwner{}, false
		}
	}
	pid, err := strconv.Atoi(pidStr)
	if err != nil || pid <= 0 || pidStr != strconv.Itoa(pid) {
		return groupOwner{}, false
	}
	o.pid = pid
	return o, true
}

// processGone reports whether pid is not a running process.
func processGone(pid int) bool { return procfs.Gone(pid) }

// ownerGone says whether the supervisor o is known to be dead, as seen
// from this process: its pid gone, when it shares this process's PID
// namespace; no process left in its namespace, when this process is in
// the initial namespace (which sees every process); otherwise it cannot
// be told, and the answer is no. live caches the namespaces of every
// process for the second case.
func ownerGone(o groupOwner, live func() map[uint64]bool) bool {
	own := ownPIDNamespace()
	switch {
	case o.ns == own:
		return processGone(o.pid)
	case own == initPIDNamespace:
		return !live()[o.ns]
	}
	return false
}

// livePIDNamespaces is the set of PID namespaces of every process this
// one can see.
func livePIDNamespaces() map[uint64]bool {
	set := map[uint64]bool{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || processGone(pid) {
			continue
		}
		if ns := pidNamespace(e.Name()); ns != 0 {
			set[ns] = true
		}
	}
	return set
}

// cleanStale removes the groups that dead supervisors left in base: every
// warden-<pid> directory whose owner is known to be dead (ownerGone). It
// kills their processes first. Failures are logged, not returned: they
// must not stop a new supervisor.
func (m *Manager) cleanStale(ctx context.Context, base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		m.log.Warn("stale cgroup scan failed", "dir", base, "err", err)
		return
	}
	self := groupOwner{pid: os.Getpid(), ns: ownPIDNamespace()}
	if m.livePIDNS == nil {
		// Read at most once per New, whichever hierarchies it scans.
		m.livePIDNS = sync.OnceValue(livePIDNamespaces)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		o, ok := ownerOf(e.Name())
		if !ok || o == self {
			continue
		}
		dir := filepath.Join(base, e.Name())
		if !ownerGone(o, m.livePIDNS) {
			if o.ns != self.ns {
				m.log.Debug("cgroup of a supervisor in another PID namespace left alone", "dir", dir)
			}
			continue
		}
		if err := removeTree(ctx, dir); err != nil {
			m.log.Warn("stale cgroup not removed", "dir", dir, "err", err)
			continue
		}
		m.log.Info("removed cgroup of a dead supervisor", "dir", dir, "pid", o.pid, "pid_namespace", o.ns)
	}
}

// removeTree kills every process below dir and removes dir and its
// subdirectories, deepest first.
func removeTree(ctx context.Context, dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if exists(filepath.Join(dir, "cgroup.kill")) {
		// v2: one write kills the whole subtree.
		if err := os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0); err != nil {
			return err
		}
	} else {
		// v1: freeze forks in every group that has a pids cap, then signal.
		for _, d := range dirs {
			if exists(filepath.Join(d, "pids.max")) {
				_ = os.WriteFile(filepath.Join(d, "pids.max"), []byte("0"), 0)
			}
		}
		if err := killTree(dirs, ""); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, drainTimeout)
	defer cancel()
	if err := waitEmpty(ctx, dirs); err != nil {
		return err
	}
	var errs []error
	for _, d := range slices.Backward(dirs) {
		if err := rmdirRetry(d); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// killTree sends SIGKILL to every process listed in the cgroup.procs of
// dirs, rereading until a pass finds no pid it has not signalled. If pidsDir
// is set, pids.max there is set to 0 first so nothing in the group can fork
// while it is being killed.
func killTree(dirs []string, pidsDir string) error {
	if pidsDir != "" {
		if err := os.WriteFile(filepath.Join(pidsDir, "pids.max"), []byte("0"), 0); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("stop forks: %w", err)
		}
	}
	signalled := make(map[int]bool)
	for range 100 {
		pids, err := readProcs(dirs)
		if err != nil {
			return err
		}
		fresh := 0
		for _, pid := range pids {
			if signalled[pid] {
				continue
			}
			signalled[pid] = true
			fresh++
			if err := unix.Kill(pid, unix.SIGKILL); err != nil && !errors.Is(err, unix.ESRCH) {
				return fmt.Errorf("kill pid %d: %w", pid, err)
			}
		}
		if fresh == 0 {
			return nil
		}
	}
	return errors.New("processes kept appearing while killing")
}

// waitEmpty polls until every dir's cgroup.procs is empty (or the dir is
// gone), or ctx is done.
func waitEmpty(ctx context.Context, dirs []string) error {
	// A SIGKILLed process usually leaves within a millisecond: poll finely
	// at first, then back off.
	const fine = 10 * time.Millisecond
	delay := 100 * time.Microsecond
	start := time.Now()
	for {
		pids, err := readProcs(dirs)
		if err != nil {
			return err
		}
		if len(pids) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pids %v still present: %w", pids, ctx.Err())
		case <-time.After(delay):
		}
		if time.Since(start) > fine {
			delay = min(delay*2, 20*time.Millisecond)
		}
	}
}

// readProcs returns the union of the pids in the cgroup.procs of dirs.
// Missing directories count as empty.
func readProcs(dirs []string) ([]int, error) {
	var out []int
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, err
		}
		for _, f := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				return nil, fmt.Errorf("parse %s/cgroup.procs: %w", d, err)
			}
			if !slices.Contains(out, pid) {
				out = append(out, pid)
			}
		}
	}
	return out, nil
}
