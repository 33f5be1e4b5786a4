package intlgen

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/wardenhq/warden/internal/npmpack"
)

// packagesText pins the CLDR packages: "SHA256  name@version" lines (the
// CLDR version Node 20's ICU ships, so that the output is Node's).
//
//go:embed packages.sha256
var packagesText string

// generatorSource is this package's own generating code with its pins:
// what the data depends on besides the packages' bytes (Key).
//
//go:embed generate.go regions.go sections.go packages.sha256
var generatorSource embed.FS

// Package is one pinned npm package.
type Package struct {
	Spec   string // name@version
	SHA256 string
}

// Name is the package's name without its version.
func (p Package) Name() string {
	name, _, _ := strings.Cut(strings.TrimPrefix(p.Spec, "@"), "@")
	if strings.HasPrefix(p.Spec, "@") {
		name = "@" + name
	}
	return name
}

// Packages are the pinned CLDR packages.
func Packages() []Package {
	var out []Package
	for _, line := range strings.Split(packagesText, "\n") {
		if sum, spec, ok := strings.Cut(strings.TrimSpace(line), "  "); ok {
			out = append(out, Package{Spec: strings.TrimSpace(spec), SHA256: sum})
		}
	}
	return out
}

// Key names the data this build generates: the SHA-256, in hex, of the
// generating code and the pins. A pack written by a build of another key
// is not this build's data (the formatters would read fields it may not
// have), so its file name holds the key.
func Key() string {
	h := sha256.New()
	names, _ := fs.Glob(generatorSource, "*")
	sort.Strings(names)
	for _, name := range names {
		b, _ := generatorSource.ReadFile(name)
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Fetch fetches every pinned package with npm pack into work (a scratch
// directory), checks each tarball's SHA-256, and generates the data into
// out from them and tz (Generate). progress, when not nil, gets a line
// per package.
func Fetch(ctx context.Context, work, out, tz string, progress io.Writer) error {
	if progress == nil {
		progress = io.Discard
	}
	src := filepath.Join(work, "src")
	for _, p := range Packages() {
		fmt.Fprintf(progress, "fetching %s with npm pack\n", p.Spec)
		tarball, err := npmpack.Fetch(ctx, p.Spec, p.SHA256, work)
		if err != nil {
			return fmt.Errorf("intlgen: %w", err)
		}
		if err := npmpack.Extract(tarball, filepath.Join(src, p.Name()), nil); err != nil {
			return fmt.Errorf("intlgen: %w", err)
		}
		os.Remove(tarball)
	}
	fmt.Fprintln(progress, "generating the Intl data")
	return Generate(src, out, tz)
}

// Pack writes the data directory dir (Generate's out) to w as one zip
// archive of stored (uncompressed) files, in name order: the engine maps
// it and reads each file where it lies (child/engine/intl, UsePack).
func Pack(dir string, w io.Writer) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("intlgen: pack: %w", err)
	}
	zw := zip.NewWriter(w)
	for _, e := range entries {
		if !e.Type().IsRegular() {
			return fmt.Errorf("intlgen: pack: %s is not a regular file", filepath.Join(dir, e.Name()))
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return fmt.Errorf("intlgen: pack: %w", err)
		}
		// No modification time: the same data makes the same pack.
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name(), Method: zip.Store})
		if err != nil {
			return fmt.Errorf("intlgen: pack: %w", err)
		}
		if _, err := fw.Write(b); err != nil {
			return fmt.Errorf("intlgen: pack: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("intlgen: pack: %w", err)
	}
	return nil
}

// TZData finds the tz database Generate reads: Go's own
// ($GOROOT/lib/time/zoneinfo.zip, what time/tzdata embeds), from the go
// command on PATH, else from the GOROOT this binary was built with.
func TZData(ctx context.Context) (string, error) {
	var tried []string
	if goCmd, err := exec.LookPath("go"); err == nil {
		if out, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output(); err == nil {
			zip := filepath.Join(strings.TrimSpace(string(out)), "lib", "time", "zoneinfo.zip")
			if _, err := os.Stat(zip); err == nil {
				return zip, nil
			}
			tried = append(tried, zip)
		}
	} else {
		tried = append(tried, "the go command (not on PATH)")
	}
	if root := runtime.GOROOT(); root != "" { //nolint:staticcheck // the build's GOROOT is a fallback, not the answer
		zip := filepath.Join(root, "lib", "time", "zoneinfo.zip")
		if _, err := os.Stat(zip); err == nil {
			return zip, nil
		}
		tried = append(tried, zip)
	}
	return "", fmt.Errorf("intlgen: no tz database (Go's lib/time/zoneinfo.zip) found; tried %s: install Go, or name a zoneinfo.zip", strings.Join(tried, ", "))
}
