package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/wardenhq/warden/contract"
)

// The side-by-side reference of `warden bench`: the same script run by
// a process spawned per execution, `node -e`, at the same concurrency.
// It is what a caller would do without Warden to get a fresh process
// per execution (with none of Warden's limits), so the ratio of
// throughputs says what Warden's isolation costs against that, measured
// in the same run on the same machine.

// referenceReport is the reference's row of the report.
type referenceReport struct {
	// Command is what ran per execution, with the script elided.
	Command  string `json:"command"`
	Version  string `json:"version"`
	Failures int    `json:"failures"`
	runStat
}

// referenceTimeout bounds one reference execution, so that a script
// node never finishes cannot hang the bench.
const referenceTimeout = 30 * time.Second

// benchReference measures o's script through `node -e` into rep, or
// says in rep.ReferenceNote why there is no reference.
func benchReference(ctx context.Context, o benchOptions, rep *benchReport) {
	node, err := exec.LookPath("node")
	if err != nil {
		rep.ReferenceNote = "no reference: node not found"
		return
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		rep.ReferenceNote = fmt.Sprintf("no reference: %s --version: %v", node, err)
		return
	}
	script := nodeScript(o.code, o.input)
	ref := &referenceReport{Command: node + " -e '<script>' (empty environment)", Version: strings.TrimSpace(string(out))}
	ref.runStat, ref.Failures = measure(o.n, o.conc, nil, func() bool {
		return runNode(ctx, node, script) == nil
	})
	rep.Reference = ref
	if ref.Throughput > 0 {
		rep.ReferenceRatio = rep.Supervised.Throughput / ref.Throughput
	}
}

// runNode runs script in a fresh node process with an empty
// environment, its output discarded; an error is a failed execution.
func runNode(ctx context.Context, node, script string) error {
	ctx, cancel := context.WithTimeout(ctx, referenceTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-e", script)
	cmd.Env = []string{}
	cmd.Stdout = io.Discard
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return errors.Join(err, errors.New(stderr.String()))
	}
	return nil
}

// nodeScript is the node program equivalent to a Warden execution of
// code with input: code is an async function's body that sees input, a
// host.request without a data handler (as `warden bench` runs it), and
// console; its value is written as JSON, and a throw fails the process.
func nodeScript(code, input string) string {
	noHandler, _ := json.Marshal(contract.ErrNoDataHandler.Error())
	return "const input = " + input + ";\n" +
		"globalThis.host = { request: async () => { throw new Error(" + string(noHandler) + ") } };\n" +
		"(async function (input) {\n" + code + "\n})(input).then(\n" +
		"  (v) => { process.stdout.write(JSON.stringify(v) ?? \"null\") },\n" +
		"  (e) => { console.error(String(e)); process.exitCode = 1 });\n"
}

// printReference says how Warden's throughput compares with the
// reference's, or why there is none.
func printReference(w io.Writer, r benchReport) {
	if r.Reference == nil {
		fmt.Fprintln(w, r.ReferenceNote)
		return
	}
	fmt.Fprintf(w, "reference: %s, %s, failures %d (not paced)\n", r.Reference.Command, r.Reference.Version, r.Reference.Failures)
	fmt.Fprintf(w, "throughput vs the reference: x%.2f (child process %.1f/s, node -e %.1f/s)\n",
		r.ReferenceRatio, r.Supervised.Throughput, r.Reference.Throughput)
}
