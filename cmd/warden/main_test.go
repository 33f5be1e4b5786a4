package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// The test binary is also the child `warden run` re-executes.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := doMain(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func envelope(t *testing.T, out string) contract.Result {
	t.Helper()
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("want exactly one JSON line on stdout, got %q", out)
	}
	var r contract.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("stdout is not an envelope: %v\n%s", err, out)
	}
	return r
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return input.a + input.b"), 0o600)
	data := filepath.Join(dir, "d.json")
	os.WriteFile(data, []byte(`{"n": 41}`), 0o600)
	mod := filepath.Join(dir, "m.js")
	os.WriteFile(mod, []byte("export const inc = x => x + 1"), 0o600)
	// t.TempDir's parents are 0700; children of another uid must search
	// the path to the cache.
	cache := "--cache-dir=" + cacheDir
	for _, mode := range []string{"supervised", "in-process"} {
		t.Run(mode, func(t *testing.T) {
			extra := []string{cache}
			if mode == "in-process" {
				extra = append(extra, "--in-process")
			}
			args := func(a ...string) []string { return append(append([]string{"run"}, extra...), a...) }
			code, out, _ := runCLI(t, "", args("--input", `{"a":1,"b":2}`, script)...)
			if r := envelope(t, out); code != exitOK || string(r.Value) != "3" {
				t.Fatalf("ok run: exit %d, %s", code, out)
			}
			code, out, _ = runCLI(t, "throw new TypeError('no')", args("-")...)
			if r := envelope(t, out); code != exitFailed || r.Error.Type != contract.UserCodeError {
				t.Fatalf("failing script: exit %d, %s", code, out)
			}
			code, out, _ = runCLI(t, "const {inc} = await import('m'); return inc(await host.request('n'))", args("--data", data, "--module", "m="+mod, "-")...)
			if r := envelope(t, out); code != exitOK || string(r.Value) != "42" {
				t.Fatalf("data and module: exit %d, %s", code, out)
			}
			code, out, _ = runCLI(t, "while (true) {}", args("--timeout", "100ms", "-")...)
			if r := envelope(t, out); code != exitFailed || r.Error.Type != contract.TimeoutError {
				t.Fatalf("timeout: exit %d, %s", code, out)
			}
		})
	}
	for _, bad := range [][]string{
		{"run"},
		{"run", "--input", "{nope", script},
		{"run", "/does/not/exist.js"},
		{"run", "--memory", "lots", script},
		{"run", "--module", "noequals", script},
		{"run", "--data", script, script},
		{"frobnicate"},
		{},
	} {
		code, out, errOut := runCLI(t, "", bad...)
		if code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%q: want exit 2, nothing on stdout and a message on stderr; got %d %q %q", bad, code, out, errOut)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "1024": 1024, "16MiB": 16 << 20, "512KiB": 512 << 10, "1G": 1 << 30, "64M": 64 << 20} {
		got, err := parseBytes(in)
		if err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"x", "-5", "0", "12TB"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) should fail", in)
		}
	}
}
