// Command warden-child is the lean Warden child: the process a supervisor
// starts for each execution, linking only what a child needs (the engine,
// the wire, the seccomp filter), none of the daemon or the CLI. `make
// build` appends it to bin/warden, whose supervisor starts children from
// it (internal/childimage); an embedder may build it and name it in
// supervisor.Config.Binary. It is not for hands: run by anything but a
// supervisor it says so and exits 2.
package main

import (
	"fmt"
	"os"

	"github.com/wardenhq/warden/child"
)

func main() {
	if !child.IsChild() {
		fmt.Fprintln(os.Stderr, "warden-child: this program is started by a Warden supervisor, not by hand")
		os.Exit(2)
	}
	os.Exit(child.Main())
}
