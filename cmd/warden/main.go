// Command warden runs untrusted JavaScript in the Warden sandbox.
//
//	warden run [flags] FILE.js|-   run one script, print one JSON envelope
//
// Exit status: 0 the script succeeded, 1 it failed with a typed error (the
// envelope says which), 2 a usage or set-up error.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(doMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: warden <command> [flags]

commands:
  run     run one script and print its JSON envelope

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
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "warden: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}
