//go:build !linux

package cgroup

import (
	"context"
	"fmt"
	"runtime"
)

// Off Linux there are no cgroups: the package builds, so that what
// imports it does, and New and Detect say that the layer is missing.

// Manager is the cgroup layer; off Linux New never returns one.
type Manager struct{}

// New returns ErrUnavailable off Linux.
func New(context.Context, Config) (*Manager, error) {
	return nil, fmt.Errorf("%w: cgroups are Linux's (this is %s)", ErrUnavailable, runtime.GOOS)
}

// Mode is ModeNone.
func (m *Manager) Mode() string { return ModeNone }

// Create fails: there is no cgroup layer.
func (m *Manager) Create(string, Limits) (*Group, error) { return nil, ErrUnavailable }

// Close does nothing.
func (m *Manager) Close() error { return nil }

// Group is one child's cgroup; off Linux there is none.
type Group struct{}

// AddProc fails: there is no cgroup layer.
func (g *Group) AddProc(int) error { return ErrUnavailable }

// CgroupFD has no directory to give.
func (g *Group) CgroupFD() (int, bool) { return -1, false }

// OOMKills fails: there is no cgroup layer.
func (g *Group) OOMKills() (uint64, error) { return 0, ErrUnavailable }

// PeakBytes fails: there is no cgroup layer.
func (g *Group) PeakBytes() (uint64, error) { return 0, ErrUnavailable }

// Usage fails: there is no cgroup layer.
func (g *Group) Usage() (Usage, error) { return Usage{}, ErrUnavailable }

// Kill fails: there is no cgroup layer.
func (g *Group) Kill() error { return ErrUnavailable }

// Reset fails: there is no cgroup layer.
func (g *Group) Reset() error { return ErrUnavailable }

// Delete does nothing.
func (g *Group) Delete() error { return nil }

// Detect reports no cgroup support.
func Detect() Report {
	return Report{Mode: ModeNone, Controllers: map[string]bool{}, Reason: "cgroups are Linux's (this is " + runtime.GOOS + ")"}
}

// GroupName is the name a supervisor's group would have.
func GroupName(pid int) string { return fmt.Sprintf("warden-%d", pid) }
