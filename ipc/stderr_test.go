package ipc

import (
	"context"
	"encoding/json"
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
// lines, many lines) costs the supervisor a bounded log volume and no
// lasting memory.
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
	writeStderr(t, p, segment{strings.Repeat("x", 1023) + "\n", 32 << 10}, segment{"y", 32 << 20}, segment{"\n", 1})
	p.Kill()
	after := heap()
	var n, bytes int
	for _, r := range h.all() {
		n++
		bytes += size(r)
	}
	t.Logf("64 MiB of child stderr became %d records, %d bytes; heap %d -> %d", n, bytes, before, after)
	if bytes > stderrTotalBytes+64<<10 {
		t.Errorf("the log got %d bytes of a child's stderr, want at most ~%d", bytes, stderrTotalBytes)
	}
	if after > before+16<<20 {
		t.Errorf("supervisor heap grew from %d to %d bytes", before, after)
	}
}
