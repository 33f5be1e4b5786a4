package child

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// harden applies the child's self-hardening before anything untrusted
// runs.
func harden(o HardeningOptions) error {
	if o.NoNewPrivs {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("child: PR_SET_NO_NEW_PRIVS: %w", err)
		}
	}
	return nil
}

// selfUsage is this process's CPU time and peak RSS.
func selfUsage() (time.Duration, int64, bool) {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss * 1024, true
}
