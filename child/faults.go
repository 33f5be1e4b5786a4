//go:build wardenfaults

package child

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/contract"
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
	case "write":
		if err := os.WriteFile(arg, []byte("escaped"), 0o644); err != nil {
			return fail(err)
		}
	default:
		return fail(os.ErrInvalid)
	}
	return contract.Result{OK: true, Value: []byte(`"fault ` + name + ` succeeded"`), Logs: []contract.LogEntry{}}, true
}
