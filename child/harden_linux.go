package child

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// harden applies the child's self-hardening before anything untrusted
// runs.
func harden(o HardeningOptions) error {
	// The no-cgroup fallback: set from the start, so start-up counts too.
	for _, l := range []struct {
		name string
		res  int
		v    int64
	}{
		{"RLIMIT_DATA", unix.RLIMIT_DATA, o.RlimitDataBytes},
		{"RLIMIT_CPU", unix.RLIMIT_CPU, o.RlimitCPUSeconds},
		{"RLIMIT_NPROC", unix.RLIMIT_NPROC, o.RlimitNProc},
	} {
		if l.v <= 0 {
			continue
		}
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: uint64(l.v), Max: uint64(l.v)}); err != nil {
			return fmt.Errorf("child: %s: %w", l.name, err)
		}
	}
	if o.NoNewPrivs {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("child: PR_SET_NO_NEW_PRIVS: %w", err)
		}
	}
	return nil
}

// hardenAfterStartup applies the limits that start-up itself would trip
// over (the compilation cache may be written, files are opened).
func hardenAfterStartup(o HardeningOptions) error {
	if !o.Rlimits {
		return nil
	}
	for _, l := range []struct {
		name string
		res  int
		v    uint64
	}{
		{"RLIMIT_CORE", unix.RLIMIT_CORE, 0},
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, 0},
		{"RLIMIT_NOFILE", unix.RLIMIT_NOFILE, 64},
	} {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.v, Max: l.v}); err != nil {
			return fmt.Errorf("child: %s: %w", l.name, err)
		}
	}
	return nil
}

// rusage is the part of this process's getrusage the child reports.
type rusage struct {
	cpu    time.Duration // user + system
	faults int64         // minor + major page faults
	maxRSS int64         // bytes
}

// selfRusage is this process's resource use so far.
func selfRusage() (rusage, bool) {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return rusage{}, false
	}
	return rusage{
		cpu:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		faults: ru.Minflt + ru.Majflt,
		maxRSS: ru.Maxrss * 1024,
	}, true
}

// selfCPUAndFaults is this process's CPU time and page faults so far
// (0, 0 if the kernel will not say).
func selfCPUAndFaults() (time.Duration, int64) {
	u, _ := selfRusage()
	return u.cpu, u.faults
}
