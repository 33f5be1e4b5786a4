// Command intl generates the engine's Intl data for `make intl-data`: it
// fetches the CLDR packages internal/intlgen pins with the ordinary npm
// client, checks each tarball's SHA-256, and writes the data
// (intlgen.Generate) into -out, replacing what is there. The directory
// is git-ignored; `make build` embeds it. Nothing fetched is kept.
//
// Usage: go run ./build/intl -out child/engine/intl/data [-tz ZIP]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"

	"github.com/wardenhq/warden/internal/intlgen"
)

func main() {
	out := flag.String("out", "", "directory to write the data to")
	tz := flag.String("tz", "", "the tz database as a zip of TZif files (default: Go's $GOROOT/lib/time/zoneinfo.zip)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: intl -out DIR [-tz ZIP]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *out, *tz); err != nil {
		fmt.Fprintln(os.Stderr, "intl:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out, tz string) error {
	if tz == "" {
		var err error
		if tz, err = intlgen.TZData(ctx); err != nil {
			return err
		}
	}
	// Beside out, so that the generated directory is renamed into place.
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp(filepath.Dir(out), ".intl-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	gen := filepath.Join(work, "out")
	if err := intlgen.Fetch(ctx, work, gen, tz, os.Stdout); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(gen, out); err != nil {
		return err
	}
	sup, _ := os.ReadFile(filepath.Join(out, "supplemental.json"))
	version := regexp.MustCompile(`"cldrVersion":"([^"]*)"`).FindSubmatch(sup)
	if version == nil {
		return fmt.Errorf("%s has no cldrVersion", filepath.Join(out, "supplemental.json"))
	}
	fmt.Printf("%s ok (CLDR %s)\n", out, version[1])
	return nil
}
