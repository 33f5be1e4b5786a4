//go:build linux

package cgroup

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// runIn runs sh -c script inside g and waits for it.
func runIn(t testing.TB, g *Group, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", "read go; "+script)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := startIn(g, cmd); err != nil {
		t.Fatal(err)
	}
	stdin.Write([]byte("go\n")) // placed: v1 adds it after the start
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v: %s", script, err, out.String())
	}
}

// TestResetReusesAnEmptiedGroup: a group whose process used memory and
// was killed (Kill sets pids.max to 0) is reset: its peak starts again
// near zero, its caps read back as they were, and the next process runs
// in it under the same caps; the OOM-kill count is unchanged, for the
// caller's baseline.
func TestResetReusesAnEmptiedGroup(t *testing.T) {
	requireCgroups(t)
	m := newTestManager(t)
	lim := Limits{MemoryBytes: 64 << 20, PidsMax: 16}
	g, err := m.Create("reset", lim)
	if err != nil {
		t.Fatal(err)
	}
	// 16 MiB of anonymous memory (a shell variable), freed at exit.
	runIn(t, g, `x=$(head -c 16777216 /dev/zero | tr '\0' a); echo ${#x}`)
	before, err := g.Usage()
	if err != nil {
		t.Fatal(err)
	}
	if before.PeakBytes < 16<<20 {
		t.Fatalf("peak %d after using 16 MiB", before.PeakBytes)
	}
	if err := g.Kill(); err != nil { // pids.max is 0 now
		t.Fatal(err)
	}
	if err := g.Reset(); err != nil {
		if m.Mode() == ModeV2 && errors.Is(err, ErrNotReset) && errors.Is(err, ErrResetUnsupported) {
			// Before 6.12 memory.peak cannot be reset: the supervisor
			// removes such groups, as it removes any it cannot reset.
			if err := g.Delete(); err != nil {
				t.Fatal(err)
			}
			assertNoGroups(t, m)
			t.Skipf("this kernel cannot reset memory.peak, so groups are removed instead (%v); reuse needs 6.12+", err)
		}
		t.Fatalf("Reset of an emptied group: %v", err)
	}
	after, err := g.Usage()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak %d before Reset, %d after; OOM kills %d, %d", before.PeakBytes, after.PeakBytes, before.OOMKills, after.OOMKills)
	if after.PeakBytes > MaxResidualBytes || after.PeakBytes >= before.PeakBytes {
		t.Errorf("peak after Reset: %d (before %d)", after.PeakBytes, before.PeakBytes)
	}
	if after.OOMKills != before.OOMKills {
		t.Errorf("OOM kills changed by Reset: %d, %d", before.OOMKills, after.OOMKills)
	}
	if err := checkValue(g.pidsDir, "pids.max", "16"); err != nil {
		t.Errorf("pids cap after Kill and Reset: %v", err)
	}
	// The next process runs and may fork, under the same memory cap.
	runIn(t, g, "true | true")
	cmd := helperCmd("alloc")
	stdin, _ := cmd.StdinPipe()
	if err := startIn(g, cmd); err != nil {
		t.Fatal(err)
	}
	stdin.Write([]byte("go\n"))
	err = cmd.Wait()
	if sig, ok := killedBy(err); !ok || sig.String() != "killed" {
		t.Fatalf("200 MiB in a reset 64 MiB group: want SIGKILL by the OOM killer, got %v", err)
	}
	if u, _ := g.Usage(); u.OOMKills <= after.OOMKills {
		t.Errorf("the OOM kill was not counted after Reset: %d", u.OOMKills)
	}
	if err := g.Delete(); err != nil {
		t.Fatal(err)
	}
	assertNoGroups(t, m)
}

// TestResetRefusesWhatItCannotClean: a group with a process in it, or
// with more than MaxResidualBytes still charged (a tmpfs file its
// process wrote), is not reset; Delete removes it, as it removes any.
func TestResetRefusesWhatItCannotClean(t *testing.T) {
	requireCgroups(t)
	if _, err := os.Stat("/dev/shm"); err != nil {
		t.Skipf("no /dev/shm to leave memory charged to a group: %v", err)
	}
	m := newTestManager(t)
	busy, err := m.Create("busy", Limits{MemoryBytes: 64 << 20, PidsMax: 16})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "60")
	if err := startIn(busy, cmd); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	if err := busy.Reset(); !errors.Is(err, ErrNotReset) || !strings.Contains(err.Error(), fmt.Sprint(cmd.Process.Pid)) {
		t.Errorf("Reset with a process in the group: want ErrNotReset naming it, got %v", err)
	}
	if err := busy.Delete(); err != nil {
		t.Fatal(err)
	}

	charged, err := m.Create("charged", Limits{MemoryBytes: 64 << 20, PidsMax: 16})
	if err != nil {
		t.Fatal(err)
	}
	shm := filepath.Join("/dev/shm", fmt.Sprintf("warden-cgroup-test-%d", os.Getpid()))
	defer os.Remove(shm)
	runIn(t, charged, fmt.Sprintf("head -c %d /dev/zero > %s", 2*MaxResidualBytes, shm))
	err = charged.Reset()
	t.Log(err)
	if !errors.Is(err, ErrNotReset) || !strings.Contains(err.Error(), "still charged") {
		t.Errorf("Reset with %d bytes of tmpfs charged: want ErrNotReset, got %v", 2*MaxResidualBytes, err)
	}
	if err := charged.Delete(); err != nil {
		t.Fatal(err)
	}
	assertNoGroups(t, m)
}

// BenchmarkReset measures what a reused group costs per process against
// BenchmarkCreateDelete: Reset + AddProc, for one real process each.
func BenchmarkReset(b *testing.B) {
	requireCgroups(b)
	m := newTestManager(b)
	g, err := m.Create("bench-reset", Limits{MemoryBytes: 64 << 20, PidsMax: 32})
	if err != nil {
		b.Fatal(err)
	}
	testutil.RequireCmd(b, "cat")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cmd, stdin := startCat(b)
		b.StartTimer()
		if err := g.AddProc(cmd.Process.Pid); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		stdin.Close()
		cmd.Wait()
		b.StartTimer()
		if err := g.Reset(); err != nil {
			b.Fatal(err)
		}
	}
}
