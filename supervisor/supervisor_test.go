package supervisor

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
)

// The test binary is its own child: re-executed by the supervisor with
// go-plugin's cookie, it serves one execution instead of running tests.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(m.Run())
}

var cacheDir = func() string {
	d, err := os.MkdirTemp("", "warden-sup-cache")
	if err != nil {
		panic(err)
	}
	return d
}()

func newSup(t testing.TB, mod func(*Config)) *Supervisor {
	t.Helper()
	cfg := Config{CacheDir: cacheDir, PoolSize: 2}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

func TestExecuteBasic(t *testing.T) {
	s := newSup(t, nil)
	res, err := s.Execute(context.Background(), contract.Request{Code: "console.log('hi'); return input.a + input.b", Input: json.RawMessage(`{"a":1,"b":2}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Value) != "3" || len(res.Logs) != 1 || res.Stats.ChildPID == 0 || res.Stats.ChildCPUMS == 0 {
		t.Fatalf("unexpected %+v", res)
	}
	t.Logf("stats %+v", res.Stats)
}
