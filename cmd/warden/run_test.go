package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
// the cap the file is read (and then fails or runs on its merits). An
// endless file (/dev/zero) is refused the same way.
func TestRunCapsWhatItReads(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return 1"), 0o600)
	for _, c := range []struct {
		what string
		cap  int64
		args func(file string) []string
	}{
		{"the script", maxCodeFileBytes, func(f string) []string { return []string{f} }},
		{"--module", maxCodeFileBytes, func(f string) []string { return []string{"--module", "m=" + f, script} }},
		{"--input-file", maxInputFileBytes, func(f string) []string { return []string{"--input-file", f, script} }},
		{"--data", maxDataFileBytes, func(f string) []string { return []string{"--data", f, script} }},
	} {
		t.Run(strings.TrimLeft(c.what, "-"), func(t *testing.T) {
			over := sizedFile(t, dir, "over", c.cap+1)
			capMsg := "larger than the cap of " + strconv.FormatInt(c.cap, 10) + " bytes"
			for _, f := range []string{over, "/dev/zero"} {
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
	// The script on stdin too.
	code, _, errOut := runCLI(t, strings.Repeat(" ", int(maxCodeFileBytes)+1), "run", "--in-process", "-")
	if code != exitUsage || !strings.Contains(errOut, "the script on stdin is larger than the cap of "+strconv.FormatInt(maxCodeFileBytes, 10)) {
		t.Errorf("script on stdin over the cap: %d %q", code, errOut)
	}
}
