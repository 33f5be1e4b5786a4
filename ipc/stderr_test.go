package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// capture is a slog.Handler that keeps every record, to check what a
// child's stderr turns into in the supervisor's log.
type capture struct {
	mu      sync.Mutex
	records []slog.Record
}

func (c *capture) Enabled(context.Context, slog.Level) bool { return true }
func (c *capture) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *capture) WithGroup(string) slog.Handler            { return c }
func (c *capture) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.records = append(c.records, r.Clone())
	return nil
}

// fromChild returns the records that carry the child's stderr: every
// record with an attribute holding child text.
func (c *capture) all() []slog.Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]slog.Record(nil), c.records...)
}

// size is the bytes of message and attribute values of r.
func size(r slog.Record) int {
	n := len(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		n += len(a.Key) + len(a.Value.String())
		return true
	})
	return n
}

// startLogged starts a helper child whose go-plugin and stderr logs go to
// a capturing handler.
func startLogged(t *testing.T) (*Process, *capture) {
	t.Helper()
	h := &capture{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, ProcessConfig{Cmd: helperCmd(t), StartTimeout: 30 * time.Second, Logger: slog.New(h)})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(p.Kill)
	return p, h
}

// segment is text a helper child writes to its stderr repeat times.
type segment struct {
	Text   string `json:"text"`
	Repeat int    `json:"repeat"`
}

func writeStderr(t *testing.T, p *Process, segments ...segment) {
	t.Helper()
	in, _ := json.Marshal(segments)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := p.Client().Execute(ctx, contract.Request{ID: "x", Code: "stderr", Input: in}, nil, nil)
	if err != nil || !res.OK {
		t.Fatalf("Execute: %v %+v", err, res.Error)
	}
}

// TestChildStderrIsNotParsed: go-plugin parses each stderr line of a
// child as an hclog JSON record with unchecked type assertions, so
// {"@message":1} panicked the supervisor. The child's lines must reach the
// log as text under a fixed message and level, whatever they claim.
func TestChildStderrIsNotParsed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p, h := startLogged(t)
	writeStderr(t, p, segment{`{"@message":1}` + "\n" + `{"@level":"error","@message":"forged","admin":true}` + "\n", 1})
	p.Kill() // the stderr reader has seen everything once the child is gone
	var lines []string
	for _, r := range h.all() {
		if strings.Contains(r.Message, "forged") {
			t.Errorf("a child's line became a record of its own: %v %q", r.Level, r.Message)
		}
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "admin" {
				t.Errorf("a child's line set attribute %q on record %q", a.Key, r.Message)
			}
			if a.Key == "line" {
				if r.Message != stderrMessage || r.Level != stderrLevel {
					t.Errorf("child line logged as %v %q, want %v %q", r.Level, r.Message, stderrLevel, stderrMessage)
				}
				lines = append(lines, a.Value.String())
			}
			return true
		})
	}
	want := []string{`{"@message":1}`, `{"@level":"error","@message":"forged","admin":true}`}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("child stderr lines logged: %q, want %q", lines, want)
	}
	// The supervisor still serves: a second child works.
	q := startHelper(t)
	if _, err := q.Client().Ping(context.Background()); err != nil {
		t.Fatalf("second child: %v", err)
	}
}

// TestChildStderrFloodIsBounded: a child that floods its stderr (long
// lines, many lines) costs the supervisor a bounded log volume, a bounded
// amount of reading (past a burst the child blocks on its own pipe) and
// no lasting memory, and its reap is not held up.
func TestChildStderrFloodIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	p, h := startLogged(t)
	before := heap()
	// 64 MiB of stderr: 32 MiB as 1 KiB lines, then 32 MiB in one line.
	in, _ := json.Marshal([]segment{{strings.Repeat("x", 1023) + "\n", 32 << 10}, {"y", 32 << 20}, {"\n", 1}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	_, err := p.Client().Execute(ctx, contract.Request{ID: "x", Code: "stderr", Input: in}, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a child writing 64 MiB to stderr finished (%v): it should block on its pipe", err)
	}
	killAt := time.Now()
	p.Kill()
	killed := time.Since(killAt)
	after := heap()
	var n, bytes int
	var read int64
	for _, r := range h.all() {
		n++
		bytes += size(r)
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "line":
				read += int64(len(a.Value.String()))
			case "dropped_bytes":
				read += a.Value.Int64()
			}
			return true
		})
	}
	t.Logf("in %v the supervisor read %d bytes of the child's stderr and logged %d records, %d bytes; heap %d -> %d; Kill took %v",
		killAt.Sub(start), read, n, bytes, before, after, killed)
	if bytes > stderrTotalBytes+64<<10 {
		t.Errorf("the log got %d bytes of a child's stderr, want at most ~%d", bytes, stderrTotalBytes)
	}
	// The burst, the rate for the time the child ran, and the pipe's
	// content (at most 1 MiB, the largest pipe an unprivileged process
	// can ask for) once it died.
	if limit := int64(stderrReadBurst + 4*stderrReadRate + 1<<20); read > limit {
		t.Errorf("the supervisor read %d bytes of stderr in %v, want at most %d", read, killAt.Sub(start), limit)
	}
	if after > before+16<<20 {
		t.Errorf("supervisor heap grew from %d to %d bytes", before, after)
	}
	if killed > 3*time.Second {
		t.Errorf("Kill took %v: the stderr reader held up the reap", killed)
	}
}

// TestChildStdoutFloodBlocks: after the handshake go-plugin drains a
// child's stdout for its whole life; past a burst that is throttled too,
// so a flooding child blocks on its pipe, and its reap is prompt.
func TestChildStdoutFloodBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p := startHelper(t)
	in, _ := json.Marshal([]segment{{strings.Repeat("x", 1023) + "\n", 64 << 10}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := p.Client().Execute(ctx, contract.Request{ID: "x", Code: "stdout", Input: in}, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a child writing 64 MiB to stdout finished (%v): it should block on its pipe", err)
	}
	start := time.Now()
	p.Kill()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Kill took %v: the stdout reader held up the reap", d)
	}
}
