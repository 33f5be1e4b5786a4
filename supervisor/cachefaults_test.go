//go:build wardenfaults

package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestChildCannotWriteCache: a child running as another uid, with the
// seccomp filter and rlimits off (so that only file permissions stand in
// its way), can neither plant a file in the compilation cache nor
// overwrite the compiled module every later child maps executable.
func TestChildCannotWriteCache(t *testing.T) {
	requireRoot(t)
	dir := publicTempDir(t)
	// The test binary lives in a 0700 build directory: give the child a
	// copy it can execute.
	bin := filepath.Join(dir, "child")
	src, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	s := newSup(t, func(c *Config) {
		c.Binary, c.ChildUID, c.ChildGID, c.CacheDir = bin, nobody, nobody, cache
		c.NoSeccomp, c.NoRlimits, c.PoolSize = true, true, 1
	})
	uid := faultRun(t, s, "uid", "")
	if !uid.OK || string(uid.Value) != `"65534"` {
		t.Fatalf("want the child to run as uid 65534, got %+v %s", uid.Error, uid.Value)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "wazero-*", "*"))
	if len(files) == 0 {
		t.Fatal("no compiled module in the cache")
	}
	before, _ := os.ReadFile(files[0])
	for _, target := range []string{
		filepath.Join(cache, "planted"),
		filepath.Join(filepath.Dir(files[0]), "planted"),
		files[0],
	} {
		res := faultRun(t, s, "write", target)
		if res.OK || res.Error == nil || !strings.Contains(res.Error.Message, "permission denied") {
			t.Errorf("write %s: want permission denied, got %+v %s", target, res.Error, res.Value)
		}
	}
	if after, _ := os.ReadFile(files[0]); string(after) != string(before) {
		t.Fatal("the compiled module changed")
	}
	for _, p := range []string{filepath.Join(cache, "planted"), filepath.Join(filepath.Dir(files[0]), "planted")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s exists", p)
		}
	}
}

func faultRun(t *testing.T, s *Supervisor, name, arg string) contract.Result {
	t.Helper()
	req := contract.Request{Code: "//fault:" + name + "\nreturn 0"}
	if arg != "" {
		req.Input = []byte(`"` + arg + `"`)
	}
	res, _ := s.Execute(context.Background(), req, nil)
	return res
}
