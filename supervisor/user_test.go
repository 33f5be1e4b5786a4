package supervisor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestUIDRange: live children hold distinct uids, a uid comes back only
// after its release (and as late as possible), and a full range fails
// with ErrNoChildUID.
func TestUIDRange(t *testing.T) {
	r := newUIDRange(1000, 3)
	a, _ := r.acquire()
	b, _ := r.acquire()
	c, err := r.acquire()
	if err != nil || a != 1000 || b != 1001 || c != 1002 {
		t.Fatalf("want 1000, 1001, 1002, got %d %d %d (%v)", a, b, c, err)
	}
	if _, err := r.acquire(); !errors.Is(err, ErrNoChildUID) {
		t.Fatalf("a full range: want ErrNoChildUID, got %v", err)
	}
	r.release(b)
	if got, err := r.acquire(); err != nil || got != b {
		t.Fatalf("want the released %d back, got %d (%v)", b, got, err)
	}
	r.release(a)
	r.release(c)
	// Round-robin: after 1001 comes 1002, not the lower 1000.
	if got, _ := r.acquire(); got != c {
		t.Fatalf("want %d (the next in turn), got %d", c, got)
	}
	if n := r.inUse(); n != 2 {
		t.Fatalf("want 2 in use, got %d", n)
	}
	// Hammer: no uid is ever held twice.
	r = newUIDRange(5000, 16)
	var mu sync.Mutex
	held := map[int]bool{}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				uid, err := r.acquire()
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if held[uid] {
					t.Errorf("uid %d handed out twice", uid)
				}
				held[uid] = true
				mu.Unlock()
				mu.Lock()
				delete(held, uid)
				mu.Unlock()
				r.release(uid)
			}
		}()
	}
	wg.Wait()
}

func TestCheckChildUIDRange(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "subuid")
	os.WriteFile(sub, []byte("alice:100000:65536\nbob:165536:65536\n"), 0o644)
	tests := []struct {
		name      string
		lo, hi    int64
		wantFound bool
	}{
		{"below", 1000, 100000, false},
		{"inside alice", 150000, 150001, true},
		{"straddles bob's end", 231000, 232000, true},
		{"above", 231072, 300000, false},
	}
	for _, tt := range tests {
		if _, found := idFileOverlap(sub, 1, 2, tt.lo, tt.hi); found != tt.wantFound {
			t.Errorf("%s: overlap = %v, want %v", tt.name, found, tt.wantFound)
		}
	}
	for _, bad := range [][2]int{{0, 10}, {10, 0}, {1 << 31, 1}, {1<<31 - 5, 10}} {
		if err := checkChildUIDRange(bad[0], bad[1]); err == nil {
			t.Errorf("range %d+%d accepted", bad[0], bad[1])
		}
	}
	if err := checkChildUIDRange(0, 1); err == nil {
		t.Error("uid 0 accepted")
	}
	if _, err := os.Stat("/etc/passwd"); err == nil {
		// root is in every passwd: a range holding uid 0..10 is taken.
		if err := checkChildUIDRange(1, 65534); err == nil || !strings.Contains(err.Error(), "/etc/") {
			t.Errorf("a range over this machine's users accepted: %v", err)
		}
	}
	if err := checkChildUIDRange(DefaultChildUIDBase, DefaultChildUIDCount); err != nil {
		t.Errorf("the default range is refused here: %v", err)
	}
}

// TestNewRefusesATakenUIDRange: New will not give children uids that
// users of this machine have.
func TestNewRefusesATakenUIDRange(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: child uids are used only when the supervisor is root (uid", os.Geteuid(), ")")
	}
	_, err := New(Config{CacheDir: t.TempDir(), ChildUIDBase: 1, ChildUIDCount: 65534})
	if err == nil || !strings.Contains(err.Error(), "child uid range") {
		t.Fatalf("want New to refuse uids 1-65534, got %v", err)
	}
}

// inUse is how many uids live children hold.
func (r *uidRange) inUse() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.used)
}
