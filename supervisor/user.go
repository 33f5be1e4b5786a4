package supervisor

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// The default range of child uids (and gids, equal to them) when the
// supervisor is root: 65536 ids from 2^30. It sits above what useradd
// hands out as subordinate ids by default (from 100000, 65536 per user,
// up to 600100000), below 2^31 (which some tools read as negative), and
// away from the low ranges of system and login users. It does lie inside
// the range systemd-nspawn picks from for --private-users=pick; New
// refuses a range that any user, group or subordinate-id entry on this
// machine claims.
const (
	DefaultChildUIDBase  = 1 << 30
	DefaultChildUIDCount = 65536
)

// ErrNoChildUID is returned by a spawn when every uid of the child range
// is held by a live child.
var ErrNoChildUID = errors.New("supervisor: every child uid is in use")

// uidRange hands each live child a uid of its own. A uid is reused only
// after its previous holder was reaped (release), and the next one is
// taken round-robin, so a uid comes back as late as possible.
type uidRange struct {
	base, count int

	mu   sync.Mutex
	next int // offset of the next candidate
	used map[int]bool
}

func newUIDRange(base, count int) *uidRange {
	return &uidRange{base: base, count: count, used: make(map[int]bool)}
}

// acquire takes a free uid, or fails with ErrNoChildUID.
func (r *uidRange) acquire() (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 0; i < r.count; i++ {
		off := (r.next + i) % r.count
		if !r.used[off] {
			r.used[off] = true
			r.next = (off + 1) % r.count
			return r.base + off, nil
		}
	}
	return 0, fmt.Errorf("%w (%d uids from %d)", ErrNoChildUID, r.count, r.base)
}

// release returns uid, whose holder is reaped, to the range.
func (r *uidRange) release(uid int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.used, uid-r.base)
}

// checkChildUIDRange refuses a range that is not usable for children:
// out of bounds, or overlapping an id this machine already gives to a
// user, a group or a subordinate-id range (/etc/subuid, /etc/subgid), whose
// processes could then signal or trace a child.
func checkChildUIDRange(base, count int) error {
	if base <= 0 || count <= 0 || int64(base)+int64(count) > 1<<31 {
		return fmt.Errorf("supervisor: child uid range %d+%d: want base > 0, count > 0 and base+count <= 2^31", base, count)
	}
	lo, hi := int64(base), int64(base)+int64(count) // [lo, hi)
	for _, f := range []string{"/etc/passwd", "/etc/group"} {
		if id, ok := idFileOverlap(f, 2, -1, lo, hi); ok {
			return fmt.Errorf("supervisor: child uid range %d+%d holds id %d of %s; choose another ChildUIDBase", base, count, id, f)
		}
	}
	for _, f := range []string{"/etc/subuid", "/etc/subgid"} {
		if id, ok := idFileOverlap(f, 1, 2, lo, hi); ok {
			return fmt.Errorf("supervisor: child uid range %d+%d overlaps the subordinate ids from %d in %s; choose another ChildUIDBase", base, count, id, f)
		}
	}
	return nil
}

// idFileOverlap scans a colon-separated id file (a missing one is empty)
// for an id in [lo, hi): field idField holds the first id, and field
// countField, when not -1, the length of a range starting there.
func idFileOverlap(path string, idField, countField int, lo, hi int64) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) <= max(idField, countField) {
			continue
		}
		id, err := strconv.ParseInt(fields[idField], 10, 64)
		if err != nil {
			continue
		}
		n := int64(1)
		if countField >= 0 {
			if n, err = strconv.ParseInt(fields[countField], 10, 64); err != nil {
				continue
			}
		}
		if id < hi && id+n > lo {
			return id, true
		}
	}
	return 0, false
}

// childUsers resolves how children are made unprivileged: the uid range
// they take their ids from when the supervisor is root (nil otherwise,
// or when cfg keeps them as the supervisor's user), and a note saying
// which, for Layers.
func childUsers(cfg *Config) (*uidRange, string, error) {
	if os.Geteuid() != 0 {
		return nil, fmt.Sprintf("the supervisor is not root: children run as its uid %d, mapped to no one in a user namespace unless NoNamespaces", os.Geteuid()), nil
	}
	if cfg.ChildAsSupervisorUser {
		cfg.Logger.Warn("children run as root (ChildAsSupervisorUser)")
		return nil, "children run as root (ChildAsSupervisorUser)", nil
	}
	if cfg.ChildUIDBase == 0 {
		cfg.ChildUIDBase = DefaultChildUIDBase
	}
	if cfg.ChildUIDCount == 0 {
		cfg.ChildUIDCount = DefaultChildUIDCount
	}
	if err := checkChildUIDRange(cfg.ChildUIDBase, cfg.ChildUIDCount); err != nil {
		return nil, "", err
	}
	return newUIDRange(cfg.ChildUIDBase, cfg.ChildUIDCount),
		fmt.Sprintf("each child has its own uid and gid from %d-%d", cfg.ChildUIDBase, cfg.ChildUIDBase+cfg.ChildUIDCount-1), nil
}
