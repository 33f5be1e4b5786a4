package child

import (
	"fmt"

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
