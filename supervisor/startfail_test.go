package supervisor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/ipc"
)

// A child that fails its start-up (here: it cannot read its cache, says
// so on stderr and exits 3, as child.Main does) must be reported with its
// own reason as a SandboxError, never only with go-plugin's
// "Unrecognized remote plugin message".
func TestChildStartFailureCarriesItsReason(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(testutil.TempPublicDir(t), "child.sh")
	// The compile child compiles; every other child fails.
	body := "#!/bin/sh\ncase \"$" + ipc.ChildConfigEnv + "\" in *'\"compile_only\":true'*) exec " + exe + " \"$@\";; esac\n" +
		"echo '{\"msg\":\"child start-up failed\",\"error\":\"open cache: permission denied\"}' >&2\nexit 3\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSup(t, func(c *Config) {
		c.Binary = script
		c.PoolSize = 1
		c.QueueTimeout = 2 * time.Second
	})
	_, err = s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if !errors.Is(err, contract.ErrCapacity) {
		t.Fatalf("want CapacityError (no child ever started), got %v", err)
	}
	msg := s.Stats().Pool.LastSpawnError
	t.Logf("last spawn error: %s", msg)
	for _, want := range []string{"SandboxError", "open cache: permission denied", "exit status 3"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the spawn error does not say %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "Unrecognized remote plugin message") {
		t.Errorf("the spawn error is go-plugin's: %s", msg)
	}
}

// The compile child is not bound by a StartTimeout shorter than it
// needs: a compile killed part-way starts over from nothing at the next
// spawn, so on a machine slower than the bound (the VM lane's emulated
// guests took over 10 s) the cache was never filled and no child ever
// started. Here the bound (1 ms) is below any process start.
func TestCompileChildOutlivesAShortStartTimeout(t *testing.T) {
	s := newSup(t, func(c *Config) {
		c.PoolSize = 1
		c.StartTimeout = time.Millisecond
		c.QueueTimeout = 3 * time.Second
	})
	s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if msg := s.Stats().Pool.LastSpawnError; strings.Contains(msg, "compile child did not fill") {
		t.Fatalf("the compile child was held to the 1ms StartTimeout: %s", msg)
	}
	if !s.Cache().Ready {
		t.Fatalf("the compile child has not filled the cache (last spawn error: %s)", s.Stats().Pool.LastSpawnError)
	}
}
