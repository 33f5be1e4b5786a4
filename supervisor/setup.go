package supervisor

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wardenhq/warden/internal/intlgen"
	"github.com/wardenhq/warden/internal/npmpack"
	"github.com/wardenhq/warden/internal/runtimefiles"
)

// SetupConfig configures Setup.
type SetupConfig struct {
	// CacheDir is the compilation cache directory the supervisor will use
	// (Config.CacheDir). Default: DefaultCacheDir.
	CacheDir string
	// TZData is the tz database the Intl data's time zones come from, a
	// zip of TZif files. Default: Go's own ($GOROOT/lib/time/zoneinfo.zip).
	TZData string
	// Force fetches again what is already there.
	Force bool
	// Progress, when not nil, gets a line per step.
	Progress io.Writer
}

// SetupResult says where Setup left the files, and what it fetched.
type SetupResult struct {
	CacheDir string
	// WasmFile and IntlFile are the absolute paths of the module and the
	// Intl data pack.
	WasmFile, IntlFile string
	// Fetched names what this run fetched ("QuickJS module", "Intl
	// data"); empty when both were there already.
	Fetched []string
}

// Setup puts the QuickJS module and the Intl data into the compilation
// cache directory, for a child binary built without them (a plain go
// build or go install; `make build` embeds both). It fetches the pinned
// packages with the ordinary npm client (npm pack, which follows the
// user's npm configuration), checks each tarball's SHA-256 against the
// pin compiled into this binary, generates the Intl data from the CLDR
// packages, and writes both under the cache's trust rules (New's: a
// directory of this uid, 0755, files 0644, nothing of another uid). Run
// it as the user the supervisor runs as. What is there already, and
// right, is kept unless Force.
func Setup(ctx context.Context, cfg SetupConfig) (SetupResult, error) {
	scfg := Config{CacheDir: cfg.CacheDir}
	if err := resolveCacheDir(&scfg, nil); err != nil {
		return SetupResult{}, err
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	res := SetupResult{
		CacheDir: scfg.CacheDir,
		WasmFile: filepath.Join(scfg.CacheDir, runtimefiles.WasmFile()),
		IntlFile: filepath.Join(scfg.CacheDir, runtimefiles.IntlFile()),
	}
	work, err := os.MkdirTemp("", "warden-setup-")
	if err != nil {
		return res, fmt.Errorf("supervisor: setup: %w", err)
	}
	defer os.RemoveAll(work)

	if b, err := os.ReadFile(res.WasmFile); cfg.Force || err != nil || runtimefiles.CheckWasm(b) != nil {
		fmt.Fprintf(progress, "fetching %s with npm pack\n", runtimefiles.WasmPackage)
		b, err := fetchWasm(ctx, work)
		if err == nil {
			err = writeCacheFile(res.WasmFile, b)
		}
		if err != nil {
			return res, fmt.Errorf("supervisor: setup: the QuickJS module: %w", err)
		}
		res.Fetched = append(res.Fetched, "QuickJS module")
	}
	fmt.Fprintf(progress, "QuickJS module: %s (sha256 %s)\n", res.WasmFile, runtimefiles.WasmSHA256)

	if cfg.Force || !isPack(res.IntlFile) {
		b, err := makeIntlPack(ctx, work, cfg.TZData, progress)
		if err == nil {
			err = writeCacheFile(res.IntlFile, b)
		}
		if err != nil {
			return res, fmt.Errorf("supervisor: setup: the Intl data: %w", err)
		}
		res.Fetched = append(res.Fetched, "Intl data")
	}
	fmt.Fprintf(progress, "Intl data: %s\n", res.IntlFile)
	return res, nil
}

// fetchWasm fetches the pinned module's package and returns the module.
func fetchWasm(ctx context.Context, work string) ([]byte, error) {
	// The pin is the module's own SHA-256 (the Makefile checks the same),
	// checked once it is out of the tarball.
	tarball, err := npmpack.Fetch(ctx, runtimefiles.WasmPackage, "", work)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(work, "wasm")
	if err := npmpack.Extract(tarball, dir, func(name string) bool { return name == runtimefiles.WasmPath }); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(runtimefiles.WasmPath)))
	if err != nil {
		return nil, fmt.Errorf("%s has no %s: %w", runtimefiles.WasmPackage, runtimefiles.WasmPath, err)
	}
	return b, runtimefiles.CheckWasm(b)
}

// makeIntlPack fetches the CLDR packages and returns the data's pack.
func makeIntlPack(ctx context.Context, work, tz string, progress io.Writer) ([]byte, error) {
	if tz == "" {
		var err error
		if tz, err = intlgen.TZData(ctx); err != nil {
			return nil, err
		}
	}
	out := filepath.Join(work, "intl")
	if err := intlgen.Fetch(ctx, work, out, tz, progress); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := intlgen.Pack(out, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// isPack reports whether path holds a readable pack (its digest is the
// children's to check, against the one New records).
func isPack(path string) bool {
	z, err := zip.OpenReader(path)
	if err != nil {
		return false
	}
	z.Close()
	return true
}
