package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRunOutputIsUTF8: `warden run` prints valid UTF-8 (RFC 8259 section
// 8.1) whatever lone surrogates the script makes, supervised, in process
// and through a daemon: JSON.rawJSON's in the value, in host.request
// arguments and from a module come out as escapes, a log's as U+FFFD.
func TestRunOutputIsUTF8(t *testing.T) {
	url, tokenFile := startDaemon(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "d.json")
	os.WriteFile(data, []byte(`{"k": "answer"}`), 0o600)
	mod := filepath.Join(dir, "m.js")
	os.WriteFile(mod, []byte(`export const v = JSON.rawJSON('"\udbff"');`), 0o600)
	code := `console.log("\ud800");
const a = await host.request("k", [JSON.rawJSON('"\ud800"')]);
return [JSON.rawJSON('"\ud800"'), {n: JSON.rawJSON('"\udc00"')}, (await import("m")).v, a]`
	const want = `"value":["\ud800",{"n":"\udc00"},"\udbff","answer"]`
	for mode, extra := range map[string][]string{
		"supervised": {"--cache-dir=" + cacheDir},
		"in-process": {"--cache-dir=" + cacheDir, "--in-process"},
		"server":     {"--server", url, "--token-file", tokenFile},
	} {
		t.Run(mode, func(t *testing.T) {
			args := append(append([]string{"run"}, extra...), "--data", data, "--module", "m="+mod, "-")
			status, out, errOut := runCLI(t, code, args...)
			if status != 0 || errOut != "" || !utf8.ValidString(out) {
				t.Fatalf("exit %d, UTF-8 %t, stdout %q, stderr %q", status, utf8.ValidString(out), out, errOut)
			}
			if !strings.Contains(out, want) || !strings.Contains(out, `"text":"\uFFFD"`) && !strings.Contains(out, "\"text\":\"\uFFFD\"") {
				t.Fatalf("stdout %s: want %s and the log as U+FFFD", out, want)
			}
		})
	}
}
