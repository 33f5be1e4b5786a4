package ipc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSocketDirOnTmpfs: without TMPDIR, on a machine whose temporary
// directory is on disk, a child's socket directory is made on the tmpfs
// at /dev/shm (a mkdir and removal per execution on ext4 cost the
// supervisor ~0.2 ms of CPU), and is removed when the child is killed.
func TestSocketDirOnTmpfs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Setenv("TMPDIR", "") // unset, for os.TempDir and socketBase
	if isTmpfs(os.TempDir()) {
		t.Skipf("%s is a tmpfs here: socket directories stay in it", os.TempDir())
	}
	if !isTmpfs(shmDir) {
		t.Skipf("no tmpfs at %s here", shmDir)
	}
	p := startHelper(t)
	p.client.wire.mu.Lock()
	dir := p.client.wire.socketDir
	p.client.wire.mu.Unlock()
	if filepath.Dir(filepath.Clean(dir)) != shmDir || !isTmpfs(dir) {
		t.Errorf("the child's socket directory is %s, want one in %s", dir, shmDir)
	}
	p.Kill()
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("socket directory %s left after Kill (Lstat: %v)", dir, err)
	}
}

// TestSocketDirHonoursTMPDIR: a TMPDIR the operator set is where the
// socket directories go, tmpfs or not.
func TestSocketDirHonoursTMPDIR(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	if got := socketBase(); got != "" {
		t.Errorf("socketBase() = %q with TMPDIR set, want go-plugin's default (TMPDIR)", got)
	}
}
