// Package daemontest starts a real daemon (server.Start) on loopback for
// the tests of packages that talk to one: its supervisor starts real
// children of the test binary, whose TestMain must call
// child.RunIfChild. It is apart from testutil because server's own tests
// use testutil, and testutil importing server would be a cycle.
package daemontest

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/wardenhq/warden/server"
)

// Start starts the daemon with tenants, the compilation cache cacheDir
// and one child warm, lets adjust change the configuration first, waits
// until the pool is warm and returns the daemon's base URL. It shuts
// the daemon down at cleanup.
func Start(tb testing.TB, cacheDir string, tenants []server.TenantConfig, adjust ...func(*server.Config)) string {
	tb.Helper()
	cfg := server.DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.Supervisor.PoolSize = 1
	cfg.Supervisor.CacheDir = cacheDir
	cfg.Tenants = tenants
	for _, f := range adjust {
		f(&cfg)
	}
	d, err := server.Start(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := d.Shutdown(); err != nil {
			tb.Errorf("shutdown: %v", err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.Server().WaitWarm(ctx); err != nil {
		tb.Fatalf("the pool did not warm: %v", err)
	}
	return "http://" + d.Addr()
}
