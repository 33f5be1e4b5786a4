package supervisor

import "github.com/wardenhq/warden/contract"

// runawayLogs keeps the log events a child streams, for the envelope the
// supervisor writes when the child cannot send its own (killed at the
// deadline, or dead). Keeping them is an append on every execution's
// path; bounding them waits for the rare envelope that needs it, since
// the child's wire budget (ipc) already bounds what it can make the
// supervisor hold.
type runawayLogs struct {
	entries []contract.LogEntry
}

func (l *runawayLogs) add(e *contract.LogEntry) {
	if e != nil {
		l.entries = append(l.entries, *e)
	}
}

// bounded is the first entries that fit in limit bytes of JSON, and what
// they take. The child bounds its logs by the output limit, counting
// what each entry adds to the logs' JSON; bounded keeps entries by the
// same measure (contract.LogEntryCost, as the child counts
// Stats.LogBytes), so a
// child whose Go side no longer honours the limit gets no more into the
// envelope. A well-behaved child's entries, its truncation marker
// included, always fit.
func (l *runawayLogs) bounded(limit int64) (kept []contract.LogEntry, bytes int64) {
	kept = []contract.LogEntry{}
	for _, e := range l.entries {
		// The array's brackets take 2 bytes, less the last entry's
		// separator.
		cost := contract.LogEntryCost(e.Level, e.Text)
		if 1+bytes+cost > limit {
			break
		}
		bytes += cost
		kept = append(kept, e)
	}
	return kept, bytes
}
