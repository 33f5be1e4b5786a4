//go:build linux && amd64

package seccomp

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// The seccomp tests run against the real kernel. The filter is never
// installed in the test process itself: each case re-executes the test
// binary as a helper (TestSeccompHelper), which installs the filter and
// then does one thing; the test judges the helper's exit status.

const (
	helperEnv    = "WARDEN_SECCOMP_HELPER" // the helper's action
	helperArgEnv = "WARDEN_SECCOMP_ARG"    // its argument
)

// Helper exit statuses (a forbidden action ends with SIGSYS instead).
const (
	helperOK            = 0
	helperInstallFailed = 3
	helperSurvived      = 4 // a forbidden action returned
	helperWrong         = 5 // an allowed action misbehaved
)

// TestSeccompHelper is not a test: it is the helper process's main when
// a seccomp test starts the test binary with helperEnv set, and
// does nothing otherwise.
func TestSeccompHelper(t *testing.T) {
	action := os.Getenv(helperEnv)
	if action == "" {
		return
	}
	// unix.Exit, not os.Exit: no exit hooks (coverage would open files).
	unix.Exit(helper(action, os.Getenv(helperArgEnv)))
}

// parentPID and ownUID are read before the filter goes on (getppid
// and getuid are not allowed after).
var parentPID, ownUID uintptr

func helper(action, arg string) int {
	// A SIGSYS kill would otherwise dump core.
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	parentPID, ownUID = uintptr(os.Getppid()), uintptr(os.Getuid())
	switch action {
	case "bench-install":
		return benchInstall()
	case "bench-syscall":
		return benchSyscall(arg)
	}
	if err := Install(); err != nil {
		fmt.Fprintln(os.Stderr, "Install:", err)
		return helperInstallFailed
	}
	switch action {
	case "workload":
		if err := workload(); err != nil {
			fmt.Fprintln(os.Stderr, "workload:", err)
			return helperWrong
		}
		return helperOK
	case "clone3":
		// clone3 must fail with ENOSYS (so that glibc falls back to clone),
		// not kill. size 0 would be EINVAL without the filter.
		_, _, errno := unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
		if errno != unix.ENOSYS {
			fmt.Fprintln(os.Stderr, "clone3:", errno)
			return helperWrong
		}
		return helperOK
	case "tcgets":
		// ioctl(TCGETS) must fail with ENOTTY (esbuild's terminal check),
		// not kill, even on a descriptor that is a terminal's.
		_, _, errno := unix.RawSyscall(unix.SYS_IOCTL, 2, unix.TCGETS, 0)
		if errno != unix.ENOTTY {
			fmt.Fprintln(os.Stderr, "ioctl TCGETS:", errno)
			return helperWrong
		}
		return helperOK
	case "unlink":
		err := os.Remove(arg)
		if !errors.Is(err, unix.EPERM) {
			fmt.Fprintln(os.Stderr, "remove:", err)
			return helperWrong
		}
		return helperOK
	case "install-twice":
		if err := Install(); err != nil {
			fmt.Fprintln(os.Stderr, "second install:", err)
			return helperWrong
		}
		return helperOK
	case "tgkill-self":
		if err := unix.Tgkill(os.Getpid(), unix.Gettid(), 0); err != nil {
			fmt.Fprintln(os.Stderr, "tgkill:", err)
			return helperWrong
		}
		return helperOK
	}
	f, ok := forbiddenActions[action]
	if !ok {
		fmt.Fprintln(os.Stderr, "unknown action", action)
		return helperWrong
	}
	err := f(arg)
	fmt.Fprintf(os.Stderr, "%s survived the filter: %v\n", action, err)
	return helperSurvived
}

// noPID is a pid that does not exist (above any pid_max), so that the
// forbidden calls below would be harmless if the filter let them pass.
const noPID = 0x7ffffff0

// forkLike runs a fork-like raw clone. Should it ever succeed,
// the new process leaves at once.
func forkLike(trap, flags uintptr) error {
	pid, _, errno := unix.RawSyscall6(trap, flags, 0, 0, 0, 0, 0)
	if errno != 0 {
		return errno
	}
	if pid == 0 {
		unix.RawSyscall(unix.SYS_EXIT_GROUP, 7, 0, 0)
	}
	return fmt.Errorf("created process %d", pid)
}

func rawSyscall(trap uintptr, a ...uintptr) error {
	var args [6]uintptr
	copy(args[:], a)
	r, _, errno := unix.RawSyscall6(trap, args[0], args[1], args[2], args[3], args[4], args[5])
	if errno != 0 {
		return errno
	}
	return fmt.Errorf("returned %d", r)
}

func cString(s string) uintptr {
	b, _ := unix.BytePtrFromString(s)
	return uintptr(unsafe.Pointer(b))
}

// forbiddenActions each make a system call the filter must answer with
// SIGSYS. Each is harmless (fails) without the filter where possible.
var forbiddenActions = map[string]func(arg string) error{
	"exec": func(string) error { return syscall.Exec("/bin/true", []string{"true"}, nil) },
	"os-exec": func(string) error {
		return exec.Command("/bin/true").Run()
	},
	"execveat": func(string) error {
		return rawSyscall(unix.SYS_EXECVEAT, uintptr(unix.AT_FDCWD&0xffffffff), cString("/nonexistent/warden"), 0, 0, 0)
	},
	"fork":          func(string) error { return forkLike(unix.SYS_FORK, 0) },
	"clone-process": func(string) error { return forkLike(unix.SYS_CLONE, uintptr(unix.SIGCHLD)) },
	// A thread clone with a namespace flag: EINVAL without the filter
	// (CLONE_NEWUSER cannot go with CLONE_THREAD).
	"clone-thread-newuser": func(string) error {
		return rawSyscall(unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_SIGHAND|unix.CLONE_THREAD|unix.CLONE_NEWUSER, 0, 0, 0, 0)
	},
	"connect-tcp": func(addr string) error {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err
	},
	"connect-unix": func(path string) error {
		c, err := net.DialTimeout("unix", path, time.Second)
		if err == nil {
			c.Close()
		}
		return err
	},
	"socketpair": func(string) error {
		_, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		return err
	},
	"create-file": func(path string) error {
		f, err := os.Create(path)
		if err == nil {
			f.Close()
		}
		return err
	},
	"open-file": func(string) error {
		f, err := os.Open("/etc/passwd")
		if err == nil {
			f.Close()
		}
		return err
	},
	"ptrace":           func(string) error { return rawSyscall(unix.SYS_PTRACE, unix.PTRACE_ATTACH, noPID, 0, 0) },
	"process_vm_readv": func(string) error { return rawSyscall(unix.SYS_PROCESS_VM_READV, noPID, 0, 0, 0, 0, 0) },
	"unshare":          func(string) error { return unix.Unshare(unix.CLONE_NEWUSER) },
	"setns":            func(string) error { return rawSyscall(unix.SYS_SETNS, ^uintptr(0), 0) },
	"mount": func(string) error {
		return rawSyscall(unix.SYS_MOUNT, cString("none"), cString("/nonexistent/warden"), cString("tmpfs"), 0, 0)
	},
	"chroot":          func(string) error { return rawSyscall(unix.SYS_CHROOT, cString("/nonexistent/warden")) },
	"setuid":          func(string) error { return rawSyscall(unix.SYS_SETUID, ownUID) },
	"bpf":             func(string) error { return rawSyscall(unix.SYS_BPF, 0xffff, 0, 0) },
	"perf_event_open": func(string) error { return rawSyscall(unix.SYS_PERF_EVENT_OPEN, 0, 0, ^uintptr(0), ^uintptr(0), 0) },
	"io_uring_setup":  func(string) error { return rawSyscall(unix.SYS_IO_URING_SETUP, 0, 0) },
	"keyctl":          func(string) error { return rawSyscall(unix.SYS_KEYCTL, 0xffff, 0, 0, 0, 0) },
	"memfd_create":    func(string) error { return rawSyscall(unix.SYS_MEMFD_CREATE, cString("warden"), 0) },
	"prctl":           func(string) error { return rawSyscall(unix.SYS_PRCTL, unix.PR_GET_DUMPABLE, 0, 0, 0, 0) },
	"seccomp":         func(string) error { return rawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, 0) },
	"kill-other":      func(string) error { return rawSyscall(unix.SYS_KILL, parentPID, 0) },
	"tgkill-other":    func(string) error { return unix.Tgkill(int(parentPID), int(parentPID), 0) },
	"fcntl-setown":    func(string) error { return rawSyscall(unix.SYS_FCNTL, 2, unix.F_SETOWN, parentPID) },
	"fcntl-dupfd":     func(string) error { return rawSyscall(unix.SYS_FCNTL, 2, unix.F_DUPFD_CLOEXEC, 100) },
	"x32-getpid":      func(string) error { return rawSyscall(unix.SYS_GETPID | x32Bit) },
	"epoll_create1":   func(string) error { return rawSyscall(unix.SYS_EPOLL_CREATE1, 0) },
	"pipe2": func(string) error {
		var p [2]int
		return unix.Pipe2(p[:], 0)
	},
	"unlink-legacy": func(string) error { return rawSyscall(unix.SYS_UNLINK, cString("/nonexistent/warden")) },
	"setsockopt": func(string) error {
		return rawSyscall(unix.SYS_SETSOCKOPT, 2, unix.SOL_SOCKET, unix.SO_REUSEADDR, 0, 0)
	},
	"sendmsg": func(string) error { return rawSyscall(unix.SYS_SENDMSG, 2, 0, 0) },
	"newfstatat": func(string) error {
		var st unix.Stat_t
		return unix.Fstatat(unix.AT_FDCWD, "/etc/passwd", &st, 0)
	},
	"userfaultfd": func(string) error { return rawSyscall(unix.SYS_USERFAULTFD, 0xffff) },
	"personality": func(string) error { return rawSyscall(unix.SYS_PERSONALITY, 0xffffffff) },
	"init_module": func(string) error { return rawSyscall(unix.SYS_INIT_MODULE, 0, 0, 0) },
	"kexec_file_load": func(string) error {
		return rawSyscall(unix.SYS_KEXEC_FILE_LOAD, ^uintptr(0), ^uintptr(0), 0, 0, 0xffff)
	},
	"reboot":      func(string) error { return rawSyscall(unix.SYS_REBOOT, 0, 0, 0, 0) }, // bad magic: EINVAL
	"ioctl":       func(string) error { return rawSyscall(unix.SYS_IOCTL, 2, unix.TIOCSTI, 0) },
	"open-legacy": func(string) error { return rawSyscall(unix.SYS_OPEN, cString("/etc/passwd"), 0) },
	"openat2": func(string) error {
		return rawSyscall(unix.SYS_OPENAT2, uintptr(unix.AT_FDCWD&0xffffffff), cString("/etc/passwd"), 0, 0)
	},
	"rt_sigqueueinfo": func(string) error { return rawSyscall(unix.SYS_RT_SIGQUEUEINFO, noPID, 0, 0) },
	"pidfd_open":      func(string) error { return rawSyscall(unix.SYS_PIDFD_OPEN, parentPID, 0) },
	"vmsplice":        func(string) error { return rawSyscall(unix.SYS_VMSPLICE, ^uintptr(0), 0, 0, 0) },
	"mkdirat":         func(string) error { return unix.Mkdirat(unix.AT_FDCWD, "/nonexistent/warden", 0o700) },
	"renameat2": func(string) error {
		return unix.Renameat2(unix.AT_FDCWD, "/nonexistent/a", unix.AT_FDCWD, "/nonexistent/b", 0)
	},
	"fchmodat": func(string) error { return unix.Fchmodat(unix.AT_FDCWD, "/nonexistent/warden", 0o777, 0) },
	"fchownat": func(string) error { return unix.Fchownat(unix.AT_FDCWD, "/nonexistent/warden", 0, 0, 0) },
	"umount2":  func(string) error { return rawSyscall(unix.SYS_UMOUNT2, cString("/nonexistent/warden"), 0) },
	"pivot_root": func(string) error {
		return rawSyscall(unix.SYS_PIVOT_ROOT, cString("/nonexistent/a"), cString("/nonexistent/b"))
	},
	"swapoff":           func(string) error { return rawSyscall(unix.SYS_SWAPOFF, cString("/nonexistent/warden")) },
	"add_key":           func(string) error { return rawSyscall(unix.SYS_ADD_KEY, 0, 0, 0, 0, 0) },
	"process_vm_writev": func(string) error { return rawSyscall(unix.SYS_PROCESS_VM_WRITEV, noPID, 0, 0, 0, 0, 0) },
}

// requireSeccomp skips when the kernel cannot run the filter.
func requireSeccomp(t *testing.T) {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err == nil && !bytes.Contains(status, []byte("\nSeccomp:")) {
		t.Skipf("kernel without seccomp: /proc/self/status has no Seccomp line")
	}
	if ok, why := Available(); !ok {
		t.Skipf("kernel without usable seccomp: %s", why)
	}
}

// helperCmd is the test binary re-executed as a helper.
func helperCmd(action, arg string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestSeccompHelper$")
	cmd.Env = []string{helperEnv + "=" + action, helperArgEnv + "=" + arg}
	return cmd
}

// runHelper runs the helper to its end and returns its wait status and
// output.
func runHelper(t *testing.T, action, arg string) (syscall.WaitStatus, string) {
	t.Helper()
	cmd := helperCmd(action, arg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("helper %s: %v", action, err)
		}
	}
	return cmd.ProcessState.Sys().(syscall.WaitStatus), out.String()
}

func describeWait(ws syscall.WaitStatus) string {
	switch {
	case ws.Signaled():
		return "killed by " + ws.Signal().String()
	case ws.Exited():
		return "exit status " + strconv.Itoa(ws.ExitStatus())
	}
	return fmt.Sprintf("wait status %#x", uint32(ws))
}

func wantKill(t *testing.T, ws syscall.WaitStatus, out string) {
	t.Helper()
	if !ws.Signaled() || ws.Signal() != syscall.SIGSYS {
		t.Fatalf("want the helper killed by SIGSYS, got %s; output:\n%s", describeWait(ws), out)
	}
}

func wantExit0(t *testing.T, ws syscall.WaitStatus, out string) {
	t.Helper()
	if !ws.Exited() || ws.ExitStatus() != 0 {
		t.Fatalf("want exit status 0, got %s; output:\n%s", describeWait(ws), out)
	}
}

// Each forbidden system call kills the whole helper with SIGSYS.
func TestSeccompForbidden(t *testing.T) {
	requireSeccomp(t)
	names := make([]string, 0, len(forbiddenActions))
	for name := range forbiddenActions {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		switch name {
		case "connect-tcp", "connect-unix", "create-file":
			continue // TestSeccompNoEffect: they need the parent's side
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ws, out := runHelper(t, name, "")
			wantKill(t, ws, out)
		})
	}
}

// A connection and a file creation are not only refused: nothing
// reaches the listener, and no file appears.
func TestSeccompNoEffect(t *testing.T) {
	requireSeccomp(t)
	t.Run("connect-tcp", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ws, out := runHelper(t, "connect-tcp", ln.Addr().String())
		wantKill(t, ws, out)
		wantNoConnection(t, ln)
	})
	t.Run("connect-unix", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "sock")
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ws, out := runHelper(t, "connect-unix", path)
		wantKill(t, ws, out)
		wantNoConnection(t, ln)
	})
	t.Run("create-file", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "escaped")
		ws, out := runHelper(t, "create-file", path)
		wantKill(t, ws, out)
		if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the file exists after the helper was killed (stat: %v)", err)
		}
	})
	t.Run("unlink-refused", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "keep")
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		ws, out := runHelper(t, "unlink", path)
		wantExit0(t, ws, out) // EPERM, not a kill
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("the file is gone: %v", err)
		}
	})
}

func wantNoConnection(t *testing.T, ln net.Listener) {
	t.Helper()
	type deadliner interface{ SetDeadline(time.Time) error }
	if err := ln.(deadliner).SetDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	c, err := ln.Accept()
	if err == nil {
		c.Close()
		t.Fatal("the listener saw a connection from the killed helper")
	}
	if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		t.Fatalf("accept: %v", err)
	}
}

// The allowed special cases: clone3 is ENOSYS, ioctl TCGETS is ENOTTY,
// tgkill to our own thread
// works, a second Install is a no-op.
func TestSeccompErrnoAndSelf(t *testing.T) {
	requireSeccomp(t)
	for _, action := range []string{"clone3", "tcgets", "tgkill-self", "install-twice"} {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			ws, out := runHelper(t, action, "")
			wantExit0(t, ws, out)
		})
	}
}

// A normal Go workload runs under the filter: allocation and GC, new OS
// threads (and threads that exit), preemption signals, timers and
// sleeps, crypto/rand, reads and writes on inherited pipes. Every thread,
// those created after the filter included, is filtered.
func TestSeccompWorkload(t *testing.T) {
	requireSeccomp(t)
	toHelperR, toHelperW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromHelperR, fromHelperW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := helperCmd("workload", "")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.ExtraFiles = []*os.File{toHelperR, fromHelperW} // fds 3 and 4
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toHelperR.Close()
	fromHelperW.Close()
	defer toHelperW.Close()
	in := bufio.NewReader(fromHelperR)
	step := func(want string) string {
		t.Helper()
		line, err := in.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, want) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("want %q from the helper, got %q (%v); %s; stderr:\n%s", want, line, err, describeWait(cmd.ProcessState.Sys().(syscall.WaitStatus)), stderr.String())
		}
		return strings.TrimSpace(line)
	}

	step("installed")
	n0 := testutil.ThreadsSeccomped(t, cmd.Process.Pid)
	fmt.Fprintln(toHelperW, "ping")
	done := step("done")
	n1 := testutil.ThreadsSeccomped(t, cmd.Process.Pid)
	fmt.Fprintln(toHelperW, "exit")
	if err := cmd.Wait(); err != nil {
		t.Logf("wait: %v", err)
	}
	wantExit0(t, cmd.ProcessState.Sys().(syscall.WaitStatus), stderr.String())
	t.Logf("threads: %d when the filter went on, %d after the workload; helper: %s", n0, n1, done)
	if m := regexp.MustCompile(`threads_created=(\d+)`).FindStringSubmatch(done); m == nil || m[1] == "0" {
		t.Fatalf("the workload created no OS thread under the filter: %s", done)
	}
}

func workload() error {
	// The pipes are opened (os.NewFile: fcntl F_GETFL) after the filter;
	// the reply pipe goes through the netpoller (epoll_ctl).
	if err := unix.SetNonblock(4, true); err != nil {
		return err
	}
	in := bufio.NewReader(os.NewFile(3, "from-parent"))
	out := os.NewFile(4, "to-parent")
	if _, err := fmt.Fprintln(out, "installed"); err != nil {
		return err
	}
	if line, err := in.ReadString('\n'); err != nil || line != "ping\n" {
		return fmt.Errorf("read ping: %q %v", line, err)
	}
	created0 := pprof.Lookup("threadcreate").Count()

	// Goroutines that allocate, and collections.
	var wg sync.WaitGroup
	var sink atomic.Int64
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var keep [][]byte
			for j := 0; j < 300; j++ {
				b := make([]byte, 32<<10+j)
				b[len(b)-1] = byte(j)
				keep = append(keep, b)
				if len(keep) > 64 {
					keep = keep[:0]
				}
			}
			sink.Add(int64(len(keep)))
			runtime.GC()
		}()
	}
	wg.Wait()

	// New OS threads: goroutines locked to their threads and blocked at
	// the same time need one thread each; half of them end while still
	// locked, which makes their threads exit.
	// Twelve threads also means more than eight glibc malloc arenas in a
	// cgo binary: glibc then reads /sys/devices/system/cpu/online once
	// (refused with EACCES, see seccomp_linux.go).
	const locked = 12
	release := make(chan struct{})
	var ready, ended sync.WaitGroup
	for i := 0; i < locked; i++ {
		ready.Add(1)
		ended.Add(1)
		go func(exitThread bool) {
			defer ended.Done()
			runtime.LockOSThread()
			ready.Done()
			<-release
			time.Sleep(time.Millisecond)
			if !exitThread {
				runtime.UnlockOSThread()
			}
		}(i%2 == 0)
	}
	ready.Wait()
	close(release)
	ended.Wait()

	// Preemption: CPU-bound goroutines get SIGURG (tgkill) from sysmon.
	stop := time.Now().Add(50 * time.Millisecond)
	for i := 0; i < runtime.GOMAXPROCS(0)+1; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 0
			for time.Now().Before(stop) {
				for k := 0; k < 1000; k++ {
					x += k
				}
			}
			sink.Add(int64(x & 1))
		}()
	}
	wg.Wait()

	// Timers and sleeps, long enough for sysmon's once-a-second
	// GOMAXPROCS refresh (sched_getaffinity, cgroup pread).
	timer := time.NewTimer(5 * time.Millisecond)
	<-timer.C
	time.Sleep(1100 * time.Millisecond)
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return err
	}
	debug.FreeOSMemory() // the scavenger returns memory (madvise)

	created := pprof.Lookup("threadcreate").Count() - created0
	if _, err := fmt.Fprintf(out, "done threads_created=%d gc=%d\n", created, gcCount()); err != nil {
		return err
	}
	if line, err := in.ReadString('\n'); err != nil || line != "exit\n" {
		return fmt.Errorf("read exit: %q %v", line, err)
	}
	return nil
}

func gcCount() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

// Available says yes on this machine (the tests above would have
// skipped otherwise), and names what it checked.
func TestSeccompAvailable(t *testing.T) {
	ok, why := Available()
	t.Logf("Available: %v, %s", ok, why)
	if ok && !strings.Contains(why, "instruction allow-list") {
		t.Fatalf("Available says yes without naming the filter: %s", why)
	}
}

// --- The filter program itself, without the kernel ---------------------

// syscallData is struct seccomp_data.
type syscallData struct {
	nr   int32
	arch uint32
	ip   uint64
	args [6]uint64
}

func (d syscallData) bytes() []byte {
	b := make([]byte, 64)
	binary.LittleEndian.PutUint32(b[0:], uint32(d.nr))
	binary.LittleEndian.PutUint32(b[4:], d.arch)
	binary.LittleEndian.PutUint64(b[8:], d.ip)
	for i, a := range d.args {
		binary.LittleEndian.PutUint64(b[16+8*i:], a)
	}
	return b
}

// runBPF interprets the opcodes filter uses.
func runBPF(t *testing.T, prog []unix.SockFilter, d syscallData) uint32 {
	t.Helper()
	data := d.bytes()
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		jump := func(cond bool) {
			if cond {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		}
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			if in.K%4 != 0 || int(in.K)+4 > len(data) {
				t.Fatalf("pc %d: load at %d", pc, in.K)
			}
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K:
			jump(acc == in.K)
		case unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K:
			jump(acc >= in.K)
		case unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			jump(acc&in.K != 0)
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			t.Fatalf("pc %d: opcode %#x", pc, in.Code)
		}
	}
	t.Fatal("the program fell off its end")
	return 0
}

// The verdict for every syscall number and the argument rules, on both
// architectures (arm64 cannot be run here, so this is its only test).
func TestSeccompFilterVerdicts(t *testing.T) {
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		kill   = unix.SECCOMP_RET_KILL_PROCESS
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		eacces = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
		pid    = 4242
	)
	goClone := uint64(unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND | unix.CLONE_SYSVSEM | unix.CLONE_THREAD | unix.CLONE_SETTLS)
	glibcClone := goClone | unix.CLONE_PARENT_SETTID | unix.CLONE_CHILD_CLEARTID
	// A libc mapping like this machine's, and one across a 4 GiB line.
	libc := []codeRange{{0x7fb4e9670000, 0x7fb4e97c6000}, {0x1fffff000, 0x200001000}}
	for goarch, arch := range archTables {
		t.Run(goarch, func(t *testing.T) {
			prog, err := filter(goarch, pid, libc)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d instructions", len(prog))
			check := func(what string, d syscallData, want uint32) {
				t.Helper()
				d.arch = arch.audit
				if got := runBPF(t, prog, d); got != want {
					t.Errorf("%s: verdict %#x, want %#x", what, got, want)
				}
			}
			plain := map[uint32]bool{}
			for _, s := range allowed {
				n := arch.nr[s.name]
				plain[n] = true
				check(s.name, syscallData{nr: int32(n), args: [6]uint64{^uint64(0), 7, 7, 7, 7, 7}}, allow)
				if arch.x32 {
					check(s.name+" (x32)", syscallData{nr: int32(n | x32Bit)}, kill)
				}
			}
			special := map[uint32]bool{arch.nr["clone"]: true, arch.nr["tgkill"]: true, arch.nr["fcntl"]: true, arch.nr["clone3"]: true, arch.nr["unlinkat"]: true, arch.nr["openat"]: true, arch.nr["ioctl"]: true}
			for n := uint32(0); n < 1024; n++ {
				if !plain[n] && !special[n] {
					check(fmt.Sprintf("syscall %d", n), syscallData{nr: int32(n)}, kill)
				}
			}
			check("nr -1", syscallData{nr: -1}, kill)

			clone := int32(arch.nr["clone"])
			check("clone (Go)", syscallData{nr: clone, args: [6]uint64{goClone}}, allow)
			check("clone (glibc)", syscallData{nr: clone, args: [6]uint64{glibcClone}}, allow)
			check("clone (fork)", syscallData{nr: clone, args: [6]uint64{uint64(unix.SIGCHLD)}}, kill)
			check("clone (vfork)", syscallData{nr: clone, args: [6]uint64{unix.CLONE_VM | unix.CLONE_VFORK | uint64(unix.SIGCHLD)}}, kill)
			check("clone (thread, high bits only)", syscallData{nr: clone, args: [6]uint64{uint64(unix.CLONE_THREAD) << 32}}, kill)
			for _, ns := range []uint64{unix.CLONE_NEWNS, unix.CLONE_NEWCGROUP, unix.CLONE_NEWUTS, unix.CLONE_NEWIPC, unix.CLONE_NEWUSER, unix.CLONE_NEWPID, unix.CLONE_NEWNET} {
				check(fmt.Sprintf("clone (thread + %#x)", ns), syscallData{nr: clone, args: [6]uint64{goClone | ns}}, kill)
			}

			tgkill := int32(arch.nr["tgkill"])
			check("tgkill (self)", syscallData{nr: tgkill, args: [6]uint64{pid, 99, uint64(unix.SIGURG)}}, allow)
			check("tgkill (other)", syscallData{nr: tgkill, args: [6]uint64{pid + 1, pid + 1, uint64(unix.SIGKILL)}}, kill)
			check("tgkill (process group)", syscallData{nr: tgkill, args: [6]uint64{0, 1, 9}}, kill)

			fcntl := int32(arch.nr["fcntl"])
			for _, cmd := range []uint64{unix.F_GETFD, unix.F_SETFD, unix.F_GETFL, unix.F_SETFL} {
				check(fmt.Sprintf("fcntl %d", cmd), syscallData{nr: fcntl, args: [6]uint64{3, cmd, unix.O_NONBLOCK}}, allow)
			}
			for _, cmd := range []uint64{unix.F_DUPFD, unix.F_DUPFD_CLOEXEC, unix.F_SETOWN, unix.F_SETOWN_EX, unix.F_SETSIG, unix.F_SETLK, unix.F_SETLEASE, unix.F_NOTIFY, unix.F_SETPIPE_SZ, unix.F_ADD_SEALS} {
				check(fmt.Sprintf("fcntl %d", cmd), syscallData{nr: fcntl, args: [6]uint64{3, cmd, 1}}, kill)
			}

			openat := int32(arch.nr["openat"])
			for _, ip := range []uint64{0x7fb4e9670000, 0x7fb4e9700000, 0x7fb4e97c5fff, 0x1fffff000, 0x1ffffffff, 0x200000000, 0x200000fff} {
				check(fmt.Sprintf("openat from libc %#x", ip), syscallData{nr: openat, ip: ip, args: [6]uint64{uint64(unix.AT_FDCWD & 0xffffffff), 0, unix.O_RDONLY}}, eacces)
			}
			for _, ip := range []uint64{0, 0x4a0000, 0x7fb4e966ffff, 0x7fb4e97c6000, 0x7fb5e9700000, 0x6fb4e9700000, 0x1ffffefff, 0x200001000, 0x300000800} {
				check(fmt.Sprintf("openat from %#x", ip), syscallData{nr: openat, ip: ip}, kill)
			}
			noLibc, err := filter(goarch, pid, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := runBPF(t, noLibc, syscallData{nr: openat, arch: arch.audit, ip: 0x7fb4e9700000}); got != kill {
				t.Errorf("openat without a libc: verdict %#x, want kill", got)
			}

			check("clone3", syscallData{nr: int32(arch.nr["clone3"])}, enosys)
			ioctl := int32(arch.nr["ioctl"])
			check("ioctl TCGETS", syscallData{nr: ioctl, args: [6]uint64{2, unix.TCGETS}}, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOTTY))
			for _, req := range []uint64{unix.TIOCSTI, unix.TCSETS, unix.TIOCGWINSZ, unix.TIOCSCTTY} {
				check(fmt.Sprintf("ioctl %#x", req), syscallData{nr: ioctl, args: [6]uint64{2, req}}, kill)
			}
			check("unlinkat", syscallData{nr: int32(arch.nr["unlinkat"])}, eperm)

			for _, other := range []uint32{unix.AUDIT_ARCH_I386, unix.AUDIT_ARCH_X86_64, unix.AUDIT_ARCH_AARCH64, unix.AUDIT_ARCH_ARM, 0} {
				if other == arch.audit {
					continue
				}
				d := syscallData{nr: int32(arch.nr["read"])}
				d.arch = other
				if got := runBPF(t, prog, d); got != kill {
					t.Errorf("read from arch %#x: verdict %#x, want kill", other, got)
				}
			}
		})
	}
	if _, err := filter("mips64", 1, nil); err == nil {
		t.Error("a filter for an architecture without a table")
	}
}

// glibc's executable mappings are found in /proc/self/maps.
func TestSeccompLibcCode(t *testing.T) {
	maps := `55d0c0a00000-55d0c0a27000 r--p 00000000 fe:00 1 /usr/local/bin/warden
55d0c0a27000-55d0c0c00000 r-xp 00027000 fe:00 1 /usr/local/bin/warden
7fb4e964a000-7fb4e9670000 r--p 00000000 fe:00 326269                     /usr/lib/x86_64-linux-gnu/libc.so.6
7fb4e9670000-7fb4e97c6000 r-xp 00026000 fe:00 326269                     /usr/lib/x86_64-linux-gnu/libc.so.6
7fb4e981d000-7fb4e981f000 rw-p 001d3000 fe:00 326269                     /usr/lib/x86_64-linux-gnu/libc.so.6
7fb4e9900000-7fb4e9a00000 r-xp 00026000 fe:00 326270                     /usr/lib/x86_64-linux-gnu/libcrypto.so.3
7fb4e9b00000-7fb4e9b10000 r-xp 00001000 fe:00 326271                     /lib/libc-2.31.so
7fb4e9c00000-7fb4e9c10000 r-xp 00000000 00:00 0
7ffd1e5fe000-7ffd1e600000 r-xp 00000000 00:00 0                          [vdso]
`
	got, err := parseLibcCode(strings.NewReader(maps))
	if err != nil {
		t.Fatal(err)
	}
	want := []codeRange{{0x7fb4e9670000, 0x7fb4e97c6000}, {0x7fb4e9b00000, 0x7fb4e9b10000}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %x, want %x", got, want)
	}
	own, err := libcCode()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("this test binary's libc code: %x", own)
}

// The numbers in archTables are the kernel's: checked against the
// kernel headers installed here (linux-libc-dev), and against x/sys/unix
// for the architecture under test.
func TestSeccompSyscallTables(t *testing.T) {
	headers := map[string]string{
		"amd64": "/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
		"arm64": "/usr/include/asm-generic/unistd.h",
	}
	names := map[string]bool{"clone": true, "tgkill": true, "fcntl": true, "clone3": true, "unlinkat": true, "openat": true, "ioctl": true}
	for _, s := range allowed {
		if names[s.name] {
			t.Errorf("%s is both plain-allowed and special", s.name)
		}
		names[s.name] = true
	}
	for goarch, arch := range archTables {
		for name := range names {
			if _, ok := arch.nr[name]; !ok {
				t.Errorf("%s: no number for %s", goarch, name)
			}
		}
		for name := range arch.nr {
			if !names[name] {
				t.Errorf("%s: %s is in the table but in no rule", goarch, name)
			}
		}
		src, err := os.ReadFile(headers[goarch])
		if err != nil {
			t.Logf("%s: not checked against the kernel headers: %v", goarch, err)
			continue
		}
		defs := map[string]string{}
		for _, m := range regexp.MustCompile(`(?m)^#define\s+(__NR3264_\w+|__NR_\w+)\s+(\w+)`).FindAllStringSubmatch(string(src), -1) {
			if _, seen := defs[m[1]]; !seen {
				defs[m[1]] = m[2]
			}
		}
		for name, nr := range arch.nr {
			v, ok := defs["__NR_"+name]
			if alias, isAlias := defs[v]; isAlias {
				v = alias
			}
			if !ok || v != strconv.Itoa(int(nr)) {
				t.Errorf("%s: %s is %d here, %q in %s", goarch, name, nr, v, headers[goarch])
			}
		}
	}
	// amd64, by x/sys/unix as well.
	xsys := map[string]uintptr{
		"read": unix.SYS_READ, "write": unix.SYS_WRITE, "close": unix.SYS_CLOSE, "mmap": unix.SYS_MMAP,
		"mprotect": unix.SYS_MPROTECT, "munmap": unix.SYS_MUNMAP, "brk": unix.SYS_BRK, "ioctl": unix.SYS_IOCTL,
		"rt_sigaction": unix.SYS_RT_SIGACTION, "rt_sigprocmask": unix.SYS_RT_SIGPROCMASK,
		"rt_sigreturn": unix.SYS_RT_SIGRETURN, "pread64": unix.SYS_PREAD64, "readv": unix.SYS_READV,
		"writev": unix.SYS_WRITEV, "sched_yield": unix.SYS_SCHED_YIELD, "mremap": unix.SYS_MREMAP,
		"madvise": unix.SYS_MADVISE, "nanosleep": unix.SYS_NANOSLEEP, "getpid": unix.SYS_GETPID,
		"shutdown": unix.SYS_SHUTDOWN, "getsockname": unix.SYS_GETSOCKNAME, "getpeername": unix.SYS_GETPEERNAME,
		"getsockopt": unix.SYS_GETSOCKOPT, "clone": unix.SYS_CLONE, "exit": unix.SYS_EXIT, "fcntl": unix.SYS_FCNTL,
		"gettimeofday": unix.SYS_GETTIMEOFDAY, "getrusage": unix.SYS_GETRUSAGE, "sigaltstack": unix.SYS_SIGALTSTACK,
		"gettid": unix.SYS_GETTID, "futex": unix.SYS_FUTEX, "sched_getaffinity": unix.SYS_SCHED_GETAFFINITY,
		"restart_syscall": unix.SYS_RESTART_SYSCALL, "clock_gettime": unix.SYS_CLOCK_GETTIME,
		"clock_nanosleep": unix.SYS_CLOCK_NANOSLEEP, "exit_group": unix.SYS_EXIT_GROUP, "epoll_ctl": unix.SYS_EPOLL_CTL,
		"tgkill": unix.SYS_TGKILL, "openat": unix.SYS_OPENAT, "unlinkat": unix.SYS_UNLINKAT, "set_robust_list": unix.SYS_SET_ROBUST_LIST,
		"epoll_pwait": unix.SYS_EPOLL_PWAIT, "accept4": unix.SYS_ACCEPT4, "getrandom": unix.SYS_GETRANDOM,
		"rseq": unix.SYS_RSEQ, "clone3": unix.SYS_CLONE3,
	}
	for name, nr := range archTables["amd64"].nr {
		if want, ok := xsys[name]; !ok || uintptr(nr) != want {
			t.Errorf("amd64: %s is %d here, %d in x/sys/unix (known: %v)", name, nr, want, ok)
		}
	}
}

// --- Benchmarks ----------------------------------------------------------

// Building the program (in this process).
func BenchmarkSeccompFilterBuild(b *testing.B) {
	for b.Loop() {
		if _, err := filter(runtime.GOARCH, 1, []codeRange{{0x7f0000000000, 0x7f0000100000}}); err != nil {
			b.Fatal(err)
		}
	}
}

// Install in a fresh helper (the test binary just started, like
// a child): ns/op is the helper's own measurement of Install when
// Prepare already ran (what Run pays if start-up prepared the
// filter), prepare-ns the cost of Prepare (reading
// /proc/self/maps, building the program, loading the time zone), not the
// process start. The medians of the b.N helpers are reported.
func BenchmarkSeccompInstall(b *testing.B) {
	if ok, why := Available(); !ok {
		b.Skip(why)
	}
	var prepare, install []float64
	var threads float64
	for b.Loop() {
		out, err := helperCmd("bench-install", "").Output()
		if err != nil {
			b.Fatalf("helper: %v %s", err, out)
		}
		var p, i, n float64
		if _, err := fmt.Sscanf(string(out), "%g %g %g", &p, &i, &n); err != nil {
			b.Fatalf("helper output %q: %v", out, err)
		}
		prepare, install = append(prepare, p), append(install, i)
		threads = n
	}
	sort.Float64s(prepare)
	sort.Float64s(install)
	b.ReportMetric(install[len(install)/2], "ns/op")
	b.ReportMetric(prepare[len(prepare)/2], "prepare-ns")
	b.ReportMetric(threads, "threads")
}

func benchInstall() int {
	start := time.Now()
	if err := Prepare(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return helperInstallFailed
	}
	prepared := time.Now()
	if err := Install(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return helperInstallFailed
	}
	installed := time.Now()
	threads := pprof.Lookup("threadcreate").Count()
	fmt.Printf("%d %d %d\n", prepared.Sub(start).Nanoseconds(), installed.Sub(prepared).Nanoseconds(), threads)
	return helperOK
}

// The cost of one system call with and without the filter: getpid is
// decided by the syscall number alone (the kernel's action cache makes
// it constant-time), tgkill(self, self, 0) runs the filter up to its
// argument check. ns/op is per system call, measured in the helper.
func BenchmarkSeccompSyscall(b *testing.B) {
	if ok, why := Available(); !ok {
		b.Skip(why)
	}
	for _, call := range []string{"getpid", "tgkill"} {
		for _, filter := range []string{"nofilter", "filter"} {
			b.Run(call+"/"+filter, func(b *testing.B) {
				out, err := helperCmd("bench-syscall", fmt.Sprintf("%s:%s:%d", call, filter, b.N)).Output()
				if err != nil {
					b.Fatalf("helper: %v %s", err, out)
				}
				ns, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
				if err != nil {
					b.Fatalf("helper output %q: %v", out, err)
				}
				b.ReportMetric(ns/float64(b.N), "ns/op")
			})
		}
	}
}

func benchSyscall(arg string) int {
	parts := strings.Split(arg, ":")
	if len(parts) != 3 {
		return helperWrong
	}
	n, err := strconv.Atoi(parts[2])
	if err != nil {
		return helperWrong
	}
	if parts[1] == "filter" {
		if err := Install(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return helperInstallFailed
		}
	}
	runtime.LockOSThread()
	pid, tid := uintptr(unix.Getpid()), uintptr(unix.Gettid())
	start := time.Now()
	switch parts[0] {
	case "getpid":
		for i := 0; i < n; i++ {
			unix.RawSyscall(unix.SYS_GETPID, 0, 0, 0)
		}
	case "tgkill":
		for i := 0; i < n; i++ {
			unix.RawSyscall(unix.SYS_TGKILL, pid, tid, 0)
		}
	default:
		return helperWrong
	}
	fmt.Println(time.Since(start).Nanoseconds())
	return helperOK
}
