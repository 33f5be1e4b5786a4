//go:build linux

package cgroup

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/testkit/testutil"
	"golang.org/x/sys/unix"
)

// helperEnv gates TestHelperProcess: the test binary re-executes itself as a
// child (hashicorp/go-plugin's helperProcess pattern).
const helperEnv = "WARDEN_CGROUP_TEST_HELPER"

// helperCmd returns a command that runs the test binary as a helper in the
// given mode.
func helperCmd(mode string, args ...string) *exec.Cmd {
	return testutil.HelperCmd(append(os.Environ(), helperEnv+"=1"), append([]string{mode}, args...)...)
}

// TestHelperProcess is not a test: it is the body of helper child processes.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("runs only as a helper child process")
	}
	args := testutil.HelperArgs()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "helper: no mode")
		os.Exit(2)
	}
	os.Exit(runHelper(args[0], args[1:]))
}

// helperReport is what the "supervisor" and "v2" helpers print on stdout.
type helperReport struct {
	Grandchild int      `json:"grandchild"`
	Dirs       []string `json:"dirs"`
	Err        string   `json:"err,omitempty"`
}

func runHelper(mode string, args []string) int {
	switch mode {
	case "alloc":
		// Wait until the parent has placed us, then allocate and touch
		// 200 MiB, one page at a time.
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return 3
		}
		var keep [][]byte
		for range 200 {
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		fmt.Println("survived", len(keep))
		return 0
	case "supervisor":
		return helperSupervisor()
	case "supervisor-in-pid-namespace":
		// Started in new PID and mount namespaces: a /proc of its own, as
		// in a container, where the host's pids do not exist.
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			return report(helperReport{Err: "make mounts private: " + err.Error()})
		}
		if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return report(helperReport{Err: "mount /proc: " + err.Error()})
		}
		return helperSupervisor()
	case "v2":
		return helperV2(args)
	}
	fmt.Fprintln(os.Stderr, "helper: unknown mode", mode)
	return 2
}

// helperSupervisor acts as a supervisor: it creates a Manager and a group,
// starts a sleeping grandchild in it, reports, and waits to be killed.
func helperSupervisor() int {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m, err := New(context.Background(), Config{Logger: log})
	if err != nil {
		return report(helperReport{Err: err.Error()})
	}
	g, err := m.Create("orphan", Limits{MemoryBytes: 64 << 20, PidsMax: 16})
	if err != nil {
		return report(helperReport{Err: err.Error()})
	}
	cmd := exec.Command("sleep", "60")
	if err := startIn(g, cmd); err != nil {
		return report(helperReport{Err: err.Error()})
	}
	var dirs []string
	for _, p := range m.parents {
		dirs = append(dirs, p.dir)
	}
	report(helperReport{Grandchild: cmd.Process.Pid, Dirs: dirs})
	time.Sleep(time.Hour)
	return 0
}

func report(r helperReport) int {
	json.NewEncoder(os.Stdout).Encode(r)
	if r.Err != "" {
		return 1
	}
	return 0
}

// startIn starts cmd inside g: with CLONE_INTO_CGROUP where the group has a
// descriptor (v2), else started and then placed with AddProc (v1).
func startIn(g *Group, cmd *exec.Cmd) error {
	if fd, ok := g.CgroupFD(); ok {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = fd
		return cmd.Start()
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := g.AddProc(cmd.Process.Pid); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	return nil
}

// requireCgroups skips the test when the machine cannot run it: not root,
// or no writable cgroup memory controller.
func requireCgroups(tb testing.TB) {
	tb.Helper()
	testutil.RequireRoot(tb, "create cgroups")
	r := Detect()
	if r.Mode == ModeNone {
		tb.Skipf("no usable cgroups on this machine: %s", r.Reason)
	}
	if !r.Writable {
		tb.Skipf("cgroups not writable here: %s", r.Reason)
	}
}

// testLogger logs through t.Log.
func testLogger(tb testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tbWriter{tb}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tbWriter struct{ tb testing.TB }

func (w tbWriter) Write(p []byte) (int, error) {
	w.tb.Helper()
	w.tb.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// newTestManager returns a Manager that is closed at the end of the test,
// checking that Close removed its parent directories.
func newTestManager(tb testing.TB) *Manager {
	tb.Helper()
	log := testLogger(tb)
	if _, ok := tb.(*testing.B); ok {
		log = slog.New(slog.DiscardHandler)
	}
	m, err := New(context.Background(), Config{Logger: log})
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	if m.Mode() == ModeNone {
		tb.Fatalf("New gave mode none although Detect found cgroups: %s", m.reason)
	}
	tb.Cleanup(func() {
		if err := m.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
		for _, p := range m.parents {
			if exists(p.dir) {
				tb.Errorf("Close left %s behind", p.dir)
			}
		}
	})
	return m
}

// subdirs lists the directories in dir.
func subdirs(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatalf("read %s: %v", dir, err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// assertNoGroups fails if any parent directory of m has a subdirectory.
func assertNoGroups(tb testing.TB, m *Manager) {
	tb.Helper()
	for _, p := range m.parents {
		if left := subdirs(tb, p.dir); len(left) > 0 {
			tb.Errorf("%s controller: groups left behind: %v", p.ctl, left)
		}
	}
}

// killedBy returns the signal that ended a command, if a signal did.
func killedBy(err error) (syscall.Signal, bool) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return ws.Signal(), true
}

// readLine reads one line from r with a timeout.
func readLine(r io.Reader, timeout time.Duration) (string, error) {
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := bufio.NewReader(r).ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case r := <-ch:
		return r.s, r.err
	case <-time.After(timeout):
		return "", errors.New("timed out waiting for a line")
	}
}
