package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/wardenhq/warden/internal/runtimefiles"
	"github.com/wardenhq/warden/supervisor"
)

// cmdSetup puts the QuickJS module and the Intl data into the
// compilation cache directory, for a binary built without them (go
// install, go build: `make build` embeds both).
func cmdSetup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("warden setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: warden setup [--cache-dir DIR] [--tz ZIP] [--force]")
		fmt.Fprintln(stderr, "Fetches the pinned QuickJS module and CLDR packages with npm pack, checks their SHA-256, and stores the module and the generated Intl data in the compilation cache directory. Run it as the user the supervisor runs as.")
		fs.PrintDefaults()
	}
	cacheDir := fs.String("cache-dir", defaultCacheDir(), "the supervisor's compilation cache directory (its --cache-dir)")
	tz := fs.String("tz", "", "the tz database, a zip of TZif files (default: Go's $GOROOT/lib/time/zoneinfo.zip)")
	force := fs.Bool("force", false, "fetch again what is already there")
	singleValued(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := supervisor.Setup(ctx, supervisor.SetupConfig{CacheDir: *cacheDir, TZData: *tz, Force: *force, Progress: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "warden setup: %v\n", err)
		return exitFailed
	}
	fetched := "nothing: both were there"
	if len(res.Fetched) > 0 {
		fetched = strings.Join(res.Fetched, " and ")
	}
	fmt.Fprintf(stdout, "set up %s (fetched %s)\n  QuickJS module %s\n  Intl data      %s\n", res.CacheDir, fetched, res.WasmFile, res.IntlFile)
	return exitOK
}

// wasmFlag adds --wasm to a command that starts a supervisor or an
// engine.
func wasmFlag(fs *flag.FlagSet) *string {
	return fs.String("wasm", "", "the QuickJS wasm module's file, for a binary built without it (go install; or run `warden setup` once)")
}

// inProcessFiles are the module and Intl pack of the in-process engine,
// whose own cache lies beside the supervisor's: the --wasm file or the
// one `warden setup` put into the supervisor's cache, and the pack found
// there (both only read when the binary carries neither).
func inProcessFiles(cacheDir, wasm string) (wasmFile, intlPack string) {
	if cacheDir == "" {
		return wasm, ""
	}
	if wasm == "" {
		wasm = filepath.Join(cacheDir, runtimefiles.WasmFile())
	}
	if pack := filepath.Join(cacheDir, runtimefiles.IntlFile()); fileExists(pack) {
		intlPack = pack
	}
	return wasm, intlPack
}

func fileExists(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular()
}
