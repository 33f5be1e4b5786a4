//go:build !linux

package child

import (
	"errors"
	"runtime"
	"time"

	"github.com/wardenhq/warden/ipc"
)

// Off Linux the child has none of its hardening (harden_linux.go), so it
// refuses to serve; the package builds so that a program calling
// RunIfChild does. The supervisor does not start off Linux either.

var errNotLinux = errors.New("child: the sandboxed child needs Linux (this is " + runtime.GOOS + ")")

type rusage struct {
	cpu    time.Duration
	faults int64
	maxRSS int64
}

func harden(ipc.Hardening) error { return errNotLinux }

func hardenAfterStartup(ipc.Hardening) error { return errNotLinux }

func selfRusage() (rusage, bool) { return rusage{}, false }

func selfCPUAndFaults() (time.Duration, int64) { return 0, 0 }

// SteadyRlimit is an rlimit a child sets once start-up is done (none
// off Linux).
type SteadyRlimit struct {
	Name      string
	ProcLabel string
	Value     uint64
}

// SteadyRlimits is empty off Linux.
func SteadyRlimits() []SteadyRlimit { return nil }
