// Command embed is Warden embedded in a Go program: it starts a
// supervisor, runs one script that asks the host for data, and prints
// the envelope as one JSON line. `go test ./examples/embed` builds and
// runs it.
//
// The program is also the child the supervisor starts: the supervisor
// re-executes this binary, and child.RunIfChild, first thing in main,
// makes that process serve its one execution and exit.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// code is the body of an async function of `input`.
const code = `
const users = await host.request("users", { active: true });
console.log("got", users.length, "users");
return users.map((u) => input.greeting + ", " + u.name);
`

func main() {
	child.RunIfChild() // this binary is also the child the supervisor re-executes
	cacheDir := flag.String("cache-dir", "", "compilation cache directory (default: supervisor.DefaultCacheDir)")
	flag.Parse()
	if err := run(*cacheDir); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

func run(cacheDir string) error {
	sup, err := supervisor.New(supervisor.Config{PoolSize: 1, CacheDir: cacheDir})
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		sup.Close(ctx)
	}()

	// The handler answers host.request(name, args) with JSON. It runs on
	// the supervisor's side, in this process; the execution's deadline
	// bounds it.
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		if name != "users" {
			return nil, fmt.Errorf("no data named %q", name)
		}
		return json.RawMessage(`[{"name": "ada"}, {"name": "grace"}]`), nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := contract.Request{Code: code, Input: json.RawMessage(`{"greeting": "hello"}`)}
	res, err := sup.Execute(ctx, req, handler)
	if errors.Is(err, contract.ErrTimeout) {
		fmt.Fprintln(os.Stderr, "embed: the script ran out of time")
	}
	// The envelope says what happened either way: value or error, logs, stats.
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		return err
	}
	return err
}
