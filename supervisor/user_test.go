package supervisor

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReachableBy(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: the permission checks are only used when the supervisor is root (uid", os.Geteuid(), ")")
	}
	base, err := os.MkdirTemp("", "warden-reach")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	os.Chmod(base, 0o755)
	open := filepath.Join(base, "open")
	closed := filepath.Join(base, "closed")
	os.Mkdir(open, 0o755)
	os.Mkdir(closed, 0o700)
	for _, d := range []string{open, closed} {
		os.WriteFile(filepath.Join(d, "bin"), []byte("#!/bin/true\n"), 0o755)
	}
	os.WriteFile(filepath.Join(open, "noexec"), nil, 0o644)
	tests := []struct {
		path string
		dir  bool
		want bool
	}{
		{filepath.Join(open, "bin"), false, true},
		{filepath.Join(open, "noexec"), false, false},
		{filepath.Join(closed, "bin"), false, false},
		{filepath.Join(open, "new", "cache"), true, true},
		{filepath.Join(closed, "cache"), true, false},
	}
	for _, tt := range tests {
		if got := reachableBy(tt.path, nobody, nobody, tt.dir); got != tt.want {
			t.Errorf("reachableBy(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
	if uid, _, note := chooseChildUser(filepath.Join(closed, "bin"), 0, 0); uid != -1 || note == "" {
		t.Errorf("an unreachable binary must keep root with a note, got uid %d %q", uid, note)
	}
	if uid, gid, _ := chooseChildUser(filepath.Join(open, "bin"), 0, 0); uid != nobody || gid != nobody {
		t.Errorf("a reachable binary runs children as nobody, got %d:%d", uid, gid)
	}
	if uid, _, _ := chooseChildUser(filepath.Join(open, "bin"), -1, 0); uid != -1 {
		t.Errorf("-1 keeps the supervisor's user, got %d", uid)
	}
}
