package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Tag is the image's name and tag, what `make image` prints and what
// deploy/kubernetes references (TestManifests checks they agree). Bump
// it when a release changes what the image holds. It names no registry:
// whoever runs the image pushes it to theirs.
const Tag = "warden:0.1.0"

// Paths inside the image.
const (
	// BinaryPath is the daemon (the binary re-executes itself as the
	// children, so it is the only program the image needs: the QuickJS
	// module is embedded in it).
	BinaryPath = "/usr/bin/warden"
	// ListenPort is the port the image's default command serves on.
	ListenPort = "8080"
)

// User is the image's default user: root. The daemon needs root inside
// the container to give each child its own uid (setuid to a range no
// one else uses), to mount each child's private /proc and to write its
// children's cgroups. A non-root default would not just be weaker: in
// most runtimes' default seccomp profiles an unprivileged process may
// not create the user namespace a non-root supervisor starts children
// in, so nothing would run. `--user` overrides it, and `warden doctor`
// inside the container says which layers that costs.
const User = "0:0"

// Entrypoint and Cmd: the daemon, listening on every address of the
// container's network namespace (its default, loopback, would be
// unreachable from outside the container).
var (
	Entrypoint = []string{BinaryPath, "serve"}
	Cmd        = []string{"--listen", "0.0.0.0:" + ListenPort}
)

// Build makes the image of the static binary at binary on an empty
// base: one layer with the binary and the directories the
// daemon uses, and a config naming the entrypoint and user. Timestamps
// are zero, so the same binary gives the same image digest.
func Build(binary string) (v1.Image, error) {
	if err := checkStatic(binary); err != nil {
		return nil, err
	}
	bin, err := os.ReadFile(binary)
	if err != nil {
		return nil, fmt.Errorf("image: read the binary: %w", err)
	}
	layerTar, err := rootfs(bin)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("image: layer: %w", err)
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	if img, err = mutate.AppendLayers(img, layer); err != nil {
		return nil, fmt.Errorf("image: append the layer: %w", err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("image: config: %w", err)
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", runtime.GOARCH
	cf.Config.Entrypoint = Entrypoint
	cf.Config.Cmd = Cmd
	cf.Config.User = User
	cf.Config.WorkingDir = "/"
	cf.Config.Env = []string{"PATH=/usr/bin:/bin"}
	cf.Config.ExposedPorts = map[string]struct{}{ListenPort + "/tcp": {}}
	// SIGTERM drains: in-flight executions finish up to the drain
	// deadline. The runtime's stop timeout must be longer than it.
	cf.Config.StopSignal = "SIGTERM"
	cf.Config.Labels = map[string]string{
		"org.opencontainers.image.title":       "warden",
		"org.opencontainers.image.description": "warden serve: a sandbox for untrusted JavaScript (QuickJS in WebAssembly, one child process per execution)",
	}
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return nil, fmt.Errorf("image: set the config: %w", err)
	}
	return img, nil
}

// rootfs is the layer's tar: the binary, /tmp
// (sticky, for anything that wants a temporary file) and /var/cache/
// warden (root's, 0755: the supervisor's default compilation cache goes
// below it, and refuses a parent others may write).
func rootfs(bin []byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := []struct {
		name string
		mode int64
	}{{"tmp/", 0o1777}, {"usr/", 0o755}, {"usr/bin/", 0o755}, {"var/", 0o755}, {"var/cache/", 0o755}, {"var/cache/warden/", 0o755}}
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d.name, Mode: d.mode, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: BinaryPath[1:], Mode: 0o755, Size: int64(len(bin)), Format: tar.FormatPAX}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(bin); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("image: layer tar: %w", err)
	}
	return buf.Bytes(), nil
}

// checkStatic refuses a binary that needs a dynamic loader: on an empty
// base there is none (build with CGO_ENABLED=0, as `make build` does).
func checkStatic(binary string) error {
	f, err := elf.Open(binary)
	if err != nil {
		return fmt.Errorf("image: %s: %w", binary, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("image: %s is dynamically linked (it names a loader); build it with CGO_ENABLED=0", binary)
		}
	}
	return nil
}

// Write writes img as an OCI image layout in dir (replacing what is
// there), its manifest annotated with tag as its reference name, and the
// same layout as an OCI archive at dir+".tar" (what `podman load -i`
// takes).
func Write(dir string, img v1.Image, tag string) error {
	// Replace only what was an OCI layout (or nothing): a mistyped -out
	// must not remove someone's directory.
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		if _, err := os.Stat(filepath.Join(dir, "oci-layout")); err != nil {
			return fmt.Errorf("image: %s exists and is not an OCI image layout: not replacing it", dir)
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return fmt.Errorf("image: write the layout: %w", err)
	}
	if err := p.WriteImage(img); err != nil {
		return fmt.Errorf("image: write the image: %w", err)
	}
	// The index entry is written here rather than by AppendImage, which
	// also sets artifactType (meant for artifacts, not images) to the
	// config's media type.
	d, err := manifestDescriptor(img)
	if err != nil {
		return err
	}
	d.Annotations = map[string]string{"org.opencontainers.image.ref.name": tag}
	if err := p.AppendDescriptor(d); err != nil {
		return fmt.Errorf("image: write the index: %w", err)
	}
	return tarDir(dir, dir+".tar")
}

func manifestDescriptor(img v1.Image) (v1.Descriptor, error) {
	mt, err := img.MediaType()
	if err != nil {
		return v1.Descriptor{}, fmt.Errorf("image: %w", err)
	}
	size, err := img.Size()
	if err != nil {
		return v1.Descriptor{}, fmt.Errorf("image: %w", err)
	}
	d, err := img.Digest()
	if err != nil {
		return v1.Descriptor{}, fmt.Errorf("image: %w", err)
	}
	return v1.Descriptor{MediaType: mt, Size: size, Digest: d}, nil
}

// tarDir writes the files below dir into a tar at out, named relative
// to dir.
func tarDir(dir, out string) (err error) {
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("image: %w", err)
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	tw := tar.NewWriter(f)
	err = filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		h, err := tar.FileInfoHeader(fi, "")
		if err != nil {
			return err
		}
		h.Name = filepath.ToSlash(rel)
		if fi.IsDir() {
			h.Name += "/"
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			src, err := os.Open(path)
			if err != nil {
				return err
			}
			defer src.Close()
			_, err = io.Copy(tw, src)
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("image: archive the layout: %w", err)
	}
	return tw.Close()
}
