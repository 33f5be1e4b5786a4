package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wardenhq/warden/supervisor"

	"github.com/wardenhq/warden/child"
)

// childSeen is what the kernel shows of one live child of this process
// in /proc: the hardening it actually got, whatever it was asked for.
type childSeen struct {
	pid int
	// status holds the NoNewPrivs, Seccomp and Uid lines of
	// /proc/PID/status.
	noNewPrivs, seccompFilter bool
	uid                       int
	// notDumpable: the kernel makes a non-dumpable process's /proc
	// files root's; known only for a child that is not root, in this
	// process's user namespace.
	notDumpable, dumpableKnown bool
	// ownNS names the namespaces whose /proc/PID/ns link differs from
	// this process's; nsErr says why they could not be read.
	ownNS map[string]bool
	nsErr error
	// rlimits: /proc/PID/limits shows the after-start-up rlimits (no
	// core files, no file writes, 64 descriptors).
	rlimits bool
}

// nsFiles are /proc/PID/ns's names for Layers' namespace names.
var nsFiles = map[string]string{"network": "net", "ipc": "ipc", "uts": "uts", "mount": "mnt", "user": "user", "pid": "pid", "cgroup": "cgroup"}

// seeIdleChild waits up to wait for an idle child of sup and reads what
// the kernel shows of it. A child installs its seccomp filter once its
// stream is open, which may be just after it joins the pool: when l says
// children install one, it reads again until the filter shows or wait
// runs out.
// waitForIdleChild waits, at most wait, until sup has a child ready.
func waitForIdleChild(sup *supervisor.Supervisor, wait time.Duration) {
	deadline := time.Now().Add(wait)
	for sup.Stats().Pool.Idle == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

// startWait is how long a child may take to start under cfg: its
// StartTimeout (the supervisor's default when unset).
func startWait(cfg supervisor.Config) time.Duration {
	if cfg.StartTimeout > 0 {
		return cfg.StartTimeout
	}
	return supervisor.DefaultStartTimeout
}

func seeIdleChild(l supervisor.Layers, wait time.Duration) (childSeen, error) {
	deadline := time.Now().Add(wait)
	for {
		seen, err := seeChild()
		done := err == nil && (seen.seccompFilter || !l.Seccomp || !seccompSupported())
		if done || time.Now().After(deadline) {
			return seen, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// seeChild reads /proc of the first live child of this process that the
// supervisor started ("warden-child" is its argv[0]).
func seeChild() (childSeen, error) {
	pid, err := findChild()
	if err != nil {
		return childSeen{}, err
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return childSeen{}, err
	}
	s := childSeen{pid: pid, ownNS: map[string]bool{}}
	for _, line := range strings.Split(string(status), "\n") {
		k, v, _ := strings.Cut(line, ":")
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		switch k {
		case "NoNewPrivs":
			s.noNewPrivs = f[0] == "1"
		case "Seccomp":
			s.seccompFilter = f[0] == "2" // SECCOMP_MODE_FILTER
		case "Uid":
			s.uid, _ = strconv.Atoi(f[0])
		}
	}
	if limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid)); err == nil {
		s.rlimits = true
		for _, l := range child.SteadyRlimits() {
			s.rlimits = s.rlimits && hasLimit(limits, l.ProcLabel, strconv.FormatUint(l.Value, 10))
		}
	}
	for name, file := range nsFiles {
		theirs, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/%s", pid, file))
		if err != nil {
			s.nsErr = err
			continue
		}
		ours, err := os.Readlink("/proc/self/ns/" + file)
		if err != nil {
			s.nsErr = err
			continue
		}
		s.ownNS[name] = theirs != ours
	}
	// In a user namespace of its own, the owner is that namespace's root
	// (which may map to the child's own uid): only tell in ours.
	var st syscall.Stat_t
	if own, ok := s.ownNS["user"]; ok && !own && s.uid != 0 && syscall.Stat(fmt.Sprintf("/proc/%d/status", pid), &st) == nil {
		s.dumpableKnown, s.notDumpable = true, st.Uid == 0
	}
	return s, nil
}

// hasLimit reports whether /proc/PID/limits shows soft and hard limits
// of v for the named resource.
func hasLimit(limits []byte, name, v string) bool {
	for _, line := range strings.Split(string(limits), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			return len(f) >= 2 && f[0] == v && f[1] == v
		}
	}
	return false
}

// findChild is the PID of a live child of this process whose argv[0] is
// "warden-child".
func findChild() (int, error) {
	pids := childPIDs()
	if len(pids) == 0 {
		return 0, errors.New("no live child found")
	}
	return pids[0], nil
}

// childPIDs are the PIDs of the live children of this process whose
// argv[0] is "warden-child".
func childPIDs() []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	self := os.Getpid()
	var pids []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid != self {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if arg0, _, _ := bytes.Cut(cmdline, []byte{0}); string(arg0) == supervisor.ChildProcessName {
			pids = append(pids, pid)
		}
	}
	return pids
}

// confirmInChild checks the active lines the kernel can confirm against
// what it shows of a live child: a line the supervisor asks for that
// the child did not get becomes MISSING, one it did get says so.
func confirmInChild(checks []layerCheck, seen childSeen, seenErr error) {
	for i := range checks {
		c := &checks[i]
		if !c.Active {
			continue
		}
		got, known := false, true
		switch layer := strings.TrimPrefix(c.Layer, "5 "); {
		case layer == "seccomp filter":
			got = seen.seccompFilter
		case layer == "no_new_privs":
			got = seen.noNewPrivs
		case layer == "rlimits":
			got = seen.rlimits
		case layer == "not dumpable":
			got, known = seen.notDumpable, seen.dumpableKnown
		case strings.HasSuffix(layer, " namespace"):
			name := strings.TrimSuffix(layer, " namespace")
			if name == "user" && !seen.ownNS["user"] && os.Geteuid() == 0 {
				known = false // not needed as root (namespaceChecks)
			} else {
				got, known = seen.ownNS[name]
			}
		default:
			continue
		}
		switch {
		case seenErr != nil:
			// Not confirmed: say nothing more than the supervisor does.
		case !known:
		case got:
			c.Detail += fmt.Sprintf("; seen in child %d", seen.pid)
		default:
			c.Active = false
			c.Detail = fmt.Sprintf("the supervisor asks for it, but child %d does not have it (/proc/%d): %s", seen.pid, seen.pid, c.Detail)
		}
	}
}
