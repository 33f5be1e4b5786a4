package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"
)

// TestSingleValuedDefaults: wrapping the flags to refuse a repeat keeps
// PrintDefaults' defaults: none for a zero default (no "(default 0s)"
// after a usage that names the default that applies), the real one
// otherwise; and a repeated flag is refused.
func TestSingleValuedDefaults(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var out bytes.Buffer
	fs.SetOutput(&out)
	fs.Duration("timeout", 0, "wall-clock timeout (default 1s)")
	fs.Bool("quiet", false, "say less")
	fs.Int64("timers", 0, "timers (default 1000)")
	fs.String("dir", "/var/x", "a directory")
	singleValued(fs)
	fs.PrintDefaults()
	got := out.String()
	for _, bad := range []string{"(default 0s)", "(default false)", "(default 0)"} {
		if strings.Contains(got, bad) {
			t.Errorf("defaults print %q:\n%s", bad, got)
		}
	}
	if !strings.Contains(got, "(default /var/x)") {
		t.Errorf("the real default is gone:\n%s", got)
	}
	if err := fs.Parse([]string{"-timeout", "2s", "-timeout", "3s"}); err == nil {
		t.Error("a repeated flag was taken")
	}
	if d := fs.Lookup("timeout").Value.String(); d != (2 * time.Second).String() {
		t.Errorf("timeout %v, want the first value", d)
	}
}
