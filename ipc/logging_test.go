package ipc

import (
	"bytes"
	"context"
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

// countingHandler counts the records that reach it and the ones it would
// have to handle; slogWriter.Write is what calls it, after hclog has
// formatted the record as JSON and slogWriter has parsed it back.
type countingHandler struct {
	slog.Handler
	enabledCalls int
}

func (h *countingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	h.enabledCalls++
	return h.Handler.Enabled(ctx, l)
}

// TestSlogAdapterSkipsRoutineEnd: the error record go-plugin writes at the
// end of every child, which slogWriter turns into a debug record, is not
// formatted and parsed at all when slog drops debug records (once per
// execution, it cost supervisor CPU), and still reaches a debug logger.
func TestSlogAdapterSkipsRoutineEnd(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		ch := &countingHandler{Handler: slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level})}
		h := slogAdapter(slog.New(ch))
		before := ch.enabledCalls // slogAdapter's own level probes
		h.Error("plugin process exited", "plugin", "/bin/warden", "id", "42", "error", "signal: killed")
		h.Warn("plugin failed to exit gracefully")
		reached := ch.enabledCalls - before
		if level == slog.LevelDebug {
			if !strings.Contains(buf.String(), "level=DEBUG msg=\"plugin process exited\"") {
				t.Errorf("slog at debug: the routine end is missing:\n%s", buf.String())
			}
			continue
		}
		if reached != 0 || buf.Len() != 0 {
			t.Errorf("slog at %v: the routine end was formatted and handed to slog %d times:\n%s", level, reached, buf.String())
		}
	}
	// Other errors still get through.
	var buf bytes.Buffer
	h := slogAdapter(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})))
	h.Error("client", "error", "boom")
	if !strings.Contains(buf.String(), "level=ERROR msg=client") {
		t.Errorf("an error record is missing:\n%s", buf.String())
	}
}
