package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// The install path without make: what `go get` and `go install` build.
// A module's zip holds only committed files, so the test copies the
// checkout's files that git does not ignore (the generated QuickJS
// module, Intl data and their embedding Go files are ignored) and builds
// against that copy, with the go command alone.

// intlCode formats with Intl: what a binary without the data cannot do.
const intlCode = `return [new Intl.NumberFormat("de-DE", {style: "currency", currency: "EUR"}).format(1234.5),
	new Date(0).toLocaleString("en-US", {timeZone: "Asia/Tokyo"}),
	new Intl.DateTimeFormat("ja-JP", {dateStyle: "full"}).format(new Date(86400000))]`

// TestInstallWithoutMake builds a scratch module outside the repository
// that requires Warden (through a replace to a copy of the checkout), and
// the warden command from that copy, with plain `go build`. It checks
// that New fails with ErrNoWasm naming the three ways, that --wasm FILE
// runs code (Intl then throws, saying what to run), and that after
// `warden setup` the program runs Intl code as Node does.
func TestInstallWithoutMake(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds two programs and fetches the pinned npm packages (the full pass runs it)")
	}
	for _, cmd := range []string{"go", "git", "npm", "node"} {
		testutil.RequireCmd(t, cmd)
	}
	root := docsModuleRoot(t)
	wasm := filepath.Join(root, "child/engine/wasm/quickjs.wasm")
	if _, err := os.Stat(wasm); err != nil {
		t.Skipf("the QuickJS module is missing (%v): run make wasm", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	work := testutil.TempPublicDir(t)
	module := filepath.Join(work, "warden")
	copyUnignored(t, root, module)
	for _, generated := range []string{"child/engine/wasm_embedded.go", "child/engine/intl/data_embedded.go", "child/engine/wasm/quickjs.wasm"} {
		if _, err := os.Stat(filepath.Join(module, generated)); err == nil {
			t.Fatalf("%s is in the module's files: git must ignore it", generated)
		}
	}

	scratch := filepath.Join(work, "scratch")
	os.MkdirAll(scratch, 0o755)
	src, err := os.ReadFile("testdata/install/main.go")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	goMod := "module example.com/scratch\n\ngo 1.26\n\nrequire github.com/wardenhq/warden v0.0.0-00010101000000-000000000000\n\nreplace github.com/wardenhq/warden => " + module + "\n"
	for name, b := range map[string][]byte{"main.go": src, "go.mod": []byte(goMod), "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(scratch, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// No -modfile (make's patched wazero) and no workspace: the go
	// command alone, as an embedder runs it.
	env := append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	goCmd(ctx, t, scratch, env, "mod", "tidy")
	app := filepath.Join(work, "app")
	goCmd(ctx, t, scratch, env, "build", "-o", app, ".")
	warden := filepath.Join(work, "warden-bin")
	goCmd(ctx, t, module, env, "build", "-o", warden, "./cmd/warden")

	// Nothing set up: New says how to give the module.
	bare := filepath.Join(work, "cache-bare")
	out := runApp(ctx, t, app, 3, "-cache-dir", bare, "return 1")
	var refused struct {
		NewError string `json:"new_error"`
		NoWasm   bool   `json:"no_wasm"`
	}
	if err := json.Unmarshal(out, &refused); err != nil || !refused.NoWasm {
		t.Fatalf("want New's ErrNoWasm, got %s (%v)", out, err)
	}
	for _, way := range []string{"warden setup", "Config.WasmFile", "--wasm FILE", "make build"} {
		if !strings.Contains(refused.NewError, way) {
			t.Errorf("New's error does not name %q: %s", way, refused.NewError)
		}
	}

	// The module given as a file: code runs, Intl says what to run.
	given := filepath.Join(work, "cache-given")
	if res := envelope(t, runApp(ctx, t, app, 0, "-cache-dir", given, "-wasm", wasm, "return 6 * 7")); !res.OK || string(res.Value) != "42" {
		t.Fatalf("with --wasm: want 42, got %+v", res)
	}
	res := envelope(t, runApp(ctx, t, app, 0, "-cache-dir", given, "-wasm", wasm, intlCode))
	if res.OK || res.Error == nil || !strings.Contains(res.Error.Message, "warden setup") {
		t.Fatalf("Intl without its data: want an error naming warden setup, got %+v", res)
	}

	// warden setup, then the program runs Intl code as Node does.
	setUp := filepath.Join(work, "cache-setup")
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, warden, "setup", "--cache-dir", setUp)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("warden setup: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	t.Logf("warden setup: %s", stdout.Bytes())
	res = envelope(t, runApp(ctx, t, app, 0, "-cache-dir", setUp, intlCode))
	if want := nodeValue(ctx, t, intlCode); !res.OK || string(res.Value) != want {
		t.Fatalf("after warden setup: want Node's %s, got %+v", want, res)
	}
	// And the warden binary itself runs a script.
	script := filepath.Join(work, "intl.js")
	os.WriteFile(script, []byte(intlCode), 0o644)
	run, err := exec.CommandContext(ctx, warden, "run", "--cache-dir", setUp, script).Output()
	if err != nil {
		t.Fatalf("warden run after setup: %v\n%s", err, run)
	}
	if r := envelope(t, run); !r.OK || string(r.Value) != string(res.Value) {
		t.Fatalf("warden run after setup: want %s, got %s", res.Value, run)
	}
	// doctor says where this binary's children take both from.
	var report []struct {
		Layer  string `json:"layer"`
		Detail string `json:"detail"`
	}
	doctor, _ := exec.CommandContext(ctx, warden, "doctor", "--json", "--cache-dir", setUp).Output() // a layer missing here is not this test's
	if err := json.Unmarshal(doctor, &report); err != nil {
		t.Fatalf("warden doctor --json: %v: %s", err, doctor)
	}
	var cacheLine string
	for _, c := range report {
		if c.Layer == "5 compilation cache" {
			cacheLine = c.Detail
		}
	}
	if !strings.Contains(cacheLine, "QuickJS module from "+setUp) || !strings.Contains(cacheLine, "Intl data from "+setUp) {
		t.Errorf("doctor should say the module and the Intl data come from the set-up cache %s: %q", setUp, cacheLine)
	}
	// A second setup keeps what is there.
	again, err := exec.CommandContext(ctx, warden, "setup", "--cache-dir", setUp).Output()
	if err != nil || !strings.Contains(string(again), "fetched nothing") {
		t.Fatalf("a second warden setup: want it to fetch nothing, got %v: %s", err, again)
	}
}

// copyUnignored copies the files of the checkout at root that git does
// not ignore (tracked, or new and not ignored) to dst.
func copyUnignored(t *testing.T, root, dst string) {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot list the checkout's files with git (%v): not a git checkout?", err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dst, rel)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func goCmd(ctx context.Context, t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
}

// runApp runs the scratch program and returns its stdout, checking its
// exit status.
func runApp(ctx context.Context, t *testing.T, app string, wantExit int, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, app, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if got := cmd.ProcessState.ExitCode(); got != wantExit {
		t.Fatalf("%s %s: exit %d (%v), want %d\nstdout: %s\nstderr: %s", app, strings.Join(args, " "), got, err, wantExit, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

func envelope(t *testing.T, out []byte) contract.Result {
	t.Helper()
	var res contract.Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("not an envelope: %v\n%s", err, out)
	}
	return res
}

// nodeValue is what Node makes of a function body's return value, as
// compact JSON.
func nodeValue(ctx context.Context, t *testing.T, body string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "node", "-e", "process.stdout.write(JSON.stringify((function(){"+body+"})()))")
	cmd.Env = []string{"TZ=UTC"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	return string(out)
}
