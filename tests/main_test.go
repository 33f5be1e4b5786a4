package tests

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// The test binary is also the child: the supervisor re-executes it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	warmCache()
	os.Exit(m.Run())
}

// warmCache fills the shared compilation cache with a child that runs
// as root: children with uids of their own can read the cache but not
// fill it. A failure is printed, and left to the tests that need
// children to report.
func warmCache() {
	s, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, PoolSize: 1, ChildAsSupervisorUser: true, QueueTimeout: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, "warming the compilation cache:", err)
		return
	}
	defer s.Close(context.Background())
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		fmt.Fprintln(os.Stderr, "warming the compilation cache:", err)
	}
}

var cacheDir = func() string {
	if d := os.Getenv("WARDEN_TEST_CACHE"); d != "" {
		return d // a helper process of a test: its parent's cache
	}
	d, err := os.MkdirTemp("", "warden-tests-cache")
	if err != nil {
		panic(err)
	}
	os.Chmod(d, 0o755) // children with uids of their own read it
	return d
}()

func newSupervisor(t *testing.T, mod func(*supervisor.Config)) *supervisor.Supervisor {
	t.Helper()
	cfg := supervisor.Config{CacheDir: cacheDir, PoolSize: 2}
	if mod != nil {
		mod(&cfg)
	}
	s, err := supervisor.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Close(ctx)
	})
	return s
}

// TestAttacksSupervised attacks the full stack: every script runs in its
// own child, with the SIGKILL layer above the interpreter.
func TestAttacksSupervised(t *testing.T) {
	s := newSupervisor(t, nil)
	runAttacks(t, func(ctx context.Context, req contract.Request) contract.Result {
		res, _ := s.Execute(ctx, req, nil)
		return res
	})
}
