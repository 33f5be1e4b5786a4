// Package cgroup puts each Warden child process in its own cgroup with a
// memory cap and a process-count cap, and reports what the kernel did to it
// (peak memory, OOM kills, task count).
//
// It is the only package that imports github.com/containerd/cgroups/v3. It
// picks cgroup v2 (unified) or v1 from what the machine has, at [New]:
//
//   - v2: groups live in the supervisor's delegated subtree
//     (<own cgroup>/warden-<pid>/<name>). Because of the v2
//     no-internal-processes rule, New first moves every process of the
//     supervisor's own cgroup into the leaf <own>/supervisor, then enables the
//     memory and pids controllers below it. Children should be started with
//     [Group.CgroupFD] (CLONE_INTO_CGROUP) so they never run uncapped.
//   - v1: one directory per controller (memory, pids), each below the
//     supervisor's own cgroup in that hierarchy. A child must be started and
//     then placed with [Group.AddProc]; until then it runs in the supervisor's
//     group, so the child must not do untrusted work before it is placed.
//   - none: no usable memory controller. [Manager.Create] fails with
//     [ErrUnavailable]; the caller decides whether to run without cgroups.
//
// Contract:
//
//   - A cap that cannot be applied is an error, never a warning: Create
//     writes every requested limit, reads it back, and removes the group if
//     anything is off.
//   - Swap is capped to zero wherever the controller allows it (v1:
//     memory.memsw.limit_in_bytes equal to the memory limit; v2:
//     memory.swap.max = 0). Where swap accounting is off, [Detect] and the
//     New log say so.
//   - PidsMax counts tasks (threads), not processes: a Go child needs room for
//     its runtime threads.
//   - A group may serve one process after another: [Group.Reset] makes an
//     empty group as Create left it (peak and failure counts reset,
//     pids.max written again, every cap read back), or fails with
//     [ErrNotReset] (a process still in it, more than [MaxResidualBytes]
//     charged, a counter the kernel will not reset: [ErrResetUnsupported]
//     on v2 before 6.12), and the caller deletes it. OOM-kill counts are
//     never reset: callers take a baseline.
//   - Groups left by a supervisor that died (sibling warden-<pid> directories
//     whose pid is no longer a live process) are killed and removed by the
//     next New on the same parent. Supervisors sharing a parent cgroup must
//     share a pid namespace, or they will see each other as dead.
//
// The package logs through the *slog.Logger in [Config] and never through a
// global logger.
//
// This is an implementation package of Warden, with no compatibility
// promise: its API changes whenever Warden's internals do. Programs that
// embed Warden use the supervisor and contract packages.
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package cgroup
