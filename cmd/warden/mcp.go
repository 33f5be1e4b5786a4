package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/internal/mcptool"
	"github.com/wardenhq/warden/supervisor"
)

// cmdMCP serves the run_javascript tool over stdio, the transport a
// desktop client starts a server with: the protocol on stdin and
// stdout, logs on stderr. Every call runs in a child of one supervisor,
// as `warden run` does.
func cmdMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("warden mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: warden mcp [--modules DIR] [--data F.json] [--max-text BYTES] [--cache-dir DIR] [--wasm FILE]")
		fs.PrintDefaults()
	}
	modulesDir := fs.String("modules", "", "a directory of host-approved modules the code may import by name (make modules writes one)")
	dataFile := fs.String("data", "", "a JSON object whose keys answer host.request(name, args) (default: no data source)")
	maxText := fs.Int("max-text", mcptool.DefaultMaxTextBytes, "cut the text a model reads of a result at this many bytes (the structured content is whole)")
	cacheDir := fs.String("cache-dir", defaultCacheDir(), "wazero compilation cache directory of the supervisor")
	wasm := wasmFlag(fs)
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
	cfg := mcptool.Config{MaxTextBytes: *maxText}
	if *dataFile != "" {
		var err error
		if cfg.Data, err = readDataFile(*dataFile); err != nil {
			fmt.Fprintf(stderr, "warden mcp: %v\n", err)
			return exitUsage
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sup, err := supervisor.New(supervisor.Config{CacheDir: *cacheDir, WasmFile: *wasm, ModulesDir: *modulesDir, PoolSize: 1,
		QueueTimeout: 30 * time.Second, Logger: warnLogger(stderr)})
	if err != nil {
		fmt.Fprintf(stderr, "warden mcp: %v\n", err)
		return exitFailed
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		sup.Close(cctx)
	}()
	for _, m := range sup.Modules() {
		cfg.Modules = append(cfg.Modules, m.Name)
	}
	cfg.Defaults, cfg.Caps = sup.Limits()
	server := mcp.NewServer(&mcp.Implementation{Name: "warden", Title: "Warden", Version: version()}, nil)
	if err := mcptool.Add(server, sup, cfg); err != nil {
		fmt.Fprintf(stderr, "warden mcp: %v\n", err)
		return exitFailed
	}
	transport := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	if err := server.Run(ctx, transport); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "warden mcp: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// nopWriteCloser is stdout for the transport, which closes its writer
// when the session ends; the process's stdout stays open.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// version is the module version this binary was built from ("devel"
// for a build of a checkout).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
