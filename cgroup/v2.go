//go:build linux

package cgroup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/containerd/cgroups/v3/cgroup2"
	"golang.org/x/sys/unix"
)

// supervisorLeaf is where New moves the processes of the supervisor's own
// v2 cgroup, so that controllers can be enabled below it.
const supervisorLeaf = "supervisor"

// initV2 creates warden-<pid> below Config.Parent or the supervisor's own
// cgroup, with the memory and pids controllers enabled for its children.
func (m *Manager) initV2(ctx context.Context, cfg Config, h host) error {
	base := cfg.Parent
	if base == "" {
		base = h.own2
		// Already in the leaf (a second Manager in this process, or a
		// process started by the supervisor): the base is one level up.
		if filepath.Base(base) == supervisorLeaf {
			base = filepath.Dir(base)
		}
	}
	baseRel, err := relInMount(h.mount2, base)
	if err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	baseDir := filepath.Join(h.mount2.point, baseRel)
	switch {
	case cfg.Parent != "":
		if m.ancestors, err = mkdirAllTracked(baseDir); err != nil {
			return fmt.Errorf("cgroup: create parent %s: %w", baseDir, err)
		}
	case !isHierarchyRoot(baseDir):
		// The root cgroup is exempt from the no-internal-processes rule;
		// any other cgroup must hold no process to enable controllers,
		// including the root of a cgroup namespace (a container's "/").
		if err := m.moveToLeaf(baseDir); err != nil {
			return err
		}
	}
	avail, err := readTrim(filepath.Join(baseDir, "cgroup.controllers"))
	if err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	var ctls []string
	for _, c := range []string{"memory", "pids"} {
		if slices.Contains(strings.Fields(avail), c) {
			ctls = append(ctls, c)
		}
	}
	if h.requireMemory && !slices.Contains(ctls, "memory") {
		return fmt.Errorf("%w: memory controller not delegated to %s (cgroup.controllers: %q)", ErrUnavailable, baseDir, avail)
	}
	if !slices.Contains(ctls, "pids") {
		m.log.Warn("pids controller not delegated: groups with PidsMax will fail", "dir", baseDir)
	}
	if err := enableControllers(baseDir, ctls); err != nil {
		return err
	}
	m.cleanStale(ctx, baseDir)

	name, err := makeParent([]string{baseDir})
	if err != nil {
		return err
	}
	dir := filepath.Join(baseDir, name)
	if err := enableControllers(dir, ctls); err != nil {
		unix.Rmdir(dir)
		return err
	}
	mgr, err := cgroup2.Load(filepath.Join(baseRel, name), cgroup2.WithMountpoint(h.mount2.point))
	if err != nil {
		unix.Rmdir(dir)
		return fmt.Errorf("cgroup: load parent group: %w", err)
	}
	m.v2 = mgr
	m.v2ctls = ctls
	m.parents = []ctlDir{{ctl: "unified", dir: dir}}
	m.swap = exists(filepath.Join(dir, "memory.swap.max"))
	if !m.swap && slices.Contains(ctls, "memory") {
		m.log.Warn("no memory.swap.max (swap accounting off): swap is not capped")
	}
	return nil
}

// isHierarchyRoot reports whether dir is the root of the whole v2
// hierarchy, the one cgroup with no cgroup.type file. Its path seen from
// a cgroup namespace (a container's) is "/" too, but there it is an
// ordinary cgroup, bound by the no-internal-processes rule.
func isHierarchyRoot(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "cgroup.type"))
	return errors.Is(err, os.ErrNotExist)
}

// moveToLeaf moves every process of dir into dir/supervisor.
func (m *Manager) moveToLeaf(dir string) error {
	leaf := filepath.Join(dir, supervisorLeaf)
	moved := 0
	// Repeat: a process may fork while the others are being moved.
	for range 10 {
		pids, err := readProcs([]string{dir})
		if err != nil {
			return fmt.Errorf("cgroup: list processes of %s: %w", dir, err)
		}
		if len(pids) == 0 {
			if moved > 0 {
				m.log.Info("moved the supervisor's processes into a leaf cgroup (v2 no-internal-processes rule)", "leaf", leaf, "count", moved)
			}
			return nil
		}
		if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("cgroup: create supervisor leaf: %w", err)
		}
		for _, pid := range pids {
			err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0)
			if err != nil && !errors.Is(err, unix.ESRCH) {
				return fmt.Errorf("cgroup: move pid %d into %s: %w", pid, leaf, err)
			}
			moved++
		}
	}
	return fmt.Errorf("cgroup: processes keep appearing in %s", dir)
}

// enableControllers writes the missing ones of ctls to dir's
// cgroup.subtree_control. It writes directly rather than through
// cgroup2.Manager.ToggleControllers, which also writes every ancestor up to
// the root of the hierarchy: outside the delegated subtree.
func enableControllers(dir string, ctls []string) error {
	cur, err := readTrim(filepath.Join(dir, "cgroup.subtree_control"))
	if err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	var add []string
	for _, c := range ctls {
		if !slices.Contains(strings.Fields(cur), c) {
			add = append(add, "+"+c)
		}
	}
	if len(add) == 0 {
		return nil
	}
	err = os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte(strings.Join(add, " ")), 0)
	if errors.Is(err, unix.EBUSY) {
		return fmt.Errorf("cgroup: enable %v in %s: the cgroup holds processes (v2 no-internal-processes rule): %w", add, dir, err)
	}
	if err != nil {
		return fmt.Errorf("cgroup: enable %v in %s: %w", add, dir, err)
	}
	return nil
}

func (m *Manager) createV2(name string, lim Limits) (*Group, error) {
	dir := filepath.Join(m.parents[0].dir, name)
	g := &Group{m: m, name: name, fd: -1, dirs: []ctlDir{{ctl: "unified", dir: dir}}}
	if slices.Contains(m.v2ctls, "memory") {
		g.memDir = dir
	}
	if slices.Contains(m.v2ctls, "pids") {
		g.pidsDir = dir
	}
	if lim.MemoryBytes > 0 && g.memDir == "" {
		return nil, fmt.Errorf("%w: group %q: MemoryBytes %d: memory controller not available", ErrLimit, name, lim.MemoryBytes)
	}
	if lim.PidsMax > 0 && g.pidsDir == "" {
		return nil, fmt.Errorf("%w: group %q: PidsMax %d: pids controller not available", ErrLimit, name, lim.PidsMax)
	}
	if err := mkdirExclusive([]string{dir}); err != nil {
		return nil, fmt.Errorf("cgroup: create group %q: %w", name, err)
	}
	mgr, err := m.v2.NewChild(name, nil)
	if err != nil {
		g.rmdirs()
		return nil, fmt.Errorf("cgroup: create group %q: %w", name, err)
	}
	v := &v2Group{mgr: mgr, dir: dir}
	g.version = v
	if err := v.apply(lim); err != nil {
		g.rmdirs()
		return nil, fmt.Errorf("%w: group %q: %w", ErrLimit, name, err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		g.rmdirs()
		return nil, fmt.Errorf("cgroup: open group %q: %w", name, err)
	}
	g.fd = fd
	return g, nil
}

// v2Group is a Group's cgroup v2 side: one directory in the unified
// hierarchy, reached through containerd/cgroups' cgroup2.
type v2Group struct {
	mgr *cgroup2.Manager
	dir string
}

var _ groupVersion = (*v2Group)(nil)

// apply writes the caps through containerd/cgroups (memory.swap.max,
// memory.max, memory.oom.group, pids.max) and reads them back.
// memory.oom.group makes an OOM kill take the whole group down: a child is
// used once, so there is nothing worth keeping half alive.
func (v *v2Group) apply(lim Limits) error {
	res := &cgroup2.Resources{}
	swap := false
	if lim.MemoryBytes > 0 {
		mem, oomGroup := lim.MemoryBytes, true
		res.Memory = &cgroup2.Memory{Max: &mem, OOMGroup: &oomGroup}
		if swap = exists(filepath.Join(v.dir, "memory.swap.max")); swap {
			zero := int64(0)
			res.Memory.Swap = &zero
		}
	}
	if lim.PidsMax > 0 {
		res.Pids = &cgroup2.Pids{Max: lim.PidsMax}
	}
	if err := v.mgr.Update(res); err != nil {
		return err
	}
	if err := v.checkMemoryCaps(lim, swap); err != nil {
		return err
	}
	if lim.PidsMax > 0 {
		if err := checkValue(v.dir, "pids.max", strconv.FormatInt(lim.PidsMax, 10)); err != nil {
			return err
		}
	}
	return nil
}

// checkMemoryCaps reads back memory.max, memory.oom.group and, when
// swap is capped, memory.swap.max.
func (v *v2Group) checkMemoryCaps(lim Limits, swap bool) error {
	if lim.MemoryBytes <= 0 {
		return nil
	}
	if err := checkValue(v.dir, "memory.max", pageRound(lim.MemoryBytes)); err != nil {
		return err
	}
	if err := checkValue(v.dir, "memory.oom.group", "1"); err != nil {
		return err
	}
	if swap {
		return checkValue(v.dir, "memory.swap.max", "0")
	}
	return nil
}

func (v *v2Group) addProc(pid int) error { return v.mgr.AddProc(uint64(pid)) }

// openPeak opens memory.peak, or memory.current on kernels before 5.19,
// which keep no peak.
func (v *v2Group) openPeak(memDir string) (*os.File, error) {
	f, err := os.Open(filepath.Join(memDir, "memory.peak"))
	if !errors.Is(err, os.ErrNotExist) {
		return f, err
	}
	return os.Open(filepath.Join(memDir, "memory.current"))
}

func (v *v2Group) oomKills(memDir string, _ func() (uint64, error)) (uint64, error) {
	n, _, err := readKey(filepath.Join(memDir, "memory.events"), "oom_kill")
	return n, err
}

// kill writes cgroup.kill where the kernel has it (5.14+), and otherwise
// does as v1 does.
func (v *v2Group) kill(dirs []string, pidsDir string) error {
	if exists(filepath.Join(v.dir, "cgroup.kill")) {
		return v.mgr.Kill()
	}
	return killTree(dirs, pidsDir)
}
