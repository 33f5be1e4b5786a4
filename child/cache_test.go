package child

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/child/engine"
)

// TestVerifyCache: the child starts only on exactly the files the
// supervisor recorded, with their digests.
func TestVerifyCache(t *testing.T) {
	sum := func(b string) string { h := sha256.Sum256([]byte(b)); return hex.EncodeToString(h[:]) }
	// Entries live under the build's own subdirectory; another build's
	// (recorded or not) are neither read nor refused.
	own := filepath.Join(engine.CacheFlavour(), "wazero-v0")
	other := filepath.Join("other-build", "wazero-v0")
	want := map[string]string{filepath.Join(own, "0123"): sum("code"), filepath.Join(other, "89ab"): sum("theirs")}
	tests := []struct {
		name  string
		setup func(dir string)
		err   string // "" wants success
	}{
		{"as recorded", func(string) {}, ""},
		{"modified", func(d string) { os.WriteFile(filepath.Join(d, own, "0123"), []byte("c0de"), 0o644) }, "does not match"},
		{"planted", func(d string) { os.WriteFile(filepath.Join(d, own, "4567"), []byte("x"), 0o644) }, "not a file the supervisor recorded"},
		{"missing", func(d string) { os.Remove(filepath.Join(d, own, "0123")) }, "missing"},
		{"another build's entry changed", func(d string) { os.WriteFile(filepath.Join(d, other, "89ab"), []byte("changed"), 0o644) }, ""},
		{"another build's entry planted", func(d string) { os.WriteFile(filepath.Join(d, other, "cdef"), []byte("x"), 0o644) }, ""},
		{"this build's entries gone", func(d string) { os.RemoveAll(filepath.Join(d, engine.CacheFlavour())) }, "no such file"},
		{"swapped for a symlink", func(d string) {
			p := filepath.Join(d, own, "0123")
			os.WriteFile(p+".real", []byte("code"), 0o644)
			os.Remove(p)
			os.Symlink(p+".real", p)
		}, "not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{own, other} {
				os.MkdirAll(filepath.Join(dir, d), 0o755)
			}
			os.WriteFile(filepath.Join(dir, own, "0123"), []byte("code"), 0o644)
			os.WriteFile(filepath.Join(dir, other, "89ab"), []byte("theirs"), 0o644)
			tc.setup(dir)
			err := verifyCache(dir, want)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("refused a good cache: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("want an error saying %q, got %v", tc.err, err)
			}
		})
	}
}

// A supervisor whose compile child was another build recorded no entry
// this child could load: refused, with that said.
func TestVerifyCacheNoEntryOfThisBuild(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other-build", "wazero-v0")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "89ab"), []byte("theirs"), 0o644)
	h := sha256.Sum256([]byte("theirs"))
	err := verifyCache(dir, map[string]string{filepath.Join("other-build", "wazero-v0", "89ab"): hex.EncodeToString(h[:])})
	if err == nil || !strings.Contains(err.Error(), "no entry of this build") {
		t.Fatalf("want a refusal saying no entry of this build, got %v", err)
	}
}
