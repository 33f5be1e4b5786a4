package seccomp

import "golang.org/x/sys/unix"

// allowed is the allow-list: syscalls the child may make after
// start-up with any arguments. The order is the order of the checks in
// the filter (hot calls first; on kernels >= 5.11 the kernel's seccomp
// action cache makes these constant-time anyway, because their verdict
// does not depend on the arguments).
var allowed = []struct{ name, why string }{
	{"futex", "Go runtime: every lock, note and goroutine hand-off between threads"},
	{"read", "gRPC stream and stdio pipes, eventfd of the netpoller"},
	{"write", "gRPC stream, log records to stderr, netpoller wake-up (eventfd)"},
	{"epoll_pwait", "Go netpoller: waiting on the already-open sockets and pipes (Go 1.26 uses epoll_pwait, not epoll_wait)"},
	{"epoll_ctl", "Go netpoller: registering/unregistering descriptors as connections and pipes are used and closed"},
	{"nanosleep", "Go runtime usleep (sysmon, spinning, backoff)"},
	{"clock_nanosleep", "glibc's nanosleep/usleep on cgo threads"},
	{"sched_yield", "Go runtime osyield"},
	{"clock_gettime", "time.Now, thread CPU clock (engine stats); normally the vDSO, this is its fallback"},
	{"gettimeofday", "vDSO fallback of the same (glibc)"},
	{"getpid", "Go runtime: signal delivery to its own threads (tgkill(getpid(), tid, sig))"},
	{"gettid", "Go runtime: thread id at thread start and for signals"},
	{"rt_sigprocmask", "Go runtime: every new thread masks/unmasks signals; os/signal"},
	{"rt_sigaction", "Go runtime: os/signal at run time, and the crash path (dieFromSignal resets the handler before re-raising; refusing it would report a crash as SIGSYS)"},
	{"rt_sigreturn", "return from every signal handler (SIGURG preemption, profiling)"},
	{"sigaltstack", "Go runtime: every new thread installs its signal stack, and removes it at thread exit"},
	{"mmap", "Go heap growth, goroutine stacks, thread stacks, vDSO getrandom state, wasm linear memory growth (Go heap)"},
	{"munmap", "Go runtime/glibc release of thread stacks and large spans; wazero code segments on close"},
	{"madvise", "Go scavenger returns memory (MADV_DONTNEED/FREE), huge-page hints, glibc at thread exit"},
	{"mprotect", "glibc guard pages of new cgo thread stacks; kept for wazero (code segments are made executable at compile time, i.e. at start-up, but an allow-list that breaks a lazy path would be worse than the little this removes)"},
	{"mremap", "glibc realloc of large blocks on cgo threads"},
	{"brk", "glibc malloc on cgo threads"},
	{"sched_getaffinity", "Go 1.25+: sysmon re-derives the default GOMAXPROCS from the CPU mask every second"},
	{"pread64", "Go 1.25+: sysmon re-reads the cgroup CPU limit every second from files opened at start-up (cpu.max; v1: cpu.cfs_quota_us, cpu.cfs_period_us)"},
	{"getrandom", "crypto/rand and runtime seeds (vDSO getrandom falls back to the syscall)"},
	{"readv", "vectored reads on existing descriptors: no more than read"},
	{"writev", "vectored writes on existing descriptors: no more than write"},
	{"close", "closing the gRPC connection, pipes and timers' descriptors at the end"},
	{"accept4", "go-plugin's gRPC server keeps accepting on its listener (created at start-up); accepting is not creating a socket, and RLIMIT_NOFILE bounds it"},
	{"getsockname", "net: local address of an accepted connection"},
	{"getpeername", "net: remote address of an accepted connection"},
	{"getsockopt", "gRPC reads the socket options of every accepted connection (channelz: SO_LINGER, SO_RCVTIMEO, SO_SNDTIMEO, TCP_INFO)"},
	{"shutdown", "half-closing an existing connection: no more than close"},
	{"getrusage", "the child reports its own CPU time and peak RSS with the result (selfRusage)"},
	{"restart_syscall", "the kernel restarts an interrupted nanosleep/futex through it after a signal"},
	{"set_robust_list", "glibc: every new cgo thread registers its robust futex list"},
	{"rseq", "glibc 2.35+: every new cgo thread registers (and at exit unregisters) restartable sequences"},
	{"exit", "a thread exits (a goroutine that ends while locked to its thread, glibc pthread_exit)"},
	{"exit_group", "the child exits"},
}

// Argument-checked and errno rules, handled apart from the allow-list:
//
//	clone     only with CLONE_THREAD and no namespace flag (Go's newosproc,
//	          glibc's pthread_create)
//	tgkill    only to threads of this process (Go's preemption and signal
//	          forwarding: tgkill(getpid(), tid, sig))
//	fcntl     only F_GETFD, F_SETFD, F_GETFL, F_SETFL (os.File and net
//	          bookkeeping of O_NONBLOCK and FD_CLOEXEC); F_SETOWN/F_SETSIG
//	          would let SIGIO-style signals reach other processes and
//	          F_DUPFD would duplicate descriptors
//	clone3    ENOSYS (glibc falls back to clone)
//	ioctl     ENOTTY for TCGETS (esbuild asks whether stderr is a
//	          terminal on every TypeScript transform), otherwise kill
//	unlinkat  EPERM (go-plugin removes its socket file at a graceful exit)
//	openat    EACCES from inside libc's code, otherwise kill
const (
	// clone is allowed only for threads: CLONE_THREAD set and no
	// namespace flag. A thread shares this process, its filter included.
	// Only the low 32 bits of the flags matter to the kernel.
	cloneRequired  = unix.CLONE_THREAD
	cloneForbidden = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
		unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET
)

// fcntlAllowed are the fcntl commands the child may use (the same
// numbers on every Linux architecture).
var fcntlAllowed = []uint32{unix.F_GETFD, unix.F_SETFD, unix.F_GETFL, unix.F_SETFL}
