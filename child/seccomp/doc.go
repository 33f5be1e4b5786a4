// Package seccomp is the child's system-call filter, layer 5 of the
// defence: a classic-BPF allow-list, built here by a small assembler, that
// the child installs on all its threads before any untrusted code runs.
// The child prepares it at start-up (Prepare) and installs it when its
// execution's stream opens (Install); `warden doctor` asks Available
// whether the kernel can run it. It is a package of its own so that the
// filter can be tested and reviewed apart from the child, and so that its
// only dependency is x/sys.
//
// The child is a Go program. Once it has started (QuickJS compiled and
// instantiated, the gRPC connection to the supervisor up), the only
// things it still does are: run wasm, allocate, schedule goroutines on
// OS threads, sleep, wait on its already-open sockets and pipes, read the
// clock and its own rusage, and exit. Install then installs a
// classic-BPF allow-list of exactly those system calls on every thread
// (SECCOMP_FILTER_FLAG_TSYNC). Any other system call - execve, fork, a
// new socket, opening a file, ptrace, namespaces, mounts, ... - kills the
// whole child with SIGSYS (SECCOMP_RET_KILL_PROCESS), so an escape from
// the wasm sandbox into the Go process still cannot reach the rest of
// the machine, and the supervisor sees a child killed by SIGSYS.
//
// Four calls are refused with an errno instead of a kill, because known,
// harmless code makes them (nothing happens either way):
//
//   - ioctl(fd, TCGETS) fails with ENOTTY, as it does on a pipe: esbuild
//     (the TypeScript transform, internal/typescript) asks whether stderr
//     is a terminal each time it transforms. Every other ioctl kills
//     (TIOCSTI, which pushes input into a terminal, among them).
//   - clone3 fails with ENOSYS. Its flags live in memory, where a seccomp
//     filter cannot look, so it cannot be allowed for threads only; glibc
//     (which creates the threads of a cgo binary, pthread_create) tries
//     clone3 first and falls back to clone on ENOSYS, where the flags are
//     checked.
//   - unlinkat fails with EPERM. go-plugin's listener removes its socket
//     file when the child shuts down gracefully (the controller's
//     Shutdown); killing there would turn every graceful exit into a
//     SIGSYS. Nothing is removed either way.
//   - openat fails with EACCES when it is made from inside glibc's code
//     (the instruction pointer lies in libc.so's executable mapping, read
//     from /proc/self/maps before the filter goes on); from anywhere else,
//     the Go runtime and packages included, it kills. In a cgo binary the
//     threads are glibc's, and each new thread's first malloc may create
//     a malloc arena; past the eighth arena glibc sizes its arena limit by
//     reading /sys/devices/system/cpu/online (and /proc/stat), at a moment
//     no one controls. With the open refused it falls back to
//     sched_getaffinity. Code that jumps into glibc to open a file gains
//     nothing: the open fails. A static (CGO_ENABLED=0) child has no libc
//     mapping and so no such exception; a supervisor that sets
//     GLIBC_TUNABLES=glibc.malloc.arena_max=N in the child's environment
//     makes glibc skip that read.
//
// The files: allowlist_linux.go is the policy (every allowed syscall with
// its reason, and the argument-checked and errno rules);
// tables_linux.go the syscall numbers per architecture; libc_linux.go
// finds glibc's code for the openat rule; filter_linux.go compiles the
// policy to a program with the assembler of bpf_linux.go;
// install_linux.go prepares, installs and probes it.
//
// This is an implementation package of Warden, with no compatibility
// promise: its API changes whenever Warden's internals do. Programs that
// embed Warden use the supervisor and contract packages.
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package seccomp
