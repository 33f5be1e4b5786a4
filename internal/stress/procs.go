package stress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wardenhq/warden/cgroup"
)

// proc is what the runner reads of one process in /proc.
type proc struct {
	pid, ppid, sid int
	// cpuTicks is utime+stime in clock ticks.
	cpuTicks int64
	cmdline  string
}

// readProc reads /proc/PID/stat and cmdline; ok is false when the
// process is gone.
func readProc(pid int) (p proc, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return p, false
	}
	// pid (comm) state ppid pgrp session ... utime(14) stime(15); comm may
	// hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return p, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 || f[0] == "Z" || f[0] == "X" {
		return p, false
	}
	p.pid = pid
	p.ppid, _ = strconv.Atoi(f[1])
	p.sid, _ = strconv.Atoi(f[3])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	p.cpuTicks = ut + st
	cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	p.cmdline = string(bytes.ReplaceAll(cl, []byte{0}, []byte{' '}))
	return p, true
}

// allProcs lists every live process.
func allProcs() []proc {
	entries, _ := os.ReadDir("/proc")
	var out []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// descendants are the live processes below pid (children, theirs, ...).
func descendants(all []proc, pid int) []proc {
	kids := map[int][]proc{}
	for _, p := range all {
		kids[p.ppid] = append(kids[p.ppid], p)
	}
	var out []proc
	queue := []int{pid}
	for len(queue) > 0 {
		for _, k := range kids[queue[0]] {
			out = append(out, k)
			queue = append(queue, k.pid)
		}
		queue = queue[1:]
	}
	return out
}

// childEnv reads one variable of a process's initial environment ("" if
// it cannot: a child is not dumpable, so this needs CAP_SYS_PTRACE).
func childEnv(pid int, name string) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return ""
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(name+"=")); ok {
			return string(v)
		}
	}
	return ""
}

// cgroupMount is where the cgroup hierarchies are mounted.
const cgroupMount = "/sys/fs/cgroup"

// cgroupDirs are the directories of pid's cgroups, one per hierarchy
// (v1: one per controller mount, v2: the unified one).
func cgroupDirs(pid int) map[string]string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		ctrl := parts[1]
		var dir string
		if ctrl == "" {
			dir = filepath.Join(cgroupMount, parts[2])
			ctrl = "unified"
		} else {
			first := strings.TrimPrefix(strings.Split(ctrl, ",")[0], "name=")
			dir = filepath.Join(cgroupMount, first, parts[2])
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			out[ctrl] = dir
		}
	}
	return out
}

// wardenCgroups lists the directories below this process's own cgroups
// that a supervisor in it made: its group (cgroup.GroupName) and everything
// under it.
func wardenCgroups() []string {
	var out []string
	for _, dir := range cgroupDirs(os.Getpid()) {
		// On v2 the supervisor moves itself into <own>/supervisor, so
		// look one level up too.
		for _, base := range []string{dir, filepath.Dir(dir)} {
			filepath.WalkDir(filepath.Join(base, cgroup.GroupName(os.Getpid())), func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					out = append(out, p)
				}
				return nil
			})
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// procStatus reads one field of /proc/PID/status ("" if it cannot).
func procStatus(pid int, field string) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
