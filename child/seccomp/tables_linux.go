package seccomp

import "golang.org/x/sys/unix"

// The syscall numbers are written out per architecture (amd64, arm64)
// rather than taken from x/sys/unix, so that this package builds on every
// GOARCH and the table can be reviewed against the kernel's headers
// (TestSeccompSyscallTables does exactly that).

// archTable is one architecture's view of the filter.
type archTable struct {
	audit uint32 // AUDIT_ARCH_* the kernel reports in seccomp_data.arch
	// x32 marks amd64, where the same arch value also carries the x32
	// ABI's syscalls, numbered with __X32_SYSCALL_BIT set.
	x32 bool
	nr  map[string]uint32
}

const x32Bit = 0x40000000

// archTables holds the syscall numbers, checked against
// /usr/include/x86_64-linux-gnu/asm/unistd_64.h and
// /usr/include/asm-generic/unistd.h by TestSeccompSyscallTables.
var archTables = map[string]archTable{
	"amd64": {audit: unix.AUDIT_ARCH_X86_64, x32: true, nr: map[string]uint32{
		"read": 0, "write": 1, "close": 3, "mmap": 9, "mprotect": 10, "munmap": 11, "brk": 12, "ioctl": 16,
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
		"epoll_ctl": 21, "epoll_pwait": 22, "fcntl": 25, "ioctl": 29, "unlinkat": 35, "openat": 56, "close": 57,
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
