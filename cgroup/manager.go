//go:build linux

package cgroup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/containerd/cgroups/v3/cgroup1"
	"github.com/containerd/cgroups/v3/cgroup2"
	"golang.org/x/sys/unix"
)

// Manager creates and removes per-child groups below one parent group. It is
// safe for concurrent use.
type Manager struct {
	log  *slog.Logger
	mode string
	// reason says why mode is none.
	reason string
	// swap reports whether swap can be capped.
	swap bool

	// parents are this Manager's warden-<pid> directories, memory first.
	parents []ctlDir
	// ancestors are directories New created above parents for Config.Parent,
	// innermost first.
	ancestors []string
	// livePIDNS is the PID namespaces that have a process, read once by
	// New's stale-group scans when a group of another namespace is there.
	livePIDNS func() map[uint64]bool
	v1        cgroup1.Cgroup
	v2        *cgroup2.Manager
	// v2ctls are the controllers enabled for children on v2.
	v2ctls []string

	mu sync.Mutex
	// groups holds nil for a name whose Create is in progress.
	groups map[string]*Group
	closed bool
	// creating counts Creates in progress, for Close to wait on.
	creating sync.WaitGroup
}

// ctlDir is the directory of a group in one controller's hierarchy (on v2,
// ctl is "unified").
type ctlDir struct {
	ctl string
	dir string
}

// New detects the cgroup mode, removes groups left by dead supervisors and
// creates this Manager's parent group. On a machine without a usable memory
// controller it returns a Manager whose Mode is "none" and whose Create fails
// with ErrUnavailable. ctx bounds the wait for stale groups' processes to die.
func New(ctx context.Context, cfg Config) (*Manager, error) {
	return newManager(ctx, cfg, probeHost())
}

func newManager(ctx context.Context, cfg Config, h host) (*Manager, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Parent != "" {
		if err := cgroup2.VerifyGroupPath(cfg.Parent); err != nil {
			return nil, fmt.Errorf("%w: Parent %q must be a clean absolute cgroup path without the mount point: %w", ErrInvalidConfig, cfg.Parent, err)
		}
	}
	m := &Manager{
		log:    cfg.Logger.With("component", "cgroup"),
		mode:   h.mode,
		reason: h.reason,
		groups: make(map[string]*Group),
	}
	var err error
	switch h.mode {
	case ModeV1:
		err = m.initV1(ctx, cfg, h)
	case ModeV2:
		err = m.initV2(ctx, cfg, h)
	default:
		m.log.Warn("cgroups unavailable: children will run without cgroup caps unless the caller refuses", "reason", h.reason)
		return m, nil
	}
	if err != nil {
		m.removeAncestors()
		return nil, err
	}
	attrs := []any{"mode", m.mode, "swap_capped", m.swap}
	for _, p := range m.parents {
		attrs = append(attrs, p.ctl, p.dir)
	}
	m.log.Info("cgroup manager ready", attrs...)
	return m, nil
}

// Mode reports "v1", "v2" or "none".
func (m *Manager) Mode() string { return m.mode }

// Create makes a group called name below the Manager's parent and applies
// lim. If any cap cannot be applied, Create removes what it made and returns
// an error wrapping ErrLimit and the kernel's error.
func (m *Manager) Create(name string, lim Limits) (*Group, error) {
	if err := validName(name); err != nil {
		return nil, err
	}
	if lim.MemoryBytes < 0 || lim.PidsMax < 0 || (lim.MemoryBytes > 0 && lim.MemoryBytes < minMemoryBytes) {
		return nil, fmt.Errorf("%w: %+v (MemoryBytes must be 0 or >= %d, PidsMax >= 0)", ErrInvalidLimits, lim, minMemoryBytes)
	}
	if m.mode == ModeNone {
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, m.reason)
	}
	// Reserve the name, then work on the kernel without holding the lock,
	// so that a pool can create groups in parallel.
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	if _, ok := m.groups[name]; ok {
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: %q", ErrExists, name)
	}
	m.groups[name] = nil
	m.creating.Add(1)
	m.mu.Unlock()
	defer m.creating.Done()

	var (
		g   *Group
		err error
	)
	if m.mode == ModeV1 {
		g, err = m.createV1(name, lim)
	} else {
		g, err = m.createV2(name, lim)
	}
	m.mu.Lock()
	closed := m.closed
	if err == nil && !closed {
		m.groups[name] = g
	} else {
		delete(m.groups, name)
	}
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	g.lim = lim
	if g.memDir != "" {
		// Opened now, off the execution's path; peakBytes opens it if
		// this fails.
		g.peak, _ = g.version.openPeak(g.memDir)
	}
	if closed {
		// Close is waiting for this Create; leave nothing for it to miss.
		if derr := g.Delete(); derr != nil {
			m.log.Warn("group created during Close not removed", "group", name, "err", derr)
		}
		return nil, ErrClosed
	}
	return g, nil
}

// Close deletes every group the Manager created, then its parent group and
// any directories New created above it. It is idempotent.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	m.creating.Wait()
	m.mu.Lock()
	groups := make([]*Group, 0, len(m.groups))
	for _, g := range m.groups {
		if g != nil {
			groups = append(groups, g)
		}
	}
	m.mu.Unlock()

	var errs []error
	for _, g := range groups {
		if err := g.Delete(); err != nil {
			errs = append(errs, err)
		}
	}
	if m.mode == ModeNone {
		return nil
	}
	for _, p := range m.parents {
		if err := rmdirRetry(p.dir); err != nil {
			errs = append(errs, fmt.Errorf("cgroup: remove parent %s: %w", p.dir, err))
		}
	}
	m.removeAncestors()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	m.log.Debug("cgroup manager closed")
	return nil
}

// removeAncestors removes the directories New created for Config.Parent, if
// they are empty; another supervisor may still be using them.
func (m *Manager) removeAncestors() {
	for _, d := range m.ancestors {
		if err := unix.Rmdir(d); err != nil && !errors.Is(err, unix.ENOENT) {
			m.log.Debug("parent directory kept", "dir", d, "err", err)
		}
	}
	m.ancestors = nil
}

func (m *Manager) forget(name string) {
	m.mu.Lock()
	delete(m.groups, name)
	m.mu.Unlock()
}
