package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wardenhq/warden/supervisor"
)

// StateStore keeps the daemon's parked states, sealed by the supervisor,
// by tenant and execution id. The daemon's own is a directory (or, with
// none configured, memory); one in an S3-compatible bucket or a database
// needs the same five operations, with Take atomic (a conditional delete,
// or a row claimed in a transaction), so that two replicas never resume
// one state twice (docs/daemon.md, "Parked executions").
type StateStore interface {
	// Put keeps state for tenant's execution id, replacing one kept
	// before; ErrStoreFull when the tenant is at its caps.
	Put(ctx context.Context, tenant, id string, state []byte) error
	// Get returns the state without removing it (export, fork).
	Get(ctx context.Context, tenant, id string) ([]byte, error)
	// Take returns the state and removes it, atomically: of two Takes
	// of one state, one gets fs.ErrNotExist.
	Take(ctx context.Context, tenant, id string) ([]byte, error)
	// Stats counts the states kept and their bytes, all tenants.
	Stats() (states int, bytes int64)
}

// ErrStoreFull is Put's refusal at a tenant's caps.
var ErrStoreFull = errors.New("server: the tenant's parked states are at their cap")

// DefaultStoreLimits are a store's limits when the configuration sets
// none.
var DefaultStoreLimits = StoreLimits{MaxStates: 1000, MaxBytes: 1 << 30, TTL: supervisor.DefaultParkTTL}

// StoreLimits bound a store per tenant; states older than TTL are gone.
type StoreLimits struct {
	MaxStates int
	MaxBytes  int64
	TTL       time.Duration
}

// dirStore keeps each state in DIR/TENANT-HEX/ID.state. A state is
// written to a temporary file and renamed (no reader sees half of one);
// Take renames it away before reading, which is atomic on one
// filesystem, shared by replicas or not.
type dirStore struct {
	dir    string
	limits StoreLimits
	mu     sync.Mutex // serialises Put's count against the caps
}

// NewDirStore makes a directory store under dir (created 0700).
func NewDirStore(dir string, limits StoreLimits) (StateStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("server: parked states: %w", err)
	}
	return &dirStore{dir: dir, limits: limits}, nil
}

func (d *dirStore) tenantDir(tenant string) string {
	return filepath.Join(d.dir, hex.EncodeToString([]byte(tenant)))
}

func (d *dirStore) path(tenant, id string) string {
	// Ids are [A-Za-z0-9_-]{1,64} (validID): safe as file names.
	return filepath.Join(d.tenantDir(tenant), id+".state")
}

// sweep removes tenant's expired states and counts the rest.
func (d *dirStore) sweep(tenant string) (n int, bytes int64) {
	entries, _ := os.ReadDir(d.tenantDir(tenant))
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || filepath.Ext(e.Name()) != ".state" {
			continue
		}
		if d.limits.TTL > 0 && time.Since(fi.ModTime()) > d.limits.TTL {
			os.Remove(filepath.Join(d.tenantDir(tenant), e.Name()))
			continue
		}
		n++
		bytes += fi.Size()
	}
	return n, bytes
}

func (d *dirStore) Put(_ context.Context, tenant, id string, state []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, size := d.sweep(tenant)
	if fi, err := os.Stat(d.path(tenant, id)); err == nil {
		n, size = n-1, size-fi.Size()
	}
	if d.limits.MaxStates > 0 && n+1 > d.limits.MaxStates || d.limits.MaxBytes > 0 && size+int64(len(state)) > d.limits.MaxBytes {
		return ErrStoreFull
	}
	if err := os.MkdirAll(d.tenantDir(tenant), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.tenantDir(tenant), ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(state); err != nil {
		tmp.Close()
		return err
	}
	if err := errors.Join(tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), d.path(tenant, id))
}

func (d *dirStore) Get(_ context.Context, tenant, id string) ([]byte, error) {
	p := d.path(tenant, id)
	if d.expired(p) {
		return nil, fs.ErrNotExist
	}
	return os.ReadFile(p)
}

func (d *dirStore) Take(_ context.Context, tenant, id string) ([]byte, error) {
	p := d.path(tenant, id)
	if d.expired(p) {
		return nil, fs.ErrNotExist
	}
	var b [8]byte
	rand.Read(b[:])
	taken := filepath.Join(d.tenantDir(tenant), ".taken-"+hex.EncodeToString(b[:]))
	if err := os.Rename(p, taken); err != nil {
		return nil, err
	}
	defer os.Remove(taken)
	return os.ReadFile(taken)
}

// expired removes the state at p if it is past the TTL.
func (d *dirStore) expired(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || d.limits.TTL <= 0 || time.Since(fi.ModTime()) <= d.limits.TTL {
		return false
	}
	os.Remove(p)
	return true
}

func (d *dirStore) Stats() (states int, bytes int64) {
	tenants, _ := os.ReadDir(d.dir)
	for _, t := range tenants {
		name, err := hex.DecodeString(t.Name())
		if !t.IsDir() || err != nil {
			continue
		}
		n, b := d.sweep(string(name))
		states, bytes = states+n, bytes+b
	}
	return states, bytes
}

// memStore is the store with no directory configured: states live as
// long as the daemon.
type memStore struct {
	limits StoreLimits
	mu     sync.Mutex
	m      map[[2]string]memState
}

type memState struct {
	b   []byte
	put time.Time
}

// NewMemStore makes a store in memory.
func NewMemStore(limits StoreLimits) StateStore {
	return &memStore{limits: limits, m: map[[2]string]memState{}}
}

// sweepLocked drops expired states and counts tenant's.
func (m *memStore) sweepLocked(tenant string) (n int, bytes int64) {
	for k, v := range m.m {
		if m.limits.TTL > 0 && time.Since(v.put) > m.limits.TTL {
			delete(m.m, k)
			continue
		}
		if k[0] == tenant {
			n, bytes = n+1, bytes+int64(len(v.b))
		}
	}
	return n, bytes
}

func (m *memStore) Put(_ context.Context, tenant, id string, state []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, size := m.sweepLocked(tenant)
	if old, ok := m.m[[2]string{tenant, id}]; ok {
		n, size = n-1, size-int64(len(old.b))
	}
	if m.limits.MaxStates > 0 && n+1 > m.limits.MaxStates || m.limits.MaxBytes > 0 && size+int64(len(state)) > m.limits.MaxBytes {
		return ErrStoreFull
	}
	m.m[[2]string{tenant, id}] = memState{append([]byte(nil), state...), time.Now()}
	return nil
}

func (m *memStore) get(tenant, id string, take bool) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked("")
	v, ok := m.m[[2]string{tenant, id}]
	if !ok {
		return nil, fs.ErrNotExist
	}
	if take {
		delete(m.m, [2]string{tenant, id})
	}
	return v.b, nil
}

func (m *memStore) Get(_ context.Context, tenant, id string) ([]byte, error) {
	return m.get(tenant, id, false)
}

func (m *memStore) Take(_ context.Context, tenant, id string) ([]byte, error) {
	return m.get(tenant, id, true)
}

func (m *memStore) Stats() (states int, bytes int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked("")
	for _, v := range m.m {
		states, bytes = states+1, bytes+int64(len(v.b))
	}
	return states, bytes
}
