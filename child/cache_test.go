package child

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyCache: the child starts only on exactly the files the
// supervisor recorded, with their digests.
func TestVerifyCache(t *testing.T) {
	sum := func(b string) string { h := sha256.Sum256([]byte(b)); return hex.EncodeToString(h[:]) }
	want := map[string]string{filepath.Join("wazero-v0", "0123"): sum("code")}
	tests := []struct {
		name  string
		setup func(dir string)
		err   string // "" wants success
	}{
		{"as recorded", func(string) {}, ""},
		{"modified", func(d string) { os.WriteFile(filepath.Join(d, "wazero-v0", "0123"), []byte("c0de"), 0o644) }, "does not match"},
		{"planted", func(d string) { os.WriteFile(filepath.Join(d, "wazero-v0", "4567"), []byte("x"), 0o644) }, "not a file the supervisor recorded"},
		{"missing", func(d string) { os.Remove(filepath.Join(d, "wazero-v0", "0123")) }, "missing"},
		{"swapped for a symlink", func(d string) {
			p := filepath.Join(d, "wazero-v0", "0123")
			os.WriteFile(p+".real", []byte("code"), 0o644)
			os.Remove(p)
			os.Symlink(p+".real", p)
		}, "not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "wazero-v0"), 0o755)
			os.WriteFile(filepath.Join(dir, "wazero-v0", "0123"), []byte("code"), 0o644)
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
