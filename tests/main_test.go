package tests

import (
	"context"
	"os"
	"testing"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// The test binary is also the child: the supervisor re-executes it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

// newSupervisor makes a supervisor on the shared cache, closed when the
// test ends.
func newSupervisor(t *testing.T, mod func(*supervisor.Config)) *supervisor.Supervisor {
	t.Helper()
	cfg := supervisor.Config{CacheDir: cacheDir, PoolSize: 2, QueueTimeout: testutil.Timeout(), StartTimeout: testutil.Timeout()}
	if mod != nil {
		mod(&cfg)
	}
	s, err := supervisor.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	testutil.CloseAtEnd(t, s)
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

// newEngine is the in-process engine, as an embedder running it without
// a supervisor would: with CloseOnContextDone on, since nothing above it
// can kill a slow builtin. It is closed when the test ends.
func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.Config{CacheDir: t.TempDir(), CloseOnContextDone: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(ctx) })
	return eng
}

// requireServing fails the test unless s still runs a script: whatever
// one execution did, the supervisor keeps serving.
func requireServing(t *testing.T, s *supervisor.Supervisor) {
	t.Helper()
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatalf("the supervisor stopped serving: %v", err)
	}
}
