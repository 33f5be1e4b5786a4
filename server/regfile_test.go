package server

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The daemon's tokens file and configuration file must be regular
// files, checked without blocking: a named pipe with no writer blocked
// the daemon's start (or a reload) in open(2). Each returns at once with
// an error saying what the file is.
func TestFilesTheDaemonReadsMustBeRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func(string) error{
		"tokens_file": func(p string) error { _, err := readTokensFile(p); return err },
		"config":      func(p string) error { cfg := DefaultConfig(); return LoadConfigFile(p, &cfg) },
	} {
		for _, f := range []struct{ path, kind string }{{fifo, "a named pipe"}, {"/dev/zero", "a character device"}} {
			done := make(chan error, 1)
			go func() { done <- read(f.path) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "not a regular file ("+f.kind+")") {
					t.Errorf("%s %s: want a refusal naming %q, got %v", name, f.path, f.kind, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s: still reading after 10s: it blocked", name, f.path)
			}
		}
	}
}

// timeout_ms past what a duration holds is refused: converted, it
// wrapped (18446744073710 ms came out as a few milliseconds).
func TestConfigTimeoutThatWouldWrapIsRefused(t *testing.T) {
	for _, yaml := range []string{
		"supervisor:\n  caps:\n    timeout_ms: 18446744073710\n",
		"supervisor:\n  defaults:\n    timeout_ms: 9223372036854776\n",
		"tenants:\n  - name: a\n    caps:\n      timeout_ms: 9223372036854775807\n",
	} {
		cfg := DefaultConfig()
		if err := ParseConfig([]byte(yaml), &cfg); err != nil {
			t.Fatalf("%q: %v", yaml, err)
		}
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "over the largest timeout") {
			t.Errorf("%q: want the timeout refused, got %v", yaml, err)
		}
	}
	// Sizes over int64 are the YAML decoder's refusal.
	cfg := DefaultConfig()
	if err := ParseConfig([]byte("supervisor:\n  caps:\n    memory_bytes: 18446744073709551616\n"), &cfg); err == nil {
		t.Error("a memory_bytes over int64 was accepted")
	}
}
