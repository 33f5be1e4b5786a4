package ipc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-plugin/runner"

	"github.com/wardenhq/warden/contract"
)

// launcher starts a child's process for go-plugin: it is the
// runner.Runner of go-plugin's RunnerFunc (named so as not to be taken
// for Runner, what a child serves). It replaces go-plugin's own runner so
// that the child's descriptors are exactly stdout and stderr
// (go-plugin's would hand it the supervisor's stdin) and so that the
// caller's exec.Cmd, with its SysProcAttr, is the one that runs and is
// reaped (its ProcessState carries the child's rusage).
type launcher struct {
	cmd *exec.Cmd
	// proc is cmd.Process once started, for abandon (another goroutine).
	proc           atomic.Pointer[os.Process]
	stdout, stderr io.ReadCloser
	started        func(pid int) error
	// logger receives the child's stderr (stderr.go); nil drops it.
	logger *slog.Logger
	// stderrDone is closed when the child's stderr has been read to its
	// end.
	stderrDone chan struct{}
	// wire learns the child's pid and checks the address it names.
	wire *wireMeter
	// pidfd turns readable when the child exits; -1 without one.
	pidfd           int
	throttledStdout io.ReadCloser
	// tail is the end of the child's stderr (startFailure).
	tail stderrTail
}

var _ runner.Runner = (*launcher)(nil)

func newLauncher(cmd *exec.Cmd, started func(pid int) error, logger *slog.Logger, w *wireMeter) (*launcher, error) {
	cmd.Stdin = nil // /dev/null
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	return &launcher{cmd: cmd, stdout: stdout, stderr: stderr, started: started, logger: logger, stderrDone: make(chan struct{}), wire: w, pidfd: -1}, nil
}

func (l *launcher) Start(context.Context) error {
	if err := l.cmd.Start(); err != nil {
		return err
	}
	l.proc.Store(l.cmd.Process)
	l.wire.setPID(l.cmd.Process.Pid)
	if l.started != nil {
		if err := l.started(l.cmd.Process.Pid); err != nil {
			l.cmd.Process.Kill()
			l.cmd.Wait()
			return fmt.Errorf("child %d: %w", l.cmd.Process.Pid, err)
		}
	}
	pid := l.cmd.Process.Pid
	if fd, err := pidfdOpen(pid); err == nil {
		l.pidfd = fd
	}
	// go-plugin reads the handshake line from stdout, then drains it for
	// the child's life: after the burst, at the child's expense too.
	l.throttledStdout = throttledReadCloser{&throttle{r: l.stdout, exited: l.exitedWithin, allowance: stderrReadBurst, last: time.Now()}, l.stdout}
	go func() {
		defer close(l.stderrDone)
		(&stderrLog{log: l.logger, pid: pid, tail: &l.tail}).run(l.stderr, l.exitedWithin)
	}()
	return nil
}

// Wait reaps the child. go-plugin calls it once it has read stdout and
// stderr to their ends, so the pidfd is no longer needed.
func (l *launcher) Wait(context.Context) error {
	err := l.cmd.Wait()
	if l.pidfd >= 0 {
		closeFD(l.pidfd)
		l.pidfd = -1
	}
	return err
}

func (l *launcher) Kill(context.Context) error {
	if l.cmd.Process == nil {
		return nil
	}
	if err := l.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

// Stdout is the child's stdout, read at most as fast as stderr is.
func (l *launcher) Stdout() io.ReadCloser { return l.throttledStdout }

type throttledReadCloser struct {
	io.Reader
	io.Closer
}

// Stderr is what go-plugin reads as the child's stderr: never the child's
// bytes, which stderrLog reads itself (stderr.go).
func (l *launcher) Stderr() io.ReadCloser { return endReader{l.stderrDone} }
func (l *launcher) Name() string          { return l.cmd.Path }

func (l *launcher) ID() string {
	if l.cmd.Process == nil {
		return ""
	}
	return fmt.Sprint(l.cmd.Process.Pid)
}

func (l *launcher) Diagnose(context.Context) string {
	return "the child failed to start or to complete the handshake; run `warden doctor`, and check that the binary runs the `child` subcommand"
}

// PluginToHost accepts only the Unix socket go-plugin's directory for
// this child was made for (wire.go).
func (l *launcher) PluginToHost(n, a string) (string, string, error) {
	if err := l.wire.setAddr(n, a); err != nil {
		return "", "", err
	}
	return n, a, nil
}
func (l *launcher) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }

// exitedWithin waits up to d for the child to exit and reports whether
// it has. Without a pidfd (kernels before 5.3) it only waits.
func (l *launcher) exitedWithin(d time.Duration) bool {
	if l.pidfd < 0 {
		time.Sleep(d)
		return false
	}
	return fdReadable(l.pidfd, d)
}

// abandon kills the child, if it started, from outside go-plugin's
// handshake: the handshake then fails at once instead of running to its
// timeout. os.Process.Kill is safe after the reap (it signals through
// the process's handle, never a reused pid).
func (l *launcher) abandon() {
	if p := l.proc.Load(); p != nil {
		p.Kill()
	}
}

// startFailure is the error of a child whose handshake failed with err,
// once go-plugin has let go of it (the child is dead and reaped): a
// SandboxError with the child's own reason. go-plugin reports a child
// that exits before its handshake as an unrecognised message on stdout
// ("Unrecognized remote plugin message"), which says nothing of why;
// the child said why on stderr, and its exit status says how it ended.
// go-plugin's words stay only for a child that did not exit by itself
// (a handshake that timed out, or a wrong line on stdout).
func (l *launcher) startFailure(err error) error {
	// The rest of stderr arrives as the dead child's pipe drains.
	select {
	case <-l.stderrDone:
	case <-time.After(time.Second):
	}
	status := "not started"
	exited := false
	if st := l.cmd.ProcessState; st != nil {
		status = st.String()
		exited = st.Exited()
	}
	tail := l.tail.String()
	if tail == "" {
		tail = "nothing"
	}
	msg := fmt.Sprintf("the child failed its start-up (%s); its stderr ended with: %s", status, tail)
	if !exited {
		msg += "; handshake: " + err.Error()
	}
	return fmt.Errorf("ipc: start child: %w", &contract.Error{Type: contract.SandboxError, Message: msg})
}
