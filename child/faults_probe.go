//go:build wardenfaults

package child

import (
	"context"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/pagemap"
)

// Faults that report rather than misbehave: what the child runs as and
// what it can see.

// probeUID reports which user the child runs as.
func probeUID(context.Context, string) (*contract.Result, error) {
	return quoted(strconv.Itoa(os.Getuid()))
}

// probeRlimits reports the rlimits the child runs under (the no-cgroup
// fallback's), as "DATA CPU NPROC".
func probeRlimits(context.Context, string) (*contract.Result, error) {
	var out []string
	for _, res := range []int{unix.RLIMIT_DATA, unix.RLIMIT_CPU, unix.RLIMIT_NPROC} {
		var l unix.Rlimit
		if err := unix.Getrlimit(res, &l); err != nil {
			return nil, err
		}
		out = append(out, strconv.FormatUint(l.Cur, 10)+"/"+strconv.FormatUint(l.Max, 10))
	}
	return quoted(strings.Join(out, " "))
}

func probeDumpable(context.Context, string) (*contract.Result, error) {
	d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		return nil, err
	}
	return report(map[string]int{"dumpable": d})
}

// probePagemap reports whether the pagemap descriptor opened at start-up
// still reads, in a child that is no longer dumpable: the entry of a page
// it has just touched must say present.
func probePagemap(context.Context, string) (*contract.Result, error) {
	b := make([]byte, 1<<16)
	b[len(b)/2] = 1
	page := uintptr(unsafe.Pointer(&b[len(b)/2])) / uintptr(os.Getpagesize())
	e, ok := pagemap.Entries(page, 1)
	return report(map[string]bool{"read": ok, "present": ok && e[0]&pagemap.Present != 0})
}

// probePidView reports which pid the child has, which pids its /proc
// lists, and whether /proc/ARG (the supervisor's pid) exists.
func probePidView(_ context.Context, arg string) (*contract.Result, error) {
	_, err := os.Stat("/proc/" + arg)
	return report(map[string]any{"pid": os.Getpid(), "procs": procPids(), "supervisor_visible": err == nil})
}

// procPids lists the numeric entries of /proc.
func procPids() []int {
	ents, _ := os.ReadDir("/proc")
	pids := []int{}
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}
