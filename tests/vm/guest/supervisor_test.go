//go:build wardenfaults

package guest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// newSupervisor is a supervisor that requires cgroups, with seccomp off
// so that a subverted child may fork (the layer under test is the pids
// cap, not the filter).
func newSupervisor(t *testing.T) *supervisor.Supervisor {
	t.Helper()
	s, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, PoolSize: 1, Cgroups: supervisor.CgroupsRequired, NoSeccomp: true, PidsMax: 16,
		QueueTimeout: testutil.Timeout(), StartTimeout: testutil.Timeout()})
	if err != nil {
		t.Fatal(err)
	}
	testutil.CloseAtEnd(t, s)
	return s
}

func fault(s *supervisor.Supervisor, name, arg string, timeout time.Duration) contract.Result {
	in, _ := json.Marshal(arg)
	res, _ := s.Execute(context.Background(), contract.Request{Code: "//fault:" + name, Input: in, Limits: contract.Limits{Timeout: timeout}}, nil)
	return res
}

// forklings lists the pids of the fork bomb's processes still alive.
func forklings() []string {
	var pids []string
	comms, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, c := range comms {
		if b, err := os.ReadFile(c); err == nil && strings.TrimSpace(string(b)) == child.ForkName {
			pids = append(pids, filepath.Base(filepath.Dir(c)))
		}
	}
	return pids
}

// The pids cap: a subverted child's fork bomb is refused at PidsMax tasks
// (the child's own threads count), and nothing of it outlives the
// execution.
func TestForkBombStopsAtThePidsCap(t *testing.T) {
	requireV2(t)
	s := newSupervisor(t)
	res := fault(s, "forkbomb", "", 10*time.Second)
	if res.Error == nil || !strings.Contains(res.Error.Message, "forks, then: resource temporarily unavailable") {
		t.Fatalf("want the bomb refused with EAGAIN, got %+v", res.Error)
	}
	t.Logf("%s", res.Error.Message)
	var n int
	if _, err := fmt.Sscanf(res.Error.Message[strings.Index(res.Error.Message, "fault forkbomb: ")+len("fault forkbomb: "):], "%d", &n); err != nil || n >= 16 {
		t.Fatalf("forks before refusal: %d (%v), want fewer than PidsMax 16", n, err)
	}
	waitNoForklings(t)
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatalf("the supervisor stopped serving: %v", err)
	}
}

// A child past its deadline is killed with its whole group (cgroup.kill
// on v2): its forks die too, whatever process group or session they
// are in, and the group is removed.
func TestTimeoutKillsTheGroup(t *testing.T) {
	requireV2(t)
	s := newSupervisor(t)
	res := fault(s, "forkbomb", "hang", 2*time.Second)
	if res.Error == nil || res.Error.Type != contract.TimeoutError {
		t.Fatalf("want TimeoutError, got %+v", res.Error)
	}
	waitNoForklings(t)
}

func waitNoForklings(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := forklings()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fork bomb processes still alive: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
