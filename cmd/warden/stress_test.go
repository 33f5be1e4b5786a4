package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/wardenhq/warden/attacks"
)

// TestStressFlagErrors: every flag value `warden stress` cannot use is a
// typed error, and so is a corpus that is missing or malformed.
func TestStressFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--mix", "attacks=30%,benign=60%"},
		{"--mix", "evil=10%"},
		{"--mix", "attacks=lots"},
		{"--faults", "kill-child,meteor"},
		{"--faults", "oom", "--fault-rate", "0"},
		{"-n", "10", "--duration", "1s"},
		{"-c", "0"},
		{"extra"},
	} {
		_, err := parseStressFlags(args, io.Discard)
		var fe *stressFlagError
		if !errors.As(err, &fe) {
			t.Errorf("%q: %v, want a *stressFlagError", args, err)
		}
	}
	if _, err := parseStressFlags([]string{"--corpus", filepath.Join(t.TempDir(), "missing")}, io.Discard); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing corpus: %v, want fs.ErrNotExist", err)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "escape"), 0o755)
	os.WriteFile(filepath.Join(dir, "escape", "x.js"), []byte("return 1\n"), 0o644)
	var he *attacks.HeaderError
	if _, err := parseStressFlags([]string{"--corpus", dir}, io.Discard); !errors.As(err, &he) {
		t.Errorf("corpus without headers: %v, want *attacks.HeaderError", err)
	}
	o, err := parseStressFlags([]string{"--mix", "benign=80%", "--faults", "all"}, io.Discard)
	if err != nil || o.cfg.AttackShare < 0.19 || o.cfg.AttackShare > 0.21 || len(o.cfg.Faults) == 0 || len(o.cfg.Scripts) < 150 {
		t.Errorf("good flags: %v, %+v", err, o.cfg)
	}
}
