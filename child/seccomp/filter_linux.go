package seccomp

// The policy of allowlist_linux.go compiled to a classic-BPF program: a
// dispatch on the syscall number, then the argument checks, then the
// verdicts.

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Offsets into struct seccomp_data.
const (
	dataNr   = 0
	dataArch = 4
	dataIP   = 8
	dataArgs = 16
)

// argLow is the offset of the low 32 bits of argument i (both
// supported architectures are little-endian).
func argLow(i int) uint32 { return uint32(dataArgs + 8*i) }

// Shorthands for the instructions the filter is made of.
const (
	loadWord = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jumpEq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jumpGE   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	jumpSet  = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	ret      = unix.BPF_RET | unix.BPF_K
)

// filter builds the filter for goarch. pid is this process's id:
// tgkill may signal only threads of this process. libc is glibc's code,
// from which openat fails with EACCES instead of killing.
func filter(goarch string, pid int, libc []codeRange) ([]unix.SockFilter, error) {
	arch, ok := archTables[goarch]
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
	dispatch(&a, arch, nr, len(libc) > 0)
	argumentRules(&a, pid)
	if len(libc) > 0 {
		openatFromLibc(&a, libc)
	}
	verdicts(&a)
	if len(missing) > 0 {
		return nil, fmt.Errorf("child: seccomp: no %s number for %v", goarch, missing)
	}
	return a.assemble()
}

// dispatch checks the architecture (and, on amd64, refuses the x32
// ABI), then jumps on the syscall number: to "allow" for the
// allow-list, to the rule of each argument-checked or errno call, and
// to "kill" for anything else. nr names a syscall's number in arch.
func dispatch(a *bpfAsm, arch archTable, nr func(string) uint32, openatRule bool) {
	a.stmt(loadWord, dataArch)
	a.jump(jumpEq, arch.audit, "", "kill")
	a.stmt(loadWord, dataNr)
	if arch.x32 {
		a.jump(jumpGE, x32Bit, "kill", "")
	}
	for _, s := range allowed {
		a.jump(jumpEq, nr(s.name), "allow", "")
	}
	a.jump(jumpEq, nr("clone"), "clone", "")
	a.jump(jumpEq, nr("tgkill"), "tgkill", "")
	a.jump(jumpEq, nr("fcntl"), "fcntl", "")
	a.jump(jumpEq, nr("clone3"), "enosys", "")
	a.jump(jumpEq, nr("ioctl"), "ioctl", "")
	a.jump(jumpEq, nr("unlinkat"), "eperm", "")
	if openatRule {
		a.jump(jumpEq, nr("openat"), "openat", "")
	}
	a.stmt(ret, unix.SECCOMP_RET_KILL_PROCESS)
}

// argumentRules are the checks of clone, tgkill and fcntl's arguments.
func argumentRules(a *bpfAsm, pid int) {
	// clone: threads only.
	a.label("clone")
	a.stmt(loadWord, argLow(0))
	a.jump(jumpSet, cloneRequired, "", "kill")
	a.jump(jumpSet, cloneForbidden, "kill", "allow")

	// tgkill: only threads of this process (the thread-group id is a
	// pid_t; the kernel ignores the upper 32 bits).
	a.label("tgkill")
	a.stmt(loadWord, argLow(0))
	a.jump(jumpEq, uint32(pid), "allow", "kill")

	// fcntl: descriptor flags only (the command is an int).
	a.label("fcntl")
	a.stmt(loadWord, argLow(1))
	for _, cmd := range fcntlAllowed {
		a.jump(jumpEq, cmd, "allow", "")
	}
	a.stmt(ret, unix.SECCOMP_RET_KILL_PROCESS)

	// ioctl: "not a terminal" for TCGETS, without the call being made
	// (the request is an unsigned int); any other request kills.
	a.label("ioctl")
	a.stmt(loadWord, argLow(1))
	a.jump(jumpEq, unix.TCGETS, "enotty", "kill")
}

// openatFromLibc makes openat from glibc's code fail with EACCES, and
// from anywhere else kill. The instruction pointer is 64 bits and
// classic BPF compares 32: each range is split where the upper half
// changes (split4G), and each piece compares the upper half for
// equality and the lower half against the bounds.
func openatFromLibc(a *bpfAsm, libc []codeRange) {
	a.label("openat")
	pieces := split4G(libc)
	for i, p := range pieces {
		next := "kill"
		if i+1 < len(pieces) {
			next = fmt.Sprintf("openat%d", i+1)
		}
		if i > 0 {
			a.label(fmt.Sprintf("openat%d", i))
		}
		a.stmt(loadWord, dataIP+4)
		a.jump(jumpEq, uint32(p.start>>32), "", next)
		a.stmt(loadWord, dataIP)
		a.jump(jumpGE, uint32(p.start), "", next)
		if p.end&0xffffffff == 0 { // the piece runs to the end of its 4 GiB
			a.jump(jumpGE, 0, "eacces", "eacces")
		} else {
			a.jump(jumpGE, uint32(p.end), next, "eacces")
		}
	}
	a.label("eacces")
	a.stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
}

// split4G splits each range where the upper 32 bits of its addresses
// change, so that each piece lies within one 4 GiB.
func split4G(code []codeRange) []codeRange {
	var pieces []codeRange
	for _, r := range code {
		for start := r.start; start < r.end; {
			end := min(r.end, (start>>32+1)<<32)
			pieces = append(pieces, codeRange{start, end})
			start = end
		}
	}
	return pieces
}

// verdicts are the labels every rule ends at.
func verdicts(a *bpfAsm) {
	a.label("enosys")
	a.stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
	a.label("enotty")
	a.stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOTTY))
	a.label("eperm")
	a.stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	a.label("allow")
	a.stmt(ret, unix.SECCOMP_RET_ALLOW)
	a.label("kill")
	a.stmt(ret, unix.SECCOMP_RET_KILL_PROCESS)
}
