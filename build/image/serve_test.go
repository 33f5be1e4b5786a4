package main

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/wardenhq/warden/client"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestImageServes runs the image's file system the way a container
// runtime would, as far as this host allows without one: the layer
// unpacked into a directory made a mount point, /dev, /sys and a fresh
// /proc mounted in it, in a mount namespace of its own, and the config's
// entrypoint started chrooted there (with --listen on loopback instead
// of the config's 0.0.0.0). The daemon must become ready, run a script
// over HTTP, start children with every namespace (the supervisor's
// probe needs only the binary: the image has no /bin/true), and exit 0
// on SIGTERM. It shares the host's PID namespace so that SIGTERM goes
// to the daemon itself, not to an unshare --fork in between; a
// supervisor in a PID namespace of its own beside the host's is
// cgroup's TestNewTellsSupervisorsInOtherPIDNamespacesApart.
func TestImageServes(t *testing.T) {
	testutil.RequireRoot(t, "mount and chroot the image's file system")
	testutil.RequireCmd(t, "unshare")
	testutil.RequireCmd(t, "chroot")
	chroot, _ := exec.LookPath("chroot")
	mount, _ := exec.LookPath("mount")
	dir := testutil.TempPublicDir(t)
	img, err := Build(testutil.BuildWarden(t, "../..", dir))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "rootfs")
	unpack(t, img, root)
	for _, d := range []string{"proc", "dev", "sys", "etc/warden"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	const token = "image-test-token"
	os.WriteFile(filepath.Join(root, "etc/warden/tokens"), []byte("img "+testutil.TokenSHA256(token)+"\n"), 0o644)

	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	addr := testutil.FreeLoopbackAddr(t)
	argv := append(append([]string{}, cf.Config.Entrypoint...), "--listen", addr, "--tokens", "/etc/warden/tokens")
	setup := fmt.Sprintf("set -e; R=%q; M=%q; $M --bind \"$R\" \"$R\"; $M --rbind /dev \"$R/dev\"; $M --rbind /sys \"$R/sys\"; $M -t proc proc \"$R/proc\"; cd \"$R\"; exec %q \"$R\" %s",
		root, mount, chroot, strings.Join(argv, " "))
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c", setup)
	cmd.Env = append([]string{}, cf.Config.Env...)
	daemon := testutil.StartProcess(t, cmd)
	base := "http://" + addr
	testutil.WaitReady(t, base+"/readyz", daemon, 60*time.Second)

	c, err := client.New(base, client.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.Execute(ctx, contract.Request{Code: `console.log("in the image"); return sha256("x").length + input`, Input: json.RawMessage(`1`)}, nil)
	if err != nil || !res.OK || string(res.Value) != "65" || len(res.Logs) != 1 {
		t.Fatalf("a script in the image: %+v, %v", res, err)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	if exited, err := daemon.WaitExit(45 * time.Second); !exited {
		t.Error("the daemon did not exit within 45s of SIGTERM")
	} else if err != nil {
		t.Errorf("the daemon's exit after SIGTERM: %v", err)
	}
	// Every namespace for children: the supervisor's probe started the
	// binary in them.
	if strings.Contains(daemon.Logs.String(), "children get fewer namespaces") {
		t.Errorf("children got fewer namespaces in the image:\n%s", daemon.Logs)
	}
}

// unpack writes img's layers into dir.
func unpack(t *testing.T, img v1.Image, dir string) {
	t.Helper()
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, filepath.Clean("/"+h.Name))
			switch h.Typeflag {
			case tar.TypeDir:
				err = os.MkdirAll(p, 0o755)
				if err == nil {
					err = os.Chmod(p, os.FileMode(h.Mode&0o777)|modeBits(h.Mode))
				}
			case tar.TypeSymlink:
				err = os.Symlink(h.Linkname, p)
			case tar.TypeReg:
				var b []byte
				if b, err = io.ReadAll(tr); err == nil {
					err = os.WriteFile(p, b, os.FileMode(h.Mode&0o777))
				}
			default:
				err = fmt.Errorf("unexpected entry type %c", h.Typeflag)
			}
			if err != nil {
				t.Fatalf("unpack %s: %v", h.Name, err)
			}
		}
		rc.Close()
	}
}

// modeBits converts a tar header's sticky bit to Go's.
func modeBits(mode int64) os.FileMode {
	if mode&0o1000 != 0 {
		return os.ModeSticky
	}
	return 0
}
