//go:build wardenfaults

package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestChildCannotWriteCache: a child running as another uid, with the
// seccomp filter and rlimits off (so that only file permissions stand in
// its way), can neither plant a file in the compilation cache nor
// overwrite the compiled module every later child maps executable.
func TestChildCannotWriteCache(t *testing.T) {
	testutil.RequireRoot(t, "chown files to another uid")
	cache := filepath.Join(publicTempDir(t), "cache")
	s := newSup(t, func(c *Config) {
		c.CacheDir = cache
		c.NoSeccomp, c.NoRlimits, c.PoolSize = true, true, 1
	})
	uid := faultRun(t, s, "uid", "")
	if n, _ := strconv.Atoi(strings.Trim(string(uid.Value), `"`)); !uid.OK || n < DefaultChildUIDBase {
		t.Fatalf("want the child to run as a uid of the child range, got %+v %s", uid.Error, uid.Value)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*", "wazero-*", "*"))
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
