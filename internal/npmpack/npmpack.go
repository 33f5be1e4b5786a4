// Package npmpack fetches a pinned npm package with the ordinary npm
// client (`npm pack`, which honours the user's npm configuration: its
// registry, proxy and cache) and checks the tarball's SHA-256 before
// anything reads it. It is how the build and `warden setup` get the
// QuickJS module and the CLDR data without committing either.
package npmpack

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoNPM: the npm client is not on PATH.
var ErrNoNPM = errors.New("npmpack: the npm client is not on PATH (Debian: apt-get install npm)")

// MismatchError is a tarball whose SHA-256 is not the pinned one.
type MismatchError struct {
	Spec      string
	Got, Want string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("npmpack: %s has sha256 %s, want %s", e.Spec, e.Got, e.Want)
}

// Fetch runs `npm pack spec` in dir and returns the tarball's path once
// its SHA-256 is want. An empty want is for a caller that pins a file
// inside the tarball instead, and checks it before use.
func Fetch(ctx context.Context, spec, want, dir string) (string, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", ErrNoNPM
	}
	cmd := exec.CommandContext(ctx, npm, "pack", "--silent", spec)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npmpack: npm pack %s: %w: %s", spec, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return "", fmt.Errorf("npmpack: npm pack %s named no tarball", spec)
	}
	path := filepath.Join(dir, filepath.Base(lines[len(lines)-1]))
	got, err := fileSHA256(path)
	if err != nil {
		return "", fmt.Errorf("npmpack: %s: %w", spec, err)
	}
	if want != "" && got != want {
		return "", &MismatchError{Spec: spec, Got: got, Want: want}
	}
	return path, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Extract writes the regular files of a gzipped tarball under dir,
// keeping their paths (npm's all begin "package/"); keep, when not nil,
// picks the files by path. A path that would leave dir is an error.
func Extract(tarball, dir string, keep func(name string) bool) error {
	f, err := os.Open(tarball)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("npmpack: %s: %w", tarball, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("npmpack: %s: %w", tarball, err)
		}
		if h.Typeflag != tar.TypeReg || (keep != nil && !keep(h.Name)) {
			continue
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if !filepath.IsLocal(name) {
			return fmt.Errorf("npmpack: %s: %q leaves the directory", tarball, h.Name)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("npmpack: %s: %s: %w", tarball, h.Name, err)
		}
	}
}
