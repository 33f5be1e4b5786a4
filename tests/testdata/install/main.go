// Command scratch is a program that embeds Warden as a user's does,
// built by TestInstallWithoutMake in a scratch module outside the
// repository, with plain `go build`: no make, so no embedded QuickJS
// module or Intl data. It runs the code of its argument and prints the
// envelope, or New's error as {"new_error": ..., "no_wasm": ...}.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

func main() {
	child.RunIfChild()
	os.Exit(run())
}

func run() int {
	cacheDir := flag.String("cache-dir", "", "compilation cache directory")
	wasm := flag.String("wasm", "", "the QuickJS module's file")
	flag.Parse()
	sup, err := supervisor.New(supervisor.Config{PoolSize: 1, CacheDir: *cacheDir, WasmFile: *wasm, QueueTimeout: time.Minute})
	if err != nil {
		json.NewEncoder(os.Stdout).Encode(map[string]any{"new_error": err.Error(), "no_wasm": errors.Is(err, supervisor.ErrNoWasm)})
		return 3
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		sup.Close(ctx)
	}()
	// A failed execution is an envelope too (err is its typed error).
	res, err := sup.Execute(context.Background(), contract.Request{Code: flag.Arg(0)}, nil)
	if err != nil && res.Error == nil {
		json.NewEncoder(os.Stdout).Encode(map[string]any{"execute_error": err.Error()})
		return 4
	}
	json.NewEncoder(os.Stdout).Encode(res)
	return 0
}
