package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-systemd/v22/activation"
	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// Daemon is a running `warden serve`: a supervisor, the server over it
// and the HTTP listener, with systemd told what happens (sd_notify) when
// NOTIFY_SOCKET is set.
//
// Its life: 1. Start validates the config, starts the supervisor (which
// starts warming its pool) and serves on the listener systemd passed
// (LISTEN_FDS) or on cfg.Listen; /healthz answers at once, /readyz 503.
// 2. Once the pool is warm, /readyz says 200 and systemd gets READY=1;
// WATCHDOG=1 goes every WatchdogSec/2 from then on. 3. Reload swaps the
// tenants (SIGHUP). 4. Shutdown (SIGTERM): STOPPING=1, /readyz and new
// executions 503, in-flight executions get DrainTimeout to finish and
// are aborted after it; then the listener closes and the supervisor
// stops every child and removes their cgroups.
type Daemon struct {
	cfg    Config
	log    *slog.Logger
	sup    *supervisor.Supervisor
	srv    *Server
	http   *http.Server
	ln     net.Listener
	served chan error
	stop   chan struct{}
	bg     sync.WaitGroup
	once   sync.Once
}

// Start starts a daemon on cfg (validated here).
func Start(cfg Config, log *slog.Logger) (*Daemon, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	defaults, caps, err := contract.ConfigLimits(cfg.Supervisor.Defaults.Limits(), cfg.Supervisor.Caps.Limits())
	if err != nil {
		return nil, err
	}
	ln, err := listener(cfg.Listen)
	if err != nil {
		return nil, err
	}
	sc := cfg.supervisorConfig()
	sc.Logger = log.With("component", "supervisor")
	sc.ParkTTL = cfg.Park.storeLimits().TTL
	states := NewMemStore(cfg.Park.storeLimits())
	if cfg.Park.Dir != "" {
		states, err = NewDirStore(cfg.Park.Dir, cfg.Park.storeLimits())
	}
	if err == nil {
		err = cfg.Park.parkKeys(&sc)
	}
	if err != nil {
		ln.Close()
		return nil, err
	}
	sup, err := supervisor.New(sc)
	if err != nil {
		ln.Close()
		return nil, err
	}
	srv, err := New(&cfg, Options{Supervisor: sup, Defaults: defaults, Caps: caps, BodyTimeout: cfg.BodyTimeout, WriteTimeout: cfg.WriteTimeout,
		PoolSize: cfg.Supervisor.PoolSize, States: states, Logger: log})
	if err != nil {
		ln.Close()
		closeSupervisor(sup)
		return nil, err
	}
	d := &Daemon{cfg: cfg, log: log, sup: sup, srv: srv, ln: ln, served: make(chan error, 1), stop: make(chan struct{})}
	d.http = &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: cfg.HeaderTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	go func() { d.served <- d.http.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String())
	d.bg.Add(1)
	go d.notifyReady()
	return d, nil
}

// listener is the socket systemd passed, else a TCP listener on addr.
func listener(addr string) (net.Listener, error) {
	lns, err := activation.Listeners()
	if err != nil {
		return nil, fmt.Errorf("socket activation: %w", err)
	}
	for i, l := range lns {
		if l != nil {
			for _, rest := range lns[i+1:] {
				if rest != nil {
					rest.Close()
				}
			}
			return l, nil
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	return ln, nil
}

// notifyReady waits for the warm pool, says READY=1, then pings the
// watchdog until Shutdown.
func (d *Daemon) notifyReady() {
	defer d.bg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-d.stop
		cancel()
	}()
	if err := d.srv.WaitWarm(ctx); err != nil {
		return
	}
	d.log.Info("ready: the pool is warm")
	d.notify(daemon.SdNotifyReady)
	every, err := daemon.SdWatchdogEnabled(false)
	if err != nil || every <= 0 {
		return
	}
	t := time.NewTicker(every / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d.notify(daemon.SdNotifyWatchdog)
		}
	}
}

func (d *Daemon) notify(state string) {
	if _, err := daemon.SdNotify(false, state); err != nil {
		d.log.Warn("sd_notify failed", "state", state, "error", err)
	}
}

// Addr is the address the daemon listens on.
func (d *Daemon) Addr() string { return d.ln.Addr().String() }

// Server is the daemon's HTTP server.
func (d *Daemon) Server() *Server { return d.srv }

// Reload applies cfg's tenants, tokens and quotas; a bad cfg is refused
// and the old ones kept. Other keys take effect at the next start.
func (d *Daemon) Reload(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	return d.srv.Reload(&cfg)
}

// Shutdown drains and stops the daemon (see Daemon). It returns once
// every child is gone.
func (d *Daemon) Shutdown() error {
	var err error
	d.once.Do(func() { err = d.shutdown() })
	return err
}

func (d *Daemon) shutdown() error {
	d.log.Info("draining", "drain_timeout", d.cfg.DrainTimeout.String())
	d.notify(daemon.SdNotifyStopping)
	close(d.stop)
	dctx, cancel := context.WithTimeout(context.Background(), d.cfg.DrainTimeout)
	d.srv.Drain(dctx)
	cancel()
	hctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	herr := d.http.Shutdown(hctx)
	cancel()
	if errors.Is(herr, context.DeadlineExceeded) {
		herr = d.http.Close()
	}
	if err := <-d.served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		herr = errors.Join(herr, err)
	}
	d.bg.Wait()
	err := errors.Join(herr, closeSupervisor(d.sup))
	d.log.Info("stopped", "error", err)
	return err
}

// closeSupervisor stops every child (none is busy after a drain) and
// removes the cgroups.
func closeSupervisor(sup *supervisor.Supervisor) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return sup.Close(ctx)
}
