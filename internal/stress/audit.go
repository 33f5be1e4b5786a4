package stress

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Snapshot is one reading of what the supervisor's process holds.
type Snapshot struct {
	// At is the time since the run started.
	At time.Duration `json:"at_ns"`
	// Processes are this process's live descendants ("PID cmdline").
	Processes []string `json:"processes"`
	// FDs counts this process's open descriptors by kind (a path,
	// "socket", "pipe", "anon_inode:[eventpoll]", ...).
	FDs map[string]int `json:"fds"`
	// Cgroups are the directories below warden-<pid> in this process's
	// cgroups (the supervisor's own group included).
	Cgroups []string `json:"cgroups"`
	// RSSBytes is this process's resident set, HeapBytes the part of
	// the Go heap its live and not yet collected objects take (RSS also
	// holds freed heap the runtime has not returned yet).
	RSSBytes   int64 `json:"rss_bytes"`
	HeapBytes  int64 `json:"heap_bytes"`
	Goroutines int   `json:"goroutines"`
	// TempEntries lists the entries of the temporary directories the
	// supervisor makes socket directories in.
	TempEntries []string `json:"temp_entries"`
}

// FDCount is the number of open descriptors.
func (s Snapshot) FDCount() int {
	n := 0
	for _, c := range s.FDs {
		n += c
	}
	return n
}

// takeSnapshot reads the process's state now; tempDirs are the
// directories whose entries count.
func takeSnapshot(start time.Time, tempDirs []string) Snapshot {
	s := Snapshot{At: time.Since(start), FDs: map[string]int{}, Goroutines: runtime.NumGoroutine(),
		Processes: []string{}, Cgroups: []string{}, TempEntries: []string{}}
	for _, p := range descendants(allProcs(), os.Getpid()) {
		s.Processes = append(s.Processes, strconv.Itoa(p.pid)+" "+p.cmdline)
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err != nil {
			continue // the directory's own descriptor, closed by now
		}
		s.FDs[fdKind(target)]++
	}
	s.Cgroups = append(s.Cgroups, wardenCgroups()...)
	s.RSSBytes = selfRSS()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		s.HeapBytes = int64(sample[0].Value.Uint64())
	}
	for _, d := range tempDirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			s.TempEntries = append(s.TempEntries, filepath.Join(d, e.Name()))
		}
	}
	return s
}

// fdKind names what a descriptor points at, without the inode numbers
// that make every socket and pipe distinct.
func fdKind(target string) string {
	for _, k := range []string{"socket:", "pipe:"} {
		if strings.HasPrefix(target, k) {
			return strings.TrimSuffix(k, ":")
		}
	}
	return target
}

// selfRSS is VmRSS from /proc/self/status, in bytes.
func selfRSS() int64 {
	kb, _ := strconv.ParseInt(strings.TrimSuffix(procStatus(os.Getpid(), "VmRSS"), " kB"), 10, 64)
	return kb << 10
}

// runtimeFDs are descriptors the Go runtime opens once per process the
// first time something waits on a descriptor (the netpoller), and keeps:
// not a leak of the supervisor's.
var runtimeFDs = []string{"anon_inode:[eventpoll]", "anon_inode:[eventfd]"}

// GoroutineSlack is how many goroutines more than before the run the
// process may hold after it: the standard library starts a few on first
// use (signal handling, the netpoller's timers) and keeps them.
const GoroutineSlack = 4

// leaks compares after against before and lists what was left behind.
func leaks(before, after Snapshot) []string {
	out := []string{}
	for _, p := range after.Processes {
		if !slices.Contains(before.Processes, p) {
			out = append(out, "process left: "+p)
		}
	}
	for _, c := range after.Cgroups {
		if !slices.Contains(before.Cgroups, c) {
			out = append(out, "cgroup left: "+c)
		}
	}
	for _, e := range after.TempEntries {
		if !slices.Contains(before.TempEntries, e) {
			out = append(out, "temporary file left: "+e)
		}
	}
	for kind, n := range after.FDs {
		if n > before.FDs[kind] && !slices.Contains(runtimeFDs, kind) {
			out = append(out, fmt.Sprintf("descriptors left: %d more %s", n-before.FDs[kind], kind))
		}
	}
	if after.Goroutines > before.Goroutines+GoroutineSlack {
		out = append(out, fmt.Sprintf("goroutines left: %d after, %d before (slack %d)", after.Goroutines, before.Goroutines, GoroutineSlack))
	}
	slices.Sort(out)
	return out
}

// settle takes snapshots until nothing is left over against before, or
// within has passed (children are reaped and goroutines end off the
// Close path's critical section), and returns the last one with what it
// still shows.
func settle(start time.Time, before Snapshot, tempDirs []string, within time.Duration) (Snapshot, []string) {
	deadline := time.Now().Add(within)
	for {
		after := takeSnapshot(start, tempDirs)
		left := leaks(before, after)
		if len(left) == 0 || time.Now().After(deadline) {
			return after, left
		}
		time.Sleep(100 * time.Millisecond)
	}
}
