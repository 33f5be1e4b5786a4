package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// A runaway the engine cannot stop is killed, and its envelope still
// says what the caller needs: the logs the child streamed before the
// runaway part, and the wall time the supervisor measured up to the
// kill. The supervisor serves the next execution.
func TestRunawayEnvelope(t *testing.T) {
	s := newSup(t, nil)
	const timeout = 300 * time.Millisecond
	for _, k := range runaways {
		if k.fault {
			continue // no logs before a Go-side fault; see TestRunawayFaultWallTime
		}
		t.Run(k.name, func(t *testing.T) {
			kills := s.Stats().Kills
			res, err := s.Execute(context.Background(), contract.Request{Code: k.code,
				Limits: contract.Limits{Timeout: timeout, MemoryBytes: 32 << 20}}, nil)
			if !errors.Is(err, contract.ErrTimeout) {
				t.Fatalf("want TimeoutError, got %v", err)
			}
			if len(res.Logs) != 1 || res.Logs[0] != (contract.LogEntry{Level: "log", Text: "before"}) {
				t.Errorf("logs %+v, want the one printed before the runaway part", res.Logs)
			}
			checkWall(t, res, timeout, s.cfg.KillGrace)
			t.Logf("killed by the supervisor: %t; wall %.1f ms", s.Stats().Kills > kills, res.Stats.WallMS)
			testutil.RequireGone(t, res.Stats.ChildPID, 2*time.Second)
		})
	}
	res, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if err != nil || string(res.Value) != "1" {
		t.Fatalf("after the runaways: %s, %v", res.Value, err)
	}
}

// checkWall checks that a timed-out envelope's wall time is the
// execution's, not zero: at least the timeout, and no later than the
// kill plus a generous allowance for a loaded machine.
func checkWall(t *testing.T, res contract.Result, timeout, grace time.Duration) {
	t.Helper()
	wall := time.Duration(res.Stats.WallMS * float64(time.Millisecond))
	if wall < timeout || wall > timeout+grace+time.Second {
		t.Errorf("wall_ms %.1f, want between the timeout (%v) and the kill", res.Stats.WallMS, timeout)
	}
}

// The supervisor's envelope keeps at most what the output limit allows
// of what a child streams, counted as the child counts its logs.
func TestRunawayLogsBounded(t *testing.T) {
	var l runawayLogs
	e := contract.LogEntry{Level: "log", Text: "0123456789"} // 35 bytes of JSON
	for i := 0; i < 10; i++ {
		l.add(&e)
	}
	l.add(&contract.LogEntry{Level: "log"}) // would fit, but the logs are cut before it
	kept, bytes := l.bounded(100)
	if len(kept) != 2 || bytes != 2*(35+1) || kept[0] != e {
		t.Fatalf("kept %+v (%d bytes), want 2 entries (72 bytes)", kept, bytes)
	}
	if b, _ := json.Marshal(kept); int64(len(b)) > 100 {
		t.Fatalf("the kept logs take %d bytes of JSON, over the limit", len(b))
	}
	if kept, bytes := (&runawayLogs{}).bounded(100); kept == nil || len(kept) != 0 || bytes != 0 {
		t.Fatal("no logs must be an empty array, not null")
	}
}
