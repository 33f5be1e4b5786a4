package ipc

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// slogAdapter gives go-plugin the hclog.Logger it requires, writing JSON
// lines that are re-emitted through the caller's slog.Logger, on both
// ends (Start and Serve), so that no other package needs hclog. Only
// go-plugin's own records arrive here: a child's stderr never reaches
// go-plugin (stderr.go reads and logs it as text), so nothing a child
// writes can become a record of its own. (Guest code cannot write to
// stderr at all: the engine captures the module's fd_write.)
func slogAdapter(l *slog.Logger) hclog.Logger {
	// go-plugin logs several debug lines per child; formatting them as
	// JSON only for slog to drop them cost supervisor CPU on every spawn
	// (BENCHMARKS.md, "Behind the comments"), so hclog filters at the
	// lowest level slog will take.
	level := hclog.Error
	for _, lv := range []struct {
		slog  slog.Level
		hclog hclog.Level
	}{{slog.LevelWarn, hclog.Warn}, {slog.LevelInfo, hclog.Info}, {slog.LevelDebug, hclog.Debug}} {
		if l.Enabled(context.Background(), lv.slog) {
			level = lv.hclog
		}
	}
	opts := &hclog.LoggerOptions{
		Name:       "child",
		Output:     &slogWriter{l: l},
		JSONFormat: true,
		Level:      level,
	}
	if !l.Enabled(context.Background(), slog.LevelDebug) {
		// The end of every child is an error record to go-plugin, which
		// slogWriter turns into a debug one: dropped here, before hclog
		// formats it as JSON and slogWriter parses it back, on every
		// execution.
		opts.Exclude = func(_ hclog.Level, msg string, _ ...any) bool { return routineEnd(msg) }
	}
	return hclog.New(opts)
}

// routineEnd reports whether msg is one of go-plugin's records of a child
// ending, which every child does after its one execution.
func routineEnd(msg string) bool {
	return msg == "plugin process exited" || msg == "plugin failed to exit gracefully"
}

type slogWriter struct{ l *slog.Logger }

func (w *slogWriter) Write(b []byte) (int, error) {
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var rec map[string]any
		if json.Unmarshal(line, &rec) != nil {
			// hclog writes JSON; anything else would be a go-plugin bug.
			w.l.Debug("go-plugin output", "text", string(line))
			continue
		}
		level := slog.LevelInfo
		switch strings.ToLower(str(rec["@level"])) {
		case "trace", "debug":
			level = slog.LevelDebug
		case "warn":
			level = slog.LevelWarn
		case "error":
			level = slog.LevelError
		}
		msg := str(rec["@message"])
		if routineEnd(msg) {
			// Every child ends this way: the supervisor kills it after its
			// one execution. Not an error.
			level = slog.LevelDebug
		}
		attrs := make([]any, 0, 2*len(rec))
		for k, v := range rec {
			if !strings.HasPrefix(k, "@") {
				attrs = append(attrs, k, v)
			}
		}
		if mod := str(rec["@module"]); mod != "" {
			attrs = append(attrs, "module", mod)
		}
		w.l.Log(context.Background(), level, msg, attrs...)
	}
	return len(b), nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
