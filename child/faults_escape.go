//go:build wardenfaults

package child

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/contract"
)

// Faults that try to leave the sandbox: run a program, fork, reach the
// network or the filesystem, touch other children. Each succeeds only
// when the layer that should stop it is off.

func escapeExec(context.Context, string) (*contract.Result, error) {
	return nil, exec.Command("/bin/true").Run()
}

func escapeFork(context.Context, string) (*contract.Result, error) {
	pid, _, errno := syscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)
	if errno != 0 {
		return nil, errno
	}
	if pid == 0 {
		os.Exit(0)
	}
	return nil, nil
}

// escapeForkBomb forks until the kernel refuses; each forked process
// names itself ForkName and waits forever. The error says how many forks
// succeeded and why the next failed. With the argument "hang" the child
// then spins until something kills it (and, with luck, not its forks).
func escapeForkBomb(_ context.Context, arg string) (*contract.Result, error) {
	n, err := forkUntilRefused()
	if arg == "hang" {
		for i := uint64(0); ; i++ {
			burnSink = i
		}
	}
	return nil, fmt.Errorf("%d forks, then: %w", n, err)
}

// ForkName is the name (comm) the "forkbomb" fault's processes take.
const ForkName = "warden-forkling"

// forkUntilRefused forks until fork fails; the forked processes make
// only raw system calls (the Go runtime is not theirs to use).
func forkUntilRefused() (int, error) {
	name := append([]byte(ForkName), 0)
	for n := 0; ; n++ {
		pid, _, errno := syscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)
		if errno != 0 {
			return n, errno
		}
		if pid == 0 {
			syscall.RawSyscall(syscall.SYS_PRCTL, unix.PR_SET_NAME, uintptr(unsafe.Pointer(&name[0])), 0)
			for {
				syscall.RawSyscall(syscall.SYS_PAUSE, 0, 0, 0)
			}
		}
		if n > 100000 {
			return n, errors.New("never refused")
		}
	}
}

// escapeConnect dials the TCP address arg.
func escapeConnect(_ context.Context, arg string) (*contract.Result, error) {
	c, err := net.DialTimeout("tcp", arg, time.Second)
	if err != nil {
		return nil, err
	}
	c.Close()
	return nil, nil
}

// escapeWrite writes a file at the path arg.
func escapeWrite(_ context.Context, arg string) (*contract.Result, error) {
	return nil, os.WriteFile(arg, []byte("escaped"), 0o644)
}

// escapeNeighbours attacks the processes whose (host) pids arg lists, and
// looks for warden children in /proc: it reports what worked.
func escapeNeighbours(_ context.Context, arg string) (*contract.Result, error) {
	return report(attackNeighbours(arg))
}

// neighbourReport is what a child could do to other processes.
type neighbourReport struct {
	Signalled []int    `json:"signalled"` // kill(pid, 0) and kill(pid, SIGCONT) worked
	Environ   []int    `json:"environ"`   // /proc/PID/environ was read
	Mem       []int    `json:"mem"`       // /proc/PID/mem was opened
	Listed    []int    `json:"listed"`    // other warden children its /proc shows
	Errors    []string `json:"errors"`
}

// attackNeighbours tries, on each pid of the comma-separated list other
// than its own, what a child taken over would try against another
// child: signal it, read its environment (the configuration) and open
// its memory. It also lists the warden children its /proc shows.
func attackNeighbours(list string) neighbourReport {
	r := neighbourReport{Signalled: []int{}, Environ: []int{}, Mem: []int{}, Listed: []int{}, Errors: []string{}}
	self := os.Getpid()
	for _, f := range strings.Split(list, ",") {
		pid, err := strconv.Atoi(f)
		if err != nil || pid == self {
			continue
		}
		if err := syscall.Kill(pid, 0); err != nil {
			r.Errors = append(r.Errors, fmt.Sprintf("kill %d: %v", pid, err))
		} else if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
			r.Errors = append(r.Errors, fmt.Sprintf("kill SIGCONT %d: %v", pid, err))
		} else {
			r.Signalled = append(r.Signalled, pid)
		}
		if _, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid)); err != nil {
			r.Errors = append(r.Errors, err.Error())
		} else {
			r.Environ = append(r.Environ, pid)
		}
		if f, err := os.Open(fmt.Sprintf("/proc/%d/mem", pid)); err != nil {
			r.Errors = append(r.Errors, err.Error())
		} else {
			f.Close()
			r.Mem = append(r.Mem, pid)
		}
	}
	for _, pid := range procPids() {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if pid != self && strings.HasPrefix(string(cmd), "warden-child\x00") {
			r.Listed = append(r.Listed, pid)
		}
	}
	return r
}
