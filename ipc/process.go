package ipc

// The supervisor's start of a child process: go-plugin's client, with
// Warden's own launcher (launcher.go) and dialer (wire.go), so that the
// packages that start children need not import go-plugin themselves.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc"

	"github.com/wardenhq/warden/contract"
)

// ProcessConfig describes a child process for Start.
type ProcessConfig struct {
	// Cmd is the child command, prepared by the caller: path, args,
	// SysProcAttr (process group, Pdeathsig, cgroup fd) and Env. Start
	// appends go-plugin's handshake variables to Cmd.Env (never the host
	// environment), connects Stdout and Stderr to pipes and Stdin to
	// /dev/null. After the child is reaped, Cmd.ProcessState holds its
	// exit status and rusage.
	Cmd *exec.Cmd
	// Logger receives go-plugin's own logs, and the child's stderr as
	// text: each line (cut at 2 KiB) under the fixed message
	// "child stderr" at warn level, rate-limited and capped per child,
	// never parsed (stderr.go). Nil discards both.
	Logger *slog.Logger
	// Started, when set, runs right after the child process is created
	// and before it completes the handshake (it cannot have run anything
	// untrusted yet): the place to put it in its cgroup on cgroup v1. An
	// error kills the child and fails Start.
	Started func(pid int) error
	// SocketOwner, when non-zero, is the uid the child runs as: the
	// directory its Unix socket goes in is handed to it.
	SocketOwner int
	// StartTimeout bounds the handshake. Zero means go-plugin's default,
	// one minute.
	StartTimeout time.Duration
	// Abandoned, when set, counts the children of Starts that returned
	// early because their ctx ended: such a child is killed, and its
	// socket directory removed, only once go-plugin lets go of it (its
	// handshake completes or times out). Waiting on Abandoned waits for
	// that clean-up, so that a process that closes its supervisor and
	// exits leaves no socket directory behind.
	Abandoned *sync.WaitGroup
	// Wire bounds each message on the connection, both ways
	// (DeriveWireCaps; the child must be told the same caps, in its
	// ChildConfig). gRPC refuses a larger message from the child, which
	// ends the execution with a SandboxError. Zero fields mean
	// MaxWireMessageBytes.
	Wire WireCaps
	// WireBudget bounds everything the child may send on its connection
	// for one execution, given the request (with resolved limits), on top
	// of a fixed slack for its start-up. Past it the child is killed and
	// the execution ends with a SandboxError. Nil means WireBudget.
	WireBudget func(contract.Request) int64
}

// dialOptions are the supervisor's gRPC options for a child: what it
// accepts from the untrusted child is bounded by wire.FromChild (and,
// for one execution, by the wire budget).
func dialOptions(wire WireCaps) []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(orMax(wire.FromChild)), grpc.MaxCallSendMsgSize(orMax(wire.ToChild))),
	}
}

// Process is a started child.
type Process struct {
	pc     *plugin.Client
	client *Client
	pid    int
	// pidfd turns readable the moment the child exits, reaped or not;
	// -1 where the kernel has no pidfd_open.
	pidfd    int
	killOnce sync.Once
}

// Start starts cfg.Cmd, completes the handshake and returns the child.
// If ctx ends first, Start returns an error wrapping ctx.Err() at once,
// and the child is killed as soon as go-plugin lets go of it (when the
// handshake completes or hits StartTimeout).
//
// The handshake must name a Unix socket in the directory made for this
// child, and the connection is made (lazily, on the first call) only if
// the process listening on it is the child; otherwise that call fails
// with a SandboxError wrapping ErrPeerNotChild's text. Everything the
func Start(ctx context.Context, cfg ProcessConfig) (*Process, error) {
	if cfg.Cmd == nil {
		return nil, errors.New("ipc: start child: ProcessConfig.Cmd is nil")
	}
	logger := hclog.NewNullLogger()
	if cfg.Logger != nil {
		logger = slogAdapter(cfg.Logger)
	}
	w := newWireMeter(cfg.WireBudget)
	var launched atomic.Pointer[launcher] // set once go-plugin asks for it
	pc := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  handshake,
		Plugins:          clientPluginMap(),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Logger:           logger,
		StartTimeout:     cfg.StartTimeout,
		SkipHostEnv:      true,
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: socketBase()},
		// Our dialer replaces go-plugin's (options given here come after
		// its own): peer check and metering (wire.go).
		GRPCDialOptions: append(dialOptions(cfg.Wire), grpc.WithContextDialer(w.dial)),
		RunnerFunc:      launchFunc(cfg, w, &launched),
	})

	ch := make(chan dispensed, 1)
	go func() {
		c, err := dispense(pc)
		ch <- dispensed{c, err}
	}()
	select {
	case d := <-ch:
		if d.err != nil {
			pc.Kill()
			w.removeSocketDir()
			if l := launched.Load(); l != nil && l.cmd.Process != nil {
				return nil, l.startFailure(d.err)
			}
			return nil, d.err
		}
		d.client.wire = w
		p := &Process{pc: pc, client: d.client, pid: cfg.Cmd.Process.Pid, pidfd: -1}
		if fd, err := pidfdOpen(p.pid); err == nil {
			p.pidfd = fd
		}
		return p, nil
	case <-ctx.Done():
		abandonStart(pc, ch, w, launched.Load(), cfg.Abandoned)
		return nil, fmt.Errorf("ipc: start child: %w", ctx.Err())
	}
}

// launchFunc is go-plugin's RunnerFunc for cfg: our own launcher starts
// cfg.Cmd, with the handshake variables of go-plugin's spec command
// (which carries only those: SkipHostEnv), and the socket directory
// go-plugin made is recorded and handed to the child's uid. The launcher
// is stored in launched for Start's failure paths.
func launchFunc(cfg ProcessConfig, w *wireMeter, launched *atomic.Pointer[launcher]) func(hclog.Logger, *exec.Cmd, string) (runner.Runner, error) {
	return func(_ hclog.Logger, spec *exec.Cmd, socketDir string) (runner.Runner, error) {
		cfg.Cmd.Env = append(cfg.Cmd.Env, spec.Env...)
		w.setSocketDir(socketDir)
		if cfg.SocketOwner != 0 {
			if err := os.Chown(socketDir, cfg.SocketOwner, -1); err != nil {
				return nil, fmt.Errorf("ipc: hand the socket dir to uid %d: %w", cfg.SocketOwner, err)
			}
		}
		l, err := newLauncher(cfg.Cmd, cfg.Started, cfg.Logger, w)
		if err != nil {
			return nil, err
		}
		launched.Store(l)
		return l, nil
	}
}

// dispensed is the outcome of dispense, handed from its goroutine to Start.
type dispensed struct {
	client *Client
	err    error
}

// abandonStart lets go of a start whose ctx ended. go-plugin holds its
// lock for the whole handshake, so pc.Kill would wait for it: the child
// (l, nil if not launched yet) is killed now, so that the handshake
// fails at once rather than at its timeout, and pc is killed and the
// socket directory removed once the handshake is over, counted in
// abandoned (may be nil) until then.
func abandonStart(pc *plugin.Client, ch <-chan dispensed, w *wireMeter, l *launcher, abandoned *sync.WaitGroup) {
	if abandoned != nil {
		abandoned.Add(1)
	}
	if l != nil {
		l.abandon()
	}
	go func() {
		<-ch
		pc.Kill()
		w.removeSocketDir()
		if abandoned != nil {
			abandoned.Done()
		}
	}()
}

// dispense connects to the child and returns its Client.
func dispense(pc *plugin.Client) (*Client, error) {
	proto, err := pc.Client()
	if err != nil {
		return nil, fmt.Errorf("ipc: start child: %w", err)
	}
	raw, err := proto.Dispense(PluginName)
	if err != nil {
		return nil, fmt.Errorf("ipc: dispense %s: %w", PluginName, err)
	}
	c, ok := raw.(*Client)
	if !ok {
		return nil, fmt.Errorf("ipc: dispense %s: got %T, want *Client", PluginName, raw)
	}
	return c, nil
}

// Client returns the client of the child's one execution.
func (p *Process) Client() *Client { return p.client }

// PID is the child's process id.
func (p *Process) PID() int { return p.pid }

// Exited reports whether the child process has exited.
// go-plugin learns of a death only when its Wait goroutine gets to run,
// so a child killed from outside could still look alive to a caller
// about to use it; the pidfd knows at once.
func (p *Process) Exited() bool {
	if p.pc.Exited() {
		return true
	}
	if p.pidfd < 0 {
		return false
	}
	return fdReadable(p.pidfd, 0)
}

// Kill asks the child to shut down, waits up to two seconds, then kills
// it, and reaps it. It is safe to call after the process died, and more
// than once. (The supervisor's hard kill at the deadline is a SIGKILL of
// the process group, not this.)
func (p *Process) Kill() {
	p.pc.Kill()
	p.killOnce.Do(func() {
		if p.pidfd >= 0 {
			closeFD(p.pidfd)
		}
	})
}
