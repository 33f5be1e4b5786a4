package main

import (
	"archive/tar"
	"crypto/sha256"
	"debug/elf"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/layout"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestImage builds the image of a real static warden into a temporary
// directory and reads it back as an OCI layout: the config runs the
// daemon as root, the one layer holds the binary (byte for byte) and
// the directories the daemon uses with their modes, and nothing else
// (the supervisor's namespace probe starts the binary itself, so no
// /bin/true); the archive holds the same layout.
func TestImage(t *testing.T) {
	dir := t.TempDir()
	bin := testutil.BuildWarden(t, "../..", dir)
	img, err := Build(bin)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "image")
	if err := Write(out, img, Tag); err != nil {
		t.Fatal(err)
	}

	idx, err := layout.ImageIndexFromPath(out)
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Manifests) != 1 || im.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != Tag || im.Manifests[0].ArtifactType != "" {
		t.Fatalf("index: %+v", im.Manifests)
	}
	got, err := idx.Image(im.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := got.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	if !slices.Equal(c.Entrypoint, []string{"/usr/bin/warden", "serve"}) || !slices.Equal(c.Cmd, []string{"--listen", "0.0.0.0:8080"}) ||
		c.User != "0:0" || cf.OS != "linux" || cf.Architecture != runtime.GOARCH || c.StopSignal != "SIGTERM" {
		t.Errorf("config: %+v (os %s arch %s)", c, cf.OS, cf.Architecture)
	}
	if _, ok := c.ExposedPorts["8080/tcp"]; !ok {
		t.Errorf("exposed ports: %v", c.ExposedPorts)
	}

	layers, err := got.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers: %d, %v", len(layers), err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	want, _ := os.ReadFile(bin)
	entries := map[string]*tar.Header{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		entries[h.Name] = h
		if h.Name == "usr/bin/warden" {
			b, _ := io.ReadAll(tr)
			if sha256.Sum256(b) != sha256.Sum256(want) {
				t.Errorf("usr/bin/warden is not the binary built (%d bytes, want %d)", len(b), len(want))
			}
		}
	}
	for name, want := range map[string]struct {
		typ  byte
		mode int64
		link string
	}{
		"usr/bin/warden":    {tar.TypeReg, 0o755, ""},
		"tmp/":              {tar.TypeDir, 0o1777, ""},
		"var/cache/warden/": {tar.TypeDir, 0o755, ""},
	} {
		h := entries[name]
		if h == nil || h.Typeflag != want.typ || h.Mode != want.mode || h.Linkname != want.link || h.Uid != 0 || !h.ModTime.IsZero() && h.ModTime.Unix() != 0 {
			t.Errorf("%s: %+v, want type %c mode %o link %q, root's, no time", name, h, want.typ, want.mode, want.link)
		}
	}
	if want := []string{"tmp/", "usr/", "usr/bin/", "usr/bin/warden", "var/", "var/cache/", "var/cache/warden/"}; !slices.Equal(slices.Sorted(maps.Keys(entries)), want) {
		t.Errorf("the layer holds %v, want %v", slices.Sorted(maps.Keys(entries)), want)
	}

	// The archive is the same layout.
	f, err := os.Open(out + ".tar")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := []string{}
	tr = tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		names = append(names, h.Name)
	}
	if !slices.Contains(names, "index.json") || !slices.Contains(names, "oci-layout") || !slices.Contains(names, "blobs/sha256/"+strings.TrimPrefix(im.Manifests[0].Digest.String(), "sha256:")) {
		t.Errorf("archive: %v", names)
	}

	// Writing again replaces the layout; a directory that is not one is
	// refused, untouched.
	if err := Write(out, img, Tag); err != nil {
		t.Errorf("rewrite: %v", err)
	}
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "keep"), []byte("x"), 0o644)
	if err := Write(other, img, Tag); err == nil {
		t.Error("Write replaced a directory that is not an OCI layout")
	}
	if _, err := os.Stat(filepath.Join(other, "keep")); err != nil {
		t.Errorf("the refused directory lost its file: %v", err)
	}

	// The same binary gives the same image.
	again, err := Build(bin)
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := img.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Errorf("two builds of one binary: %s and %s", d1, d2)
	}
}

// An empty base has no dynamic loader: a binary that needs one is
// refused before anything is written.
func TestImageRefusesDynamicBinaries(t *testing.T) {
	exe, err := exec.LookPath("ls")
	if err != nil {
		t.Skipf("no ls to use as a dynamic binary: %v", err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skipf("%s is not ELF: %v", exe, err)
	}
	dynamic := slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP })
	f.Close()
	if !dynamic {
		t.Skipf("%s is static on this machine: no dynamic binary to try", exe)
	}
	if _, err := Build(exe); err == nil || !strings.Contains(err.Error(), "dynamically linked") {
		t.Errorf("Build(%s): %v", exe, err)
	}
	if _, err := Build(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Build of a missing file passed")
	}
}

// TestImageReadBySkopeo has skopeo (the containers/image library podman
// loads images with) read the layout by its tag and the archive, when
// it is installed (Debian's skopeo package).
func TestImageReadBySkopeo(t *testing.T) {
	testutil.RequireCmd(t, "skopeo")
	dir := t.TempDir()
	img, err := Build(testutil.BuildWarden(t, "../..", dir))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "image")
	if err := Write(out, img, Tag); err != nil {
		t.Fatal(err)
	}
	want, _ := img.Digest()
	for _, ref := range []string{"oci:" + out + ":" + Tag, "oci-archive:" + out + ".tar"} {
		b, err := exec.Command("skopeo", "inspect", ref).Output()
		var got struct{ Digest string }
		if err != nil || json.Unmarshal(b, &got) != nil || got.Digest != want.String() {
			t.Errorf("skopeo inspect %s: %v\n%s", ref, err, b)
		}
	}
}
