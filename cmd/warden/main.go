// Command warden runs untrusted JavaScript in the Warden sandbox.
//
//	warden run [flags] FILE.js|-   run one script in a child process, print one JSON envelope
//	warden bench [flags] [FILE.js] measure the supervisor against the in-process engine
//	warden doctor [--json]         list each layer of defence as active or missing
//	warden serve [--config FILE]   the daemon: HTTP API, tenants, metrics (docs/daemon.md)
//	warden setup [--cache-dir DIR] fetch the QuickJS module and the Intl data for a binary built without make
//	warden stress [flags]          run the attack corpus under load with faults, and audit for leaks
//	warden child                   the child process the supervisor re-executes (not for hands)
//
// Exit status: 0 the script succeeded, 1 it failed with a typed error (the
// envelope says which), 2 a usage or set-up error.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/wardenhq/warden/child"
)

func main() {
	// A child is this binary re-executed by the supervisor ("warden child",
	// recognised by go-plugin's cookie); it serves one execution and exits.
	child.RunIfChild()
	os.Exit(doMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: warden <command> [flags]

commands:
  run     run one script and print its JSON envelope
  bench   measure the supervisor (and the in-process engine) on a script
  doctor  list each layer of defence as active or missing, with why
  serve   run the daemon: the HTTP API over a supervisor (docs/daemon.md)
  stress  run the attack corpus mixed with benign traffic and faults, check every outcome, audit for leaks
  mcp     serve the run_javascript tool to an MCP client over stdio (docs/mcp.md)
  setup   fetch the QuickJS module and the Intl data into the cache (for a go install build)

run 'warden <command> -h' for the flags of a command
`

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

func doMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdin, stdout, stderr)
	case "bench":
		return cmdBench(args[1:], stdout, stderr)
	case "doctor":
		return cmdDoctor(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "stress":
		return cmdStress(args[1:], stdout, stderr)
	case "setup":
		return cmdSetup(args[1:], stdout, stderr)
	case "mcp":
		return cmdMCP(args[1:], stdin, stdout, stderr)
	case "child":
		// Only meaningful when started by a supervisor (RunIfChild above
		// serves before we get here).
		fmt.Fprintln(stderr, "warden child: this subcommand is started by the supervisor, not by hand")
		return exitUsage
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "warden: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}
