package supervisor

import (
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/median"
	"github.com/wardenhq/warden/ipc"
)

// PhaseStat is one phase of child start-up, as medians over the most
// recent children (up to startupWindow of them).
type PhaseStat struct {
	// Side says who measured it: "child" (the child's own clock and
	// getrusage, sent with its first ping) or "supervisor" (wall time
	// around the steps of spawn).
	Side    string  `json:"side"`
	Name    string  `json:"name"`
	Samples int     `json:"samples"`
	WallMS  float64 `json:"wall_ms"`
	// CPUMS and PageFaults are the child's own; zero on the supervisor's
	// side.
	CPUMS      float64 `json:"cpu_ms"`
	PageFaults float64 `json:"page_faults"`
}

// Supervisor-side spawn phases.
const (
	phaseCgroup    = "cgroup create"
	phaseHandshake = "start the process, go-plugin handshake"
	phasePing      = "first ping (gRPC connection)"
	phaseOpen      = "open the execution stream"
)

// The phases of an execution (Stats.Execution).
const (
	phaseDispatch  = "dispatch: limits, checks, an idle child taken"
	phaseWire      = "the wire each way and the child's serving, less the execution"
	phaseExecution = "the execution (stats.wall_ms)"
	phaseFinish    = "the result's checks (cgroup peak, OOM kills, the kill) to the envelope"
	phaseTotal     = "Execute, from the call to the envelope"
)

// addExecution records the phases of one execution a child reported:
// the call at start, the request sent at sent, the result received at
// received, the envelope ready at done; wallMS is the child's measure
// of the execution.
func (s *startupStats) addExecution(start, sent, received, done time.Time, wallMS float64) {
	s.add("supervisor", phaseDispatch, contract.Millis(sent.Sub(start)), 0, 0)
	s.add("supervisor", phaseWire, max(contract.Millis(received.Sub(sent))-wallMS, 0), 0, 0)
	s.add("child", phaseExecution, wallMS, 0, 0)
	s.add("supervisor", phaseFinish, contract.Millis(done.Sub(received)), 0, 0)
	s.add("supervisor", phaseTotal, contract.Millis(done.Sub(start)), 0, 0)
}

// startupWindow is how many recent children the medians cover.
const startupWindow = 256

// startupStats collects start-up phases from every spawn.
type startupStats struct {
	mu     sync.Mutex
	order  []phaseKey
	series map[phaseKey]*phaseSeries
}

type phaseKey struct{ side, name string }

type phaseSeries struct {
	n                 int
	wall, cpu, faults []float64 // rings of startupWindow
}

func (s *startupStats) add(side, name string, wall, cpu, faults float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := phaseKey{side, name}
	ps := s.series[k]
	if ps == nil {
		if s.series == nil {
			s.series = map[phaseKey]*phaseSeries{}
		}
		ps = &phaseSeries{}
		s.series[k] = ps
		s.order = append(s.order, k)
	}
	if len(ps.wall) < startupWindow {
		ps.wall, ps.cpu, ps.faults = append(ps.wall, wall), append(ps.cpu, cpu), append(ps.faults, faults)
	} else {
		i := ps.n % startupWindow
		ps.wall[i], ps.cpu[i], ps.faults[i] = wall, cpu, faults
	}
	ps.n++
}

// addChild records a child's own account, with exec-to-main timed from
// execAt, when the supervisor started the process.
func (s *startupStats) addChild(st ipc.Startup, execAt time.Time) {
	for i, p := range st.Phases {
		wall := p.WallMS
		if i == 0 && !st.MainAt.IsZero() && !execAt.IsZero() {
			wall = contract.Millis(st.MainAt.Sub(execAt))
		}
		s.add("child", p.Name, wall, p.CPUMS, float64(p.PageFaults))
	}
}

func (s *startupStats) snapshot() []PhaseStat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]PhaseStat, 0, len(s.order))
	for _, k := range s.order {
		ps := s.series[k]
		out = append(out, PhaseStat{
			Side: k.side, Name: k.name, Samples: ps.n,
			WallMS: median.Of(ps.wall), CPUMS: median.Of(ps.cpu), PageFaults: median.Of(ps.faults),
		})
	}
	return out
}
