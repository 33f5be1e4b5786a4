package ipc

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// chownHelperEnv makes the test binary start a child whose socket
// directory cannot be handed to SocketOwner (it runs without CAP_CHOWN).
const chownHelperEnv = "WARDEN_IPC_CHOWN_HELPER"

// A socket directory go-plugin made for a child that never started (here
// handing it to the child's uid failed) is removed: go-plugin's Kill
// removes it only for a runner that started, so Start must.
func TestSocketDirRemovedWhenHandOverFails(t *testing.T) {
	if os.Getenv(chownHelperEnv) == "1" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := Start(ctx, ProcessConfig{Cmd: exec.Command("/bin/true"), SocketOwner: 12345, StartTimeout: 5 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "hand the socket dir") {
			t.Fatalf("Start = %v, want the socket dir hand-over to fail", err)
		}
		return
	}
	testutil.RequireRoot(t, "runs Start as uid 65534, where chown fails")
	dir := testutil.TempPublicDir(t)
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "ipc.test")
	copyExecutable(t, os.Args[0], bin)
	sockets := filepath.Join(dir, "sockets")
	if err := os.Mkdir(sockets, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sockets, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestSocketDirRemovedWhenHandOverFails$", "-test.v")
	cmd.Env = []string{chownHelperEnv + "=1", "TMPDIR=" + sockets}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper as uid 65534: %v\n%s", err, out)
	}
	left, err := os.ReadDir(sockets)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left behind: %s", filepath.Join(sockets, e.Name()))
	}
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// A child whose program cannot be started leaves no socket directory.
func TestSocketDirRemovedWhenTheChildCannotStart(t *testing.T) {
	sockets := t.TempDir()
	t.Setenv("TMPDIR", sockets)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Start(ctx, ProcessConfig{Cmd: exec.Command(filepath.Join(sockets, "no-such-program")), StartTimeout: 5 * time.Second})
	if err == nil {
		t.Fatal("Start of a missing program succeeded")
	}
	left, err := os.ReadDir(sockets)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left behind: %s", filepath.Join(sockets, e.Name()))
	}
}
