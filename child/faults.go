//go:build wardenfaults

package child

import (
	"context"
	"encoding/json"
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
	"github.com/wardenhq/warden/internal/pagemap"
	"github.com/wardenhq/warden/ipc"
)

// burnSink keeps the "burn" fault's loop from being optimised away.
var burnSink uint64

// This file exists only in test builds (go test -tags wardenfaults): it
// lets tests make the child's Go side misbehave in ways no script can,
// to prove that the layers below the interpreter hold on their own. A
// request whose code starts with "//fault:NAME" runs fault NAME (its
// input is the fault's argument) instead of the script.
func init() {
	faultHook = runFault
}

// report is a fault's successful result with v as its value.
func report(v any) (contract.Result, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return contract.Result{OK: true, Value: b, Logs: []contract.LogEntry{}}, true
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

// procPids lists the numeric entries of /proc.
func procPids() []int {
	ents, _ := os.ReadDir("/proc")
	pids := []int{}
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

func runFault(ctx context.Context, req contract.Request) (contract.Result, bool) {
	name, ok := strings.CutPrefix(strings.SplitN(req.Code, "\n", 2)[0], "//fault:")
	if !ok {
		return contract.Result{}, false
	}
	var arg string
	if len(req.Input) > 1 {
		arg = strings.Trim(string(req.Input), `"`)
	}
	fail := func(err error) (contract.Result, bool) {
		return contract.Result{Error: &contract.Error{Type: contract.UserCodeError, Message: "fault " + name + ": " + err.Error()}, Logs: []contract.LogEntry{}}, true
	}
	switch name {
	case "uid":
		// Reports rather than misbehaves: which user the child runs as.
		return contract.Result{OK: true, Value: []byte(strconv.Quote(strconv.Itoa(os.Getuid()))), Logs: []contract.LogEntry{}}, true
	case "rlimits":
		// Reports rather than misbehaves: the rlimits the child runs
		// under (the no-cgroup fallback's), as "DATA CPU NPROC".
		var out []string
		for _, res := range []int{unix.RLIMIT_DATA, unix.RLIMIT_CPU, unix.RLIMIT_NPROC} {
			var l unix.Rlimit
			if err := unix.Getrlimit(res, &l); err != nil {
				return fail(err)
			}
			out = append(out, strconv.FormatUint(l.Cur, 10)+"/"+strconv.FormatUint(l.Max, 10))
		}
		return contract.Result{OK: true, Value: []byte(strconv.Quote(strings.Join(out, " "))), Logs: []contract.LogEntry{}}, true
	case "burn":
		// Spin on the CPU, deaf to the deadline, until something kills
		// the child.
		for n := uint64(0); ; n++ {
			burnSink = n
		}
	case "oom":
		// Allocate and touch Go memory until something stops us.
		var keep [][]byte
		for {
			b := make([]byte, 4<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
			time.Sleep(time.Millisecond)
		}
	case "flood":
		// A result far over what the limits allow: a child whose Go side
		// no longer honours them.
		return contract.Result{OK: true, Value: []byte(strconv.Quote(strings.Repeat("x", 8<<20))), Logs: []contract.LogEntry{}}, true
	case "exec":
		if err := exec.Command("/bin/true").Run(); err != nil {
			return fail(err)
		}
	case "fork":
		pid, _, errno := syscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)
		if errno != 0 {
			return fail(errno)
		}
		if pid == 0 {
			os.Exit(0)
		}
	case "forkbomb":
		// Fork until the kernel refuses; each forked process names
		// itself forkName and waits forever. The error says how many
		// forks succeeded and why the next failed. With the input
		// "hang" the child then spins until something kills it (and,
		// with luck, not its forks).
		n, err := forkUntilRefused()
		if arg == "hang" {
			for i := uint64(0); ; i++ {
				burnSink = i
			}
		}
		return fail(fmt.Errorf("%d forks, then: %w", n, err))
	case "connect":
		c, err := net.DialTimeout("tcp", arg, time.Second)
		if err != nil {
			return fail(err)
		}
		c.Close()
	case "broker":
		// Many large messages through go-plugin's broker (the input says
		// how many, of how many bytes, as "N,SIZE"), then wait for the
		// supervisor to kill this child.
		var n, size int
		if _, err := fmt.Sscanf(arg, "%d,%d", &n, &size); err != nil {
			return fail(err)
		}
		if err := ipc.FaultFloodBroker(n, size); err != nil {
			return fail(err)
		}
		<-ctx.Done()
		return fail(ctx.Err())
	case "badvalue":
		// A result whose value is not JSON.
		return contract.Result{OK: true, Value: []byte(`{"a":`), Logs: []contract.LogEntry{}}, true
	case "wtf8value":
		// A result whose value is JSON but not UTF-8: a lone surrogate
		// as QuickJS's WTF-8 writes it, which the engine escapes.
		return contract.Result{OK: true, Value: []byte("[\"\xed\xa0\x80\"]"), Logs: []contract.LogEntry{}}, true
	case "write":
		if err := os.WriteFile(arg, []byte("escaped"), 0o644); err != nil {
			return fail(err)
		}
	case "neighbours":
		// Attack the processes whose (host) pids arg lists, and look for
		// warden children in /proc: report what worked.
		return report(attackNeighbours(arg))
	case "dumpable":
		d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
		if err != nil {
			return fail(err)
		}
		return report(map[string]int{"dumpable": d})
	case "pagemap":
		// Whether the pagemap descriptor opened at start-up still reads,
		// in a child that is no longer dumpable: the entry of a page it
		// has just touched must say present.
		b := make([]byte, 1<<16)
		b[len(b)/2] = 1
		page := uintptr(unsafe.Pointer(&b[len(b)/2])) / uintptr(os.Getpagesize())
		e, ok := pagemap.Entries(page, 1)
		return report(map[string]bool{"read": ok, "present": ok && e[0]&pagemap.Present != 0})
	case "pidview":
		// Which pid the child has, which pids its /proc lists, and
		// whether /proc/ARG (the supervisor's pid) exists.
		_, err := os.Stat("/proc/" + arg)
		return report(map[string]any{"pid": os.Getpid(), "procs": procPids(), "supervisor_visible": err == nil})
	default:
		return fail(os.ErrInvalid)
	}
	return contract.Result{OK: true, Value: []byte(`"fault ` + name + ` succeeded"`), Logs: []contract.LogEntry{}}, true
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
