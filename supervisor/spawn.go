package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// process is one child: a started, ready process with one prepared VM.
type process struct {
	proc   *ipc.Process
	cmd    *exec.Cmd
	memory int64
	ready  time.Time // when the handshake completed
	spawn  time.Duration

	once sync.Once
}

// Exited reports whether the process is gone.
func (p *process) Exited() bool { return p.proc.Exited() }

// Discard kills the child's whole process group and reaps it.
func (p *process) Discard() {
	p.once.Do(func() {
		p.killGroup()
		p.proc.Kill()
	})
}

// killGroup SIGKILLs the child's process group (the child is its leader).
func (p *process) killGroup() {
	if pid := p.proc.PID(); pid > 0 {
		syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// rusage is what the kernel reported for the reaped child.
func (p *process) rusage() (cpu time.Duration, maxRSS int64, ok bool) {
	st := p.cmd.ProcessState
	if st == nil {
		return 0, 0, false
	}
	ru, ok := st.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, false
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpu, ru.Maxrss * 1024, true
}

// spawn starts one child prepared for memory bytes.
func (s *Supervisor) spawn(ctx context.Context, memory int64) (*process, error) {
	cfg, err := json.Marshal(child.Config{
		MemoryBytes: memory,
		CacheDir:    s.cfg.CacheDir,
		Defaults:    s.cfg.Defaults,
		Caps:        s.cfg.Caps,
		Harden:      child.HardeningOptions{NoNewPrivs: true},
	})
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(s.cfg.Binary, s.cfg.ChildArgs...)
	cmd.Args[0] = "warden-child"
	// An empty environment but for the child's configuration (go-plugin
	// adds its handshake variables; SkipHostEnv keeps ours out).
	cmd.Env = []string{child.ConfigEnv + "=" + string(cfg)}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid:   true,            // its own process group, killed as one
		Pdeathsig: syscall.SIGKILL, // dies with the supervisor
	}
	start := time.Now()
	proc, err := ipc.Start(ctx, ipc.ProcessConfig{Cmd: cmd, Logger: s.log.With("component", "child"), StartTimeout: s.cfg.StartTimeout})
	if err != nil {
		return nil, fmt.Errorf("supervisor: start child %s: %w", s.cfg.Binary, err)
	}
	p := &process{proc: proc, cmd: cmd, memory: memory, ready: time.Now(), spawn: time.Since(start)}
	// Establish the gRPC connection now, not on the execution's path.
	if err := proc.Client().Ping(ctx); err != nil {
		p.Discard()
		return nil, fmt.Errorf("supervisor: child %d did not answer its first ping: %w", proc.PID(), err)
	}
	return p, nil
}

// limitsKey is the pool key: children are prepared per memory cap.
func limitsKey(l contract.Limits) int64 { return l.MemoryBytes }
