package stress

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RemoteFaults are the faults that apply against a daemon: the data
// handler runs in this process, whichever process runs the script. The
// others act on the supervisor's children, their cgroups or the
// supervisor's own CPU, which a client cannot reach: even with the
// daemon on this machine and this process root, its children are not
// this process's descendants and run on the daemon's memory profiles,
// not the victim profiles the runner adds to a supervisor it starts, so
// a victim's child could not be told from a tenant's.
var RemoteFaults = []string{"slow-handler", "fail-handler"}

// RemoteFaultError refuses a fault that cannot be injected against a
// daemon (not in RemoteFaults).
type RemoteFaultError struct{ Fault string }

func (e *RemoteFaultError) Error() string {
	return fmt.Sprintf("stress: fault %q cannot be injected through a daemon's API (it acts on the supervisor's children or process); against a server only %s apply",
		e.Fault, strings.Join(RemoteFaults, ", "))
}

// DaemonChildren returns a reader of the warden_children gauges (by
// state: idle, busy, spawning, waiting) from the /metrics of the daemon
// at baseURL, for Config.RemoteChildren.
func DaemonChildren(baseURL string, hc *http.Client) func(context.Context) (map[string]int, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	return func(ctx context.Context) (map[string]int, error) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(baseURL, "/")+"/metrics", nil)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("stress: the daemon's metrics: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("stress: the daemon's metrics: %s", resp.Status)
		}
		out := map[string]int{}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			// warden_children{state="idle"} 2
			rest, ok := strings.CutPrefix(sc.Text(), `warden_children{state="`)
			if !ok {
				continue
			}
			state, val, ok := strings.Cut(rest, `"} `)
			if !ok {
				continue
			}
			if v, err := strconv.ParseFloat(val, 64); err == nil {
				out[state] = int(v)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("stress: the daemon's metrics: %w", err)
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("stress: the daemon's metrics hold no warden_children gauge")
		}
		return out, nil
	}
}

// daemonChildren reads the daemon's children before the run, into rep.
func (r *runner) daemonChildren(ctx context.Context, rep *Report) map[string]int {
	if r.cfg.RemoteChildren == nil {
		return nil
	}
	m, err := r.cfg.RemoteChildren(ctx)
	if err != nil {
		rep.Leaks = append(rep.Leaks, "the daemon's children before the run: "+err.Error())
		return nil
	}
	rep.DaemonBefore = m
	return m
}

// settleDaemon is the daemon's side of the audit. Other tenants may use
// the daemon, and the pool keeps idle children for every memory profile
// the corpus used, so the counts cannot be compared whole; what a run
// that ended may not leave is children still busy or waited for beyond
// what there were before it (an execution that never gave its child
// back). It polls for up to 10 s, as the local audit does.
func (r *runner) settleDaemon(ctx context.Context, rep *Report, before map[string]int) []string {
	if r.cfg.RemoteChildren == nil {
		return nil
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		after, err := r.cfg.RemoteChildren(ctx)
		if err != nil {
			return []string{"the daemon's children after the run: " + err.Error()}
		}
		rep.DaemonAfter = after
		var left []string
		for _, st := range []string{"busy", "waiting"} {
			if after[st] > before[st] {
				left = append(left, fmt.Sprintf("daemon children %s after the run: %d (before: %d)", st, after[st], before[st]))
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(200 * time.Millisecond)
	}
}
