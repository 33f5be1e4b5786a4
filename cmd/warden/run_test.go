package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// sizedFile makes a file of n bytes (sparse: it reads as zeros).
func sizedFile(t *testing.T, dir, name string, n int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(n); err != nil {
		t.Fatal(err)
	}
	return p
}

// Every file `warden run` reads is capped: one byte over the cap fails
// before anything runs, with a message naming the file and the cap; at
// the cap the file is read (and then fails or runs on its merits).
func TestRunCapsWhatItReads(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return 1"), 0o600)
	for _, c := range []struct {
		what string
		cap  int64
		args func(file string) []string
	}{
		{"--module", maxCodeFileBytes, func(f string) []string { return []string{"--module", "m=" + f, script} }},
		{"--input-file", maxInputFileBytes, func(f string) []string { return []string{"--input-file", f, script} }},
		{"--data", maxDataFileBytes, func(f string) []string { return []string{"--data", f, script} }},
	} {
		t.Run(strings.TrimLeft(c.what, "-"), func(t *testing.T) {
			over := sizedFile(t, dir, "over", c.cap+1)
			capMsg := "larger than the cap of " + strconv.FormatInt(c.cap, 10) + " bytes"
			for _, f := range []string{over} {
				code, out, errOut := runCLI(t, "", append([]string{"run", "--in-process"}, c.args(f)...)...)
				if code != exitUsage || out != "" || !strings.Contains(errOut, c.what+" "+f) || !strings.Contains(errOut, capMsg) {
					t.Errorf("%s of %s: want exit 2 and a message naming %q and %q; got %d, %q, %q", c.what, f, c.what+" "+f, capMsg, code, out, errOut)
				}
			}
			// At the cap the file passes the cap (zeros are neither valid
			// JSON nor a script that runs, so it fails later, otherwise).
			at := sizedFile(t, dir, "at", c.cap)
			_, _, errOut := runCLI(t, "", append([]string{"run", "--in-process"}, c.args(at)...)...)
			if strings.Contains(errOut, "cap") {
				t.Errorf("%s at the cap was refused: %q", c.what, errOut)
			}
		})
	}
}

// A script over the largest code the caps allow ends as every other
// over-limit input does: the contract's envelope, ResourceError kind
// code, exit 1 (it was a usage error with no envelope), from a file or
// from stdin, and nothing runs. At the cap it is read and runs.
func TestRunScriptOverTheCodeCapIsAnEnvelope(t *testing.T) {
	dir := t.TempDir()
	over := filepath.Join(dir, "over.js")
	os.WriteFile(over, []byte(strings.Repeat(" ", int(maxCodeFileBytes))+"return 1"), 0o600)
	for name, c := range map[string]struct{ stdin, file string }{"file": {"", over}, "stdin": {strings.Repeat(" ", int(maxCodeFileBytes)+1), "-"}} {
		code, out, errOut := runCLI(t, c.stdin, "run", "--in-process", c.file)
		var res contract.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitFailed ||
			res.Error == nil || res.Error.Type != contract.ResourceError || res.Error.Kind != contract.KindCode {
			t.Errorf("%s over the code cap: exit %d, %q %q; want exit 1 and ResourceError kind code", name, code, out, errOut)
		}
	}
	at := filepath.Join(dir, "at.js")
	os.WriteFile(at, []byte("return 1"+strings.Repeat(" ", int(maxCodeFileBytes)-8)), 0o600)
	code, out, _ := runCLI(t, "", "run", "--in-process", "--timeout", "5s", at)
	if !strings.Contains(out, `"kind":"code"`) || code != exitFailed {
		// At the cap the engine's own check speaks (the default
		// code_bytes limit is below the cap): the same envelope.
		t.Errorf("a script at the cap: exit %d, %q", code, out)
	}
}

// Flags may follow the script, as in most CLIs; after "--" everything is
// a file.
func TestRunFlagsAfterTheScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return input.a + 1"), 0o600)
	code, out, errOut := runCLI(t, "", "run", script, "--in-process", "--input", `{"a":41}`)
	if code != exitOK || !strings.Contains(out, `"value":42`) {
		t.Fatalf("flags after the script: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "", "run", "--in-process", "--", script, "--input"); code != exitUsage || !strings.Contains(errOut, "exactly one script") {
		t.Errorf("after --, --input is a second file: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "run", "--in-process", script, script); code != exitUsage {
		t.Errorf("two scripts: exit %d, %q", code, errOut)
	}
}

// Every file the CLI reads must be a regular file, checked without
// blocking: a named pipe with no writer blocked `warden run` in open(2)
// for ever, and /dev/zero read up to the cap. Each is refused at once,
// with exit 2 and a message naming the flag and the file's type. The
// runs happen on a goroutine, so that a hang fails the test instead of
// hanging it.
func TestRunRefusesFilesThatAreNotRegular(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return 1"), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		args func(file string) []string
	}{
		{"the script", func(f string) []string { return []string{"run", "--in-process", f} }},
		{"--module", func(f string) []string { return []string{"run", "--in-process", "--module", "m=" + f, script} }},
		{"--input-file", func(f string) []string { return []string{"run", "--in-process", "--input-file", f, script} }},
		{"--data", func(f string) []string { return []string{"run", "--in-process", "--data", f, script} }},
		{"--token-file", func(f string) []string {
			return []string{"run", "--server", "http://127.0.0.1:1", "--token-file", f, script}
		}},
		{"the script", func(f string) []string { return []string{"bench", "-n", "1", f} }},
		{"config", func(f string) []string { return []string{"serve", "--config", f, "--print-config"} }},
	} {
		for _, f := range []struct{ path, kind string }{{fifo, "a named pipe"}, {"/dev/zero", "a character device"}, {dir, "a directory"}} {
			args := c.args(f.path)
			code, errOut := runCLIWithin(t, 10*time.Second, args...)
			if code != exitUsage || !strings.Contains(errOut, c.what) || !strings.Contains(errOut, "not a regular file ("+f.kind+")") {
				t.Errorf("%q: want exit 2 and a message naming %s and %q; got %d, %q", args, c.what, f.kind, code, errOut)
			}
		}
	}
	// A named pipe in a --corpus directory.
	os.Mkdir(filepath.Join(dir, "corpus"), 0o700)
	os.Mkdir(filepath.Join(dir, "corpus", "escape"), 0o700)
	if err := syscall.Mkfifo(filepath.Join(dir, "corpus", "escape", "x.js"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, errOut := runCLIWithin(t, 10*time.Second, "stress", "--corpus", filepath.Join(dir, "corpus"), "-n", "1")
	if code != exitUsage || !strings.Contains(errOut, "not a regular file (a named pipe)") {
		t.Errorf("stress --corpus with a named pipe: %d, %q", code, errOut)
	}
}

// runCLIWithin is runCLI that fails the test when the command has not
// returned within d (the goroutine is left behind: the test binary
// exits soon after).
func runCLIWithin(t *testing.T, d time.Duration, args ...string) (int, string) {
	t.Helper()
	type outcome struct {
		code   int
		stderr string
	}
	done := make(chan outcome, 1)
	go func() {
		var out, errb bytes.Buffer
		code := doMain(args, strings.NewReader(""), &out, &errb)
		done <- outcome{code, errb.String()}
	}()
	select {
	case o := <-done:
		return o.code, o.stderr
	case <-time.After(d):
		t.Fatalf("%q still running after %v: it blocked", args, d)
		return 0, ""
	}
}

// Sizes are parsed with overflow checks (contract.ParseSize): 2^64 bytes
// wrapped to 0 and ran with the 16 MiB default, 2^63 to a negative
// limit, 2^64+2^30 to 1 GiB. Each is refused, exit 2, saying so.
func TestRunRefusesSizesThatOverflow(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return 1"), 0o600)
	for _, v := range []string{"17179869184GiB", "8589934592GiB", "17179869185GiB", "18446744073709551616", "9223372036854775808B", "9007199254740992K"} {
		for _, f := range []string{"--memory", "--stack"} {
			code, out, errOut := runCLI(t, "", "run", "--in-process", f, v, script)
			if code != exitUsage || out != "" || !strings.Contains(errOut, f+": size \""+v+"\" is over the largest size") {
				t.Errorf("%s %s: want exit 2 and a refusal; got %d, %q, %q", f, v, code, out, errOut)
			}
		}
	}
	// The largest sizes that fit still parse (and are clamped to the cap,
	// as the contract does for every surface).
	code, out, errOut := runCLI(t, "", "run", "--in-process", "--memory", "8589934591GiB", script)
	if code != exitOK || !strings.Contains(out, `"clamped":["memory_bytes"]`) {
		t.Errorf("--memory 8589934591GiB: %d, %q, %q", code, out, errOut)
	}
}

// A single-valued flag given twice is a usage error (exit 2), in every
// command: the flag package kept the last value silently.
func TestRepeatedFlagIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return input"), 0o600)
	for _, args := range [][]string{
		{"run", "--in-process", "--input", "1", "--input", "2", script},
		{"run", "--in-process", "--memory", "32MiB", "--memory=64MiB", script},
		{"run", "--in-process", "--in-process", script},
		{"run", "--timeout", "1s", "--timeout", "2s", "--in-process", script},
		{"bench", "-n", "1", "-n", "2"},
		{"doctor", "--json", "--json"},
		{"serve", "--listen", "127.0.0.1:1", "--listen", "127.0.0.1:2", "--print-config"},
		{"serve", "--tokens", "a", "--tokens_file", "b", "--print-config"},
		{"stress", "-n", "1", "-n", "2"},
	} {
		code, errOut := runCLIWithin(t, 30*time.Second, args...)
		if code != exitUsage || !strings.Contains(errOut, "given twice") {
			t.Errorf("%q: want exit 2 and \"given twice\"; got %d, %q", args, code, errOut)
		}
	}
	// --module stays repeatable (each name once).
	mod := filepath.Join(dir, "m.js")
	os.WriteFile(mod, []byte("export default 1"), 0o600)
	code, out, errOut := runCLI(t, "", "run", "--in-process", "--module", "a="+mod, "--module", "b="+mod, script)
	if code != exitOK {
		t.Errorf("two --module flags: %d, %q, %q", code, out, errOut)
	}
}

// An in-process run makes its cache's missing parents searchable, as the
// supervisor does: it made them 0700, and the supervisor's cache beside
// it (the default /var/cache/warden/wazero) was then refused as not
// searchable by the children's uids, for every later supervised run.
func TestInProcessCacheParentsAreSearchable(t *testing.T) {
	base := t.TempDir()
	os.Chmod(base, 0o755)
	cache := filepath.Join(base, "var", "cache", "warden", "wazero")
	script := filepath.Join(base, "s.js")
	os.WriteFile(script, []byte("return 1"), 0o644)
	if code, out, errOut := runCLI(t, "", "run", "--in-process", "--cache-dir", cache, script); code != exitOK {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	for dir := filepath.Dir(cache); dir != base; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o011 != 0o011 {
			t.Errorf("%s is %v: children could not search it", dir, st.Mode().Perm())
		}
	}
	if st, err := os.Stat(cache + "-in-process"); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the in-process cache: %v %v, want a 0700 directory", st, err)
	}
}

// TestRunTimersFlag: --timers sets the timers limit the engine enforces,
// and the envelope reports it.
func TestRunTimersFlag(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("for (let i = 0; i < 3; i++) setTimeout(() => {}, 1000); return 1"), 0o600)
	code, out, errOut := runCLI(t, "", "run", "--in-process", "--timers", "2", script)
	if code != exitFailed || !strings.Contains(out, `"kind":"timers"`) || !strings.Contains(out, `"timers":2`) {
		t.Fatalf("--timers 2 with 3 timers: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", "run", "--in-process", "--timers", "3", script)
	if code != exitOK || !strings.Contains(out, `"value":1`) {
		t.Fatalf("--timers 3 with 3 timers: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "", "run", "--in-process", "--timers", "-1", script); code != exitUsage {
		t.Errorf("--timers -1: exit %d, %q", code, errOut)
	}
}
