package ipc

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestSlogAdapterLevels: records reach slog at their own level, and hclog
// drops what slog would drop before formatting it.
func TestSlogAdapterLevels(t *testing.T) {
	for _, tc := range []struct {
		level      slog.Level
		wantDebug  bool
		wantWarn   bool
		wantOutput string
	}{
		{slog.LevelDebug, true, true, "level=DEBUG msg=dbg"},
		{slog.LevelInfo, false, true, "level=WARN msg=wrn"},
		{slog.LevelWarn, false, true, "level=WARN msg=wrn"},
		{slog.LevelError, false, false, ""},
	} {
		var buf bytes.Buffer
		l := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tc.level}))
		h := slogAdapter(l)
		if got := h.IsDebug(); got != tc.wantDebug {
			t.Errorf("slog at %v: hclog IsDebug = %t, want %t", tc.level, got, tc.wantDebug)
		}
		h.Debug("dbg", "k", 1)
		h.Warn("wrn", "k", 2)
		out := buf.String()
		if strings.Contains(out, "msg=dbg") != tc.wantDebug {
			t.Errorf("slog at %v: debug record present = %t, want %t:\n%s", tc.level, !tc.wantDebug, tc.wantDebug, out)
		}
		if strings.Contains(out, "msg=wrn") != tc.wantWarn {
			t.Errorf("slog at %v: warn record present = %t, want %t:\n%s", tc.level, !tc.wantWarn, tc.wantWarn, out)
		}
		if tc.wantOutput != "" && !strings.Contains(out, tc.wantOutput) {
			t.Errorf("slog at %v: output lacks %q:\n%s", tc.level, tc.wantOutput, out)
		}
	}
}
