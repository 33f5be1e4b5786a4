package cgroup

import (
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Modes reported by [Manager.Mode] and [Report].
const (
	ModeV1   = "v1"
	ModeV2   = "v2"
	ModeNone = "none"
)

var (
	// ErrUnavailable means the machine has no usable cgroup memory controller.
	ErrUnavailable = errors.New("cgroup: unavailable")
	// ErrInvalidConfig means Config failed validation in New.
	ErrInvalidConfig = errors.New("cgroup: invalid config")
	// ErrInvalidName means a group name is not 1-64 characters of [A-Za-z0-9_-].
	ErrInvalidName = errors.New("cgroup: invalid group name")
	// ErrInvalidLimits means Limits failed validation before anything was created.
	ErrInvalidLimits = errors.New("cgroup: invalid limits")
	// ErrLimit means a cap could not be applied; the group was removed.
	ErrLimit = errors.New("cgroup: cannot apply limit")
	// ErrExists means a group of that name already exists.
	ErrExists = errors.New("cgroup: group already exists")
	// ErrClosed means the Manager was closed.
	ErrClosed = errors.New("cgroup: manager closed")
	// ErrDeleted means the Group was deleted.
	ErrDeleted = errors.New("cgroup: group deleted")
	// ErrBusy means processes were still in a group after it was killed.
	ErrBusy = errors.New("cgroup: processes still running")
)

const (
	// minMemoryBytes is the smallest memory cap Create accepts. The kernel
	// takes anything down to 0 on an empty group (rounding to pages), which
	// would make the child fail on its first page; refuse it here instead.
	minMemoryBytes = 1 << 20
	// drainTimeout bounds how long Delete and stale cleanup wait for killed
	// processes to leave a group.
	drainTimeout = 2 * time.Second
)

// Config configures a Manager. The zero value is valid.
type Config struct {
	// Parent, when set, is a cgroup path relative to the hierarchy root (as
	// in /proc/self/cgroup, e.g. "/process_api/x/warden") under which this
	// Manager creates its own "warden-<pid>" group, and the groups inside it.
	// Missing directories are created (and removed again by Close if empty).
	// On v1 the same path is used in every controller. On v2 Parent must
	// hold no processes.
	// Empty (the default) means the supervisor's own cgroup, per controller.
	Parent string
	// Logger receives the package's logs. Nil (the default) discards them.
	Logger *slog.Logger
}

// Limits are the caps of one group. A zero field means "no cap of that kind".
type Limits struct {
	// MemoryBytes caps the group's memory (already including the runtime's
	// overhead). Swap is capped to zero where the controller allows it.
	// Non-zero values below 1 MiB are refused.
	MemoryBytes int64
	// PidsMax caps the number of tasks (threads, not processes) in the group.
	PidsMax int64
}

// Usage is what a group used, as the kernel accounts it.
type Usage struct {
	// PeakBytes is the highest memory use (v1 memory.max_usage_in_bytes,
	// v2 memory.peak, or memory.current on kernels before 5.19).
	PeakBytes uint64
	// OOMKills is the number of processes the OOM killer killed in the group.
	OOMKills uint64
	// PidsCurrent is the number of tasks in the group now.
	PidsCurrent uint64
}

// validName accepts 1-64 characters of [A-Za-z0-9_-]: nothing that can
// escape the parent or collide with a control file.
func validName(name string) error {
	if len(name) == 0 || len(name) > 64 {
		return fmt.Errorf("%w: %q", ErrInvalidName, name)
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		default:
			return fmt.Errorf("%w: %q", ErrInvalidName, name)
		}
	}
	return nil
}

// Report says what cgroup support the machine has, for `warden doctor`.
type Report struct {
	// Mode is "v1", "v2" or "none".
	Mode string
	// Controllers has the keys "memory", "pids" and "swap" (swap accounting,
	// so that swap can be capped to zero).
	Controllers map[string]bool
	// Writable reports whether a probe group could be created and removed
	// below the process's own cgroup in every controller.
	Writable bool
	// Reason says, in one line, what was found and why anything is missing.
	Reason string
}

// Usable reports whether children can be given memory caps here: a
// cgroup mode, the memory controller, and a writable place for groups.
func (r Report) Usable() bool {
	return r.Mode != ModeNone && r.Writable && r.Controllers["memory"]
}

// ErrNotReset means a group could not be made ready for another process
// (it is not empty, a counter cannot be reset, a cap does not read back,
// or its last process left too much memory charged to it): remove it
// with Delete instead.
var ErrNotReset = errors.New("cgroup: group cannot be reset")

// ErrResetUnsupported is wrapped by Reset's error when the kernel cannot
// reset a group at all (cgroup v2 before 6.12 cannot reset memory.peak):
// no group of this Manager will be reset, so stop asking.
var ErrResetUnsupported = errors.New("this kernel cannot reset a group's peak memory")

// MaxResidualBytes is the most memory an emptied group may still have
// charged to it (page cache its last process read, which the kernel
// reclaims first under the cap) and be reset for another process; a
// group holding more is removed instead, so that no process starts with
// much of its cap taken.
const MaxResidualBytes = 8 << 20
