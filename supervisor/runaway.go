package supervisor

import (
	"encoding/json"

	"github.com/wardenhq/warden/contract"
)

// runawayLogs keeps the log events a child streams, for the envelope the
// supervisor writes when the child cannot send its own (killed at the
// deadline, or dead). The child bounds its logs by the output limit,
// counting what each entry adds to the logs' JSON; runawayLogs keeps
// entries by the same measure, the length encoding/json gives the entry
// plus a separator, so that a child whose Go side no longer honours the
// limit cannot make the supervisor hold more. A well-behaved child's
// entries, its truncation marker included, always fit.
type runawayLogs struct {
	limit   int64
	entries []contract.LogEntry
	// bytes is what the kept entries take as JSON, counted as the child
	// counts Stats.LogBytes.
	bytes int64
	full  bool
}

func (l *runawayLogs) add(e *contract.LogEntry) {
	if e == nil || l.full {
		return
	}
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	// The array's brackets take 2 bytes, less the last entry's separator.
	cost := int64(len(b)) + 1
	if 1+l.bytes+cost > l.limit {
		l.full = true
		return
	}
	l.bytes += cost
	l.entries = append(l.entries, *e)
}
