package seccomp

// Layer 5 of the defence: a seccomp filter on the whole child process.
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
// Three calls are refused with an errno instead of a kill, because known,
// harmless code makes them (nothing happens either way):
//
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
// The syscall numbers are written out per architecture (amd64, arm64)
// rather than taken from x/sys/unix, so that this file builds on every
// GOARCH and the table can be reviewed against the kernel's headers
// (TestSeccompSyscallTables does exactly that).

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/internal/pagemap"
)

// seccompAllowed is the allow-list: syscalls the child may make after
// start-up with any arguments. The order is the order of the checks in
// the filter (hot calls first; on kernels >= 5.11 the kernel's seccomp
// action cache makes these constant-time anyway, because their verdict
// does not depend on the arguments).
var seccompAllowed = []struct{ name, why string }{
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
//	unlinkat  EPERM (go-plugin removes its socket file at a graceful exit)
//	openat    EACCES from inside libc's code, otherwise kill
const (
	// clone is allowed only for threads: CLONE_THREAD set and no
	// namespace flag. A thread shares this process, its filter included.
	// Only the low 32 bits of the flags matter to the kernel.
	seccompCloneRequired  = unix.CLONE_THREAD
	seccompCloneForbidden = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
		unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET
)

// seccompFcntlAllowed are the fcntl commands the child may use (the same
// numbers on every Linux architecture).
var seccompFcntlAllowed = []uint32{unix.F_GETFD, unix.F_SETFD, unix.F_GETFL, unix.F_SETFL}

// seccompArch is one architecture's view of the filter.
type seccompArch struct {
	audit uint32 // AUDIT_ARCH_* the kernel reports in seccomp_data.arch
	// x32 marks amd64, where the same arch value also carries the x32
	// ABI's syscalls, numbered with __X32_SYSCALL_BIT set.
	x32 bool
	nr  map[string]uint32
}

const seccompX32Bit = 0x40000000

// seccompArches holds the syscall numbers, checked against
// /usr/include/x86_64-linux-gnu/asm/unistd_64.h and
// /usr/include/asm-generic/unistd.h by TestSeccompSyscallTables.
var seccompArches = map[string]seccompArch{
	"amd64": {audit: unix.AUDIT_ARCH_X86_64, x32: true, nr: map[string]uint32{
		"read": 0, "write": 1, "close": 3, "mmap": 9, "mprotect": 10, "munmap": 11, "brk": 12,
		"rt_sigaction": 13, "rt_sigprocmask": 14, "rt_sigreturn": 15, "pread64": 17,
		"readv": 19, "writev": 20, "sched_yield": 24, "mremap": 25, "madvise": 28,
		"nanosleep": 35, "getpid": 39, "shutdown": 48,
		"getsockname": 51, "getpeername": 52, "getsockopt": 55, "clone": 56, "exit": 60, "fcntl": 72,
		"gettimeofday": 96, "getrusage": 98, "sigaltstack": 131, "gettid": 186,
		"futex": 202, "sched_getaffinity": 204, "restart_syscall": 219,
		"clock_gettime": 228, "clock_nanosleep": 230, "exit_group": 231, "epoll_ctl": 233,
		"tgkill": 234, "openat": 257, "unlinkat": 263, "set_robust_list": 273, "epoll_pwait": 281,
		"accept4": 288, "getrandom": 318, "rseq": 334, "clone3": 435,
	}},
	"arm64": {audit: unix.AUDIT_ARCH_AARCH64, nr: map[string]uint32{
		"epoll_ctl": 21, "epoll_pwait": 22, "fcntl": 25, "unlinkat": 35, "openat": 56, "close": 57,
		"read": 63, "write": 64, "readv": 65, "writev": 66, "pread64": 67,
		"exit": 93, "exit_group": 94, "futex": 98, "set_robust_list": 99,
		"nanosleep": 101, "clock_gettime": 113, "clock_nanosleep": 115,
		"sched_getaffinity": 123, "sched_yield": 124, "restart_syscall": 128,
		"tgkill": 131, "sigaltstack": 132, "rt_sigaction": 134, "rt_sigprocmask": 135,
		"rt_sigreturn": 139, "getrusage": 165, "gettimeofday": 169, "getpid": 172,
		"gettid": 178, "getsockname": 204, "getpeername": 205, "shutdown": 210,
		"getsockopt": 209, "brk": 214, "munmap": 215, "mremap": 216,
		"clone": 220, "mmap": 222, "mprotect": 226, "madvise": 233, "accept4": 242,
		"getrandom": 278, "rseq": 293, "clone3": 435,
	}},
}

// Offsets into struct seccomp_data.
const (
	seccompDataNr   = 0
	seccompDataArch = 4
	seccompDataIP   = 8
	seccompDataArgs = 16
)

// seccompArgLow is the offset of the low 32 bits of argument i (both
// supported architectures are little-endian).
func seccompArgLow(i int) uint32 { return uint32(seccompDataArgs + 8*i) }

// seccompRange is a range [start, end) of executable addresses.
type seccompRange struct{ start, end uint64 }

// libcCode returns the executable mappings of glibc in this process
// (none in a static binary), from /proc/self/maps.
func libcCode() ([]seccompRange, error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseLibcCode(f)
}

// isLibcName reports whether a mapped file's base name is libc's
// (libc.so.6, libc-2.31.so). A plain check, not a regexp: a package-level
// regexp is compiled in every child at start-up, used or not.
func isLibcName(base string) bool {
	rest, ok := strings.CutPrefix(base, "libc")
	return ok && (strings.HasPrefix(rest, ".so") || (len(rest) >= 2 && rest[0] == '-' && rest[1] >= '0' && rest[1] <= '9'))
}

func parseLibcCode(f io.Reader) ([]seccompRange, error) {
	var code []seccompRange
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || len(fields[1]) < 3 || fields[1][2] != 'x' || !isLibcName(filepath.Base(fields[5])) {
			continue
		}
		start, end, ok := pagemap.MapsRange(fields[0])
		if !ok {
			return nil, fmt.Errorf("child: seccomp: bad line in /proc/self/maps: %q", sc.Text())
		}
		code = append(code, seccompRange{start, end})
	}
	return code, sc.Err()
}

// seccompFilter builds the filter for goarch. pid is this process's id:
// tgkill may signal only threads of this process. libc is glibc's code,
// from which openat fails with EACCES instead of killing.
func seccompFilter(goarch string, pid int, libc []seccompRange) ([]unix.SockFilter, error) {
	arch, ok := seccompArches[goarch]
	if !ok {
		return nil, fmt.Errorf("child: seccomp: no syscall table for GOARCH %s", goarch)
	}
	var missing []string
	nr := func(name string) uint32 {
		n, ok := arch.nr[name]
		if !ok {
			missing = append(missing, name)
		}
		return n
	}
	var a bpfAsm
	a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompDataArch)
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, arch.audit, "", "kill")
	a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompDataNr)
	if arch.x32 {
		a.jump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, seccompX32Bit, "kill", "")
	}
	for _, s := range seccompAllowed {
		a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, nr(s.name), "allow", "")
	}
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, nr("clone"), "clone", "")
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, nr("tgkill"), "tgkill", "")
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, nr("fcntl"), "fcntl", "")
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, nr("clone3"), "enosys", "")
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, nr("unlinkat"), "eperm", "")
	if len(libc) > 0 {
		a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, nr("openat"), "openat", "")
	}
	a.stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_KILL_PROCESS)

	// clone: threads only.
	a.label("clone")
	a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompArgLow(0))
	a.jump(unix.BPF_JMP|unix.BPF_JSET|unix.BPF_K, seccompCloneRequired, "", "kill")
	a.jump(unix.BPF_JMP|unix.BPF_JSET|unix.BPF_K, seccompCloneForbidden, "kill", "allow")

	// tgkill: only threads of this process (the thread-group id is a
	// pid_t; the kernel ignores the upper 32 bits).
	a.label("tgkill")
	a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompArgLow(0))
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, uint32(pid), "allow", "kill")

	// fcntl: descriptor flags only (the command is an int).
	a.label("fcntl")
	a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompArgLow(1))
	for _, cmd := range seccompFcntlAllowed {
		a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, cmd, "allow", "")
	}
	a.stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_KILL_PROCESS)

	// openat from glibc's code: EACCES. The instruction pointer is 64
	// bits and classic BPF compares 32: each range is split where the
	// upper half changes, and each piece compares the upper half for
	// equality and the lower half against the bounds.
	if len(libc) > 0 {
		a.label("openat")
		var pieces []seccompRange
		for _, r := range libc {
			for start := r.start; start < r.end; {
				end := min(r.end, (start>>32+1)<<32)
				pieces = append(pieces, seccompRange{start, end})
				start = end
			}
		}
		for i, p := range pieces {
			next := "kill"
			if i+1 < len(pieces) {
				next = fmt.Sprintf("openat%d", i+1)
			}
			if i > 0 {
				a.label(fmt.Sprintf("openat%d", i))
			}
			a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompDataIP+4)
			a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, uint32(p.start>>32), "", next)
			a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompDataIP)
			a.jump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, uint32(p.start), "", next)
			if p.end&0xffffffff == 0 { // the piece runs to the end of its 4 GiB
				a.jump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, 0, "eacces", "eacces")
			} else {
				a.jump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, uint32(p.end), next, "eacces")
			}
		}
		a.label("eacces")
		a.stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
	}

	a.label("enosys")
	a.stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
	a.label("eperm")
	a.stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	a.label("allow")
	a.stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW)
	a.label("kill")
	a.stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_KILL_PROCESS)
	if len(missing) > 0 {
		return nil, fmt.Errorf("child: seccomp: no %s number for %v", goarch, missing)
	}
	return a.assemble()
}

// bpfAsm assembles a classic-BPF program with forward jumps to labels.
type bpfAsm struct {
	ins    []unix.SockFilter
	labels map[string]int
	jumps  []bpfJump
}

type bpfJump struct {
	at     int
	jt, jf string // "" is the next instruction
}

func (a *bpfAsm) stmt(code uint16, k uint32) {
	a.ins = append(a.ins, unix.SockFilter{Code: code, K: k})
}

// jump adds a conditional jump to the labels jt and jf.
func (a *bpfAsm) jump(code uint16, k uint32, jt, jf string) {
	a.jumps = append(a.jumps, bpfJump{at: len(a.ins), jt: jt, jf: jf})
	a.ins = append(a.ins, unix.SockFilter{Code: code, K: k})
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.ins)
}

func (a *bpfAsm) assemble() ([]unix.SockFilter, error) {
	off := func(from int, to string) (int, error) {
		if to == "" {
			return 0, nil
		}
		at, ok := a.labels[to]
		if !ok {
			return 0, fmt.Errorf("child: seccomp: undefined label %q", to)
		}
		d := at - from - 1
		if d < 0 {
			return 0, fmt.Errorf("child: seccomp: backward jump to %q", to)
		}
		return d, nil
	}
	for _, j := range a.jumps {
		t, err := off(j.at, j.jt)
		if err != nil {
			return nil, err
		}
		f, err := off(j.at, j.jf)
		if err != nil {
			return nil, err
		}
		in := &a.ins[j.at]
		if t > 255 || f > 255 {
			return nil, fmt.Errorf("child: seccomp: jump too far at %d", j.at)
		}
		in.Jt, in.Jf = uint8(t), uint8(f)
	}
	if len(a.ins) == 0 || len(a.ins) > 4096 {
		return nil, fmt.Errorf("child: seccomp: program of %d instructions", len(a.ins))
	}
	return a.ins, nil
}

// preloadBeforeSeccomp runs, while files may still be opened, the lazy
// initialisations that would otherwise open one after the filter is in:
// the local time zone (/etc/localtime, loaded on the first formatted
// timestamp, e.g. hclog's first log record).
func preloadBeforeSeccomp() {
	_, _ = time.Now().Zone()
}

// seccompPrepared is the filter, built once by Prepare.
var seccompPrepared struct {
	once sync.Once
	prog []unix.SockFilter
	err  error
}

// seccompInstalled is set once the filter is on. The seccomp system
// call is not on the allow-list, so a second install would kill the
// process; it returns nil instead.
var seccompInstalled struct {
	sync.Mutex
	done bool
}

// Prepare builds the filter (it reads /proc/self/maps) and runs the lazy
// initialisations that would open files later. It takes most of Install's
// time, so a caller may run it at start-up, off the execution's path;
// Install runs it if no one did. The libc mapping and the pid it captures
// do not change afterwards.
func Prepare() error {
	seccompPrepared.once.Do(func() {
		libc, err := libcCode()
		if err != nil {
			seccompPrepared.err = fmt.Errorf("child: seccomp: %w", err)
			return
		}
		seccompPrepared.prog, seccompPrepared.err = seccompFilter(runtime.GOARCH, os.Getpid(), libc)
		preloadBeforeSeccomp()
	})
	return seccompPrepared.err
}

// Install installs the filter on every thread of the process. It must be
// called after start-up (engine loaded, VM initialised, gRPC connection
// up) and before untrusted code runs. It sets
// PR_SET_NO_NEW_PRIVS itself, on the thread that installs the filter:
// the attribute is per thread, and TSYNC requires it on the caller (it
// then copies it to every thread together with the filter).
//
// On an error nothing has been installed. A second call does nothing.
func Install() error {
	seccompInstalled.Lock()
	defer seccompInstalled.Unlock()
	if seccompInstalled.done {
		return nil
	}
	if err := Prepare(); err != nil {
		return err
	}
	prog := seccompPrepared.prog

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("child: seccomp: PR_SET_NO_NEW_PRIVS: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r1, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return fmt.Errorf("child: seccomp: install filter: %w", errno)
	}
	if r1 != 0 {
		// TSYNC failed: r1 is the id of a thread that could not be
		// synchronised (it has a filter of its own). Nothing is installed.
		return fmt.Errorf("child: seccomp: thread %d could not be synchronised (TSYNC)", r1)
	}
	seccompInstalled.done = true
	return nil
}

// Available reports, for `warden doctor`, whether this kernel can run
// Install: filters, SECCOMP_RET_KILL_PROCESS and SECCOMP_RET_ERRNO
// (Linux 4.14+, which implies TSYNC, Linux 3.17+), and a known syscall
// table for this architecture.
func Available() (bool, string) {
	if _, ok := seccompArches[runtime.GOARCH]; !ok {
		return false, fmt.Sprintf("no seccomp syscall table for %s", runtime.GOARCH)
	}
	mode, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	if err != nil {
		return false, fmt.Sprintf("kernel without seccomp (prctl PR_GET_SECCOMP: %v)", err)
	}
	for _, action := range []struct {
		name string
		v    uint32
	}{{"SECCOMP_RET_KILL_PROCESS", unix.SECCOMP_RET_KILL_PROCESS}, {"SECCOMP_RET_ERRNO", unix.SECCOMP_RET_ERRNO}} {
		v := action.v
		_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&v)))
		switch {
		case errno == 0:
		case errors.Is(errno, unix.ENOSYS):
			return false, "kernel without the seccomp system call (Linux < 3.17 or blocked by an outer sandbox)"
		case errors.Is(errno, unix.EINVAL):
			return false, fmt.Sprintf("kernel without seccomp filters or without %s (needs Linux 4.14+ with CONFIG_SECCOMP_FILTER)", action.name)
		default:
			return false, fmt.Sprintf("seccomp(SECCOMP_GET_ACTION_AVAIL, %s): %v", action.name, errno)
		}
	}
	state := "this process has no filter"
	switch mode {
	case unix.SECCOMP_MODE_FILTER:
		state = "this process already runs under a filter (ours stacks on it)"
	case unix.SECCOMP_MODE_STRICT:
		return false, "this process is in seccomp strict mode"
	}
	return true, fmt.Sprintf("seccomp filters with TSYNC and KILL_PROCESS supported (%s, %d-instruction allow-list of %d syscalls)", state, seccompProgramLen(), len(seccompAllowed)+3)
}

func seccompProgramLen() int {
	libc, _ := libcCode()
	p, err := seccompFilter(runtime.GOARCH, os.Getpid(), libc)
	if err != nil {
		return 0
	}
	return len(p)
}
