package ipc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A child's stderr is untrusted bytes. go-plugin would parse each line as
// an hclog JSON record (with unchecked type assertions: {"@message":1}
// panics the supervisor) and re-log it at whatever level and with
// whatever message and attributes the line claims. So go-plugin never
// sees it (launcher.Stderr hands it a reader that only ends): the child's
// stderr is read here, cut into lines of at most stderrLineBytes, and
// logged under one fixed message and level, at most stderrLinesPerSecond
// (with a burst of stderrBurst) and stderrTotalBytes in a child's life;
// the other lines are dropped and counted in one closing record. Reading
// itself is throttled past stderrReadBurst bytes to stderrReadRate bytes
// a second, so a flooding child blocks on its own full pipe instead of
// keeping a supervisor thread busy; once the child has exited, what is
// left in the pipe is read at full speed, so its reap is not held up.
// Honest children write nothing to stderr.
const (
	stderrMessage        = "child stderr"
	stderrLevel          = slog.LevelWarn
	stderrLineBytes      = 2 << 10
	stderrLinesPerSecond = 10
	stderrBurst          = 20
	stderrTotalBytes     = 64 << 10
	stderrReadBurst      = 1 << 20
	stderrReadRate       = 64 << 10
)

// stderrLog logs the lines of one child's stderr.
type stderrLog struct {
	log *slog.Logger // nil: read and drop everything
	pid int

	// Token bucket of lines; refilled from last.
	tokens float64
	last   time.Time
	logged int // bytes of lines logged so far

	droppedLines, droppedBytes int64

	// tail keeps the child's last lines, logged or not, for the error of
	// a child that fails its start-up (startFailure).
	tail *stderrTail
}

// run reads r to its end (the child and everything that inherited its
// stderr are gone), then logs what it dropped, if anything. exited waits
// up to d and reports whether the child has exited (throttle).
func (s *stderrLog) run(r io.Reader, exited func(d time.Duration) bool) {
	br := bufio.NewReaderSize(&throttle{r: r, exited: exited, allowance: stderrReadBurst, last: time.Now()}, stderrLineBytes)
	s.tokens, s.last = stderrBurst, time.Now()
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			truncated := errors.Is(err, bufio.ErrBufferFull)
			s.line(line, truncated)
			if truncated {
				// Drop the rest of this line, whatever its length.
				n, rerr := skipLine(br)
				s.droppedBytes += n
				err = rerr
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	if s.log != nil && s.droppedLines+s.droppedBytes > 0 {
		s.log.Log(context.Background(), stderrLevel, stderrMessage, "pid", s.pid,
			"dropped_lines", s.droppedLines, "dropped_bytes", s.droppedBytes)
	}
}

// line logs one line (without its newline) if the rate and the total
// allow, and counts it as dropped otherwise.
func (s *stderrLog) line(b []byte, truncated bool) {
	if !truncated && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if s.tail != nil {
		s.tail.add(b)
	}
	now := time.Now()
	s.tokens = min(stderrBurst, s.tokens+now.Sub(s.last).Seconds()*stderrLinesPerSecond)
	s.last = now
	if s.log == nil || s.tokens < 1 || s.logged+len(b) > stderrTotalBytes {
		s.droppedLines++
		s.droppedBytes += int64(len(b))
		return
	}
	s.tokens--
	s.logged += len(b)
	attrs := []any{"pid", s.pid, "line", string(b)}
	if truncated {
		attrs = append(attrs, "truncated", true)
	}
	s.log.Log(context.Background(), stderrLevel, stderrMessage, attrs...)
}

// skipLine discards up to and including the next newline and returns how
// many bytes it dropped.
func skipLine(br *bufio.Reader) (int64, error) {
	var n int64
	for {
		b, err := br.ReadSlice('\n')
		n += int64(len(b))
		if !errors.Is(err, bufio.ErrBufferFull) {
			return n, err
		}
	}
}

// throttle reads at most stderrReadRate bytes a second after a burst,
// until exited says the child is gone.
type throttle struct {
	r         io.Reader
	exited    func(time.Duration) bool
	allowance float64
	last      time.Time
	free      bool // the child has exited: read the rest at full speed
}

func (t *throttle) Read(p []byte) (int, error) {
	for !t.free {
		now := time.Now()
		t.allowance = min(stderrReadBurst, t.allowance+now.Sub(t.last).Seconds()*stderrReadRate)
		t.last = now
		if t.allowance >= 1 {
			p = p[:min(len(p), int(t.allowance))]
			break
		}
		// Wait for 4 KiB of allowance, or for the child's exit.
		t.free = t.exited(time.Duration(float64(time.Second) * 4096 / stderrReadRate))
	}
	n, err := t.r.Read(p)
	t.allowance -= float64(n)
	return n, err
}

// endReader is what go-plugin reads as the child's stderr: nothing, and
// io.EOF once the real stderr has been read to its end. go-plugin waits
// for that EOF before it reaps the child, which keeps the real pipe open
// until stderrLog is done with it.
type endReader struct{ done <-chan struct{} }

func (r endReader) Read([]byte) (int, error) {
	<-r.done
	return 0, io.EOF
}

func (r endReader) Close() error { return nil }

// StderrBounds describes what the supervisor does with a child's stderr,
// for `warden doctor`.
func StderrBounds() string {
	return fmt.Sprintf("read as text under one fixed message, never parsed as log records: lines cut at %d KiB, at most %d lines/s (burst %d) and %d KiB per child, the rest dropped and counted; reading throttled to %d KiB/s past %d MiB",
		stderrLineBytes>>10, stderrLinesPerSecond, stderrBurst, stderrTotalBytes>>10, stderrReadRate>>10, stderrReadBurst>>20)
}

// stderrTail holds a child's last stderrTailLines lines, each cut at
// stderrTailLineBytes: what a child that fails its start-up said last
// (it logs its reason there before it exits).
type stderrTail struct {
	mu    sync.Mutex
	lines []string
}

const (
	stderrTailLines     = 4
	stderrTailLineBytes = 512
)

func (t *stderrTail) add(b []byte) {
	if len(b) > stderrTailLineBytes {
		b = b[:stderrTailLineBytes]
	}
	line := strings.ToValidUTF8(string(b), "?")
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	if len(t.lines) > stderrTailLines {
		t.lines = t.lines[len(t.lines)-stderrTailLines:]
	}
}

// String is the tail as one line, each line quoted (they are the
// child's bytes).
func (t *stderrTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	q := make([]string, len(t.lines))
	for i, l := range t.lines {
		q[i] = strconv.Quote(l)
	}
	return strings.Join(q, " ")
}
