//go:build linux

package cgroup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/containerd/cgroups/v3/cgroup1"
	specs "github.com/opencontainers/runtime-spec/specs-go"
	"golang.org/x/sys/unix"
)

// initV1 creates warden-<pid> in the memory and (if mounted) pids
// hierarchies, below Config.Parent or the supervisor's own cgroups.
func (m *Manager) initV1(ctx context.Context, cfg Config, h host) error {
	type ctl struct {
		name string
		mnt  mount
		// base is the hierarchy path, baseRel the same path relative to
		// the mount, baseDir the directory.
		base, baseRel, baseDir string
	}
	var ctls []ctl
	for _, name := range []string{"memory", "pids"} {
		mnt, ok := h.mounts[name]
		if !ok {
			m.log.Warn("pids controller not mounted: groups with PidsMax will fail", "controller", name)
			continue
		}
		c := ctl{name: name, mnt: mnt, base: cfg.Parent}
		if c.base == "" {
			c.base = h.own1[name]
		}
		var err error
		if c.baseRel, err = relInMount(mnt, c.base); err != nil {
			return fmt.Errorf("cgroup: %s: %w", name, err)
		}
		c.baseDir = filepath.Join(mnt.point, c.baseRel)
		if cfg.Parent != "" {
			created, err := mkdirAllTracked(c.baseDir)
			if err != nil {
				return fmt.Errorf("cgroup: create parent %s: %w", c.baseDir, err)
			}
			m.ancestors = append(m.ancestors, created...)
		}
		m.cleanStale(ctx, c.baseDir)
		ctls = append(ctls, c)
	}

	bases := make([]string, len(ctls))
	for i, c := range ctls {
		bases[i] = c.baseDir
	}
	name, err := makeParent(bases)
	if err != nil {
		return err
	}

	rel := make(map[cgroup1.Name]string)
	var subs []cgroup1.Subsystem
	for _, c := range ctls {
		m.parents = append(m.parents, ctlDir{ctl: c.name, dir: filepath.Join(c.baseDir, name)})
		rel[cgroup1.Name(c.name)] = filepath.Join(c.baseRel, name)
		// containerd/cgroups addresses a controller as <dir>/<name>;
		// probeHost only accepts mounts laid out that way.
		root := filepath.Dir(c.mnt.point)
		if c.name == "memory" {
			subs = append(subs, cgroup1.NewMemory(root))
		} else {
			subs = append(subs, cgroup1.NewPids(root))
		}
	}
	path := func(n cgroup1.Name) (string, error) {
		if p, ok := rel[n]; ok {
			return p, nil
		}
		return "", cgroup1.ErrControllerNotActive
	}
	cg, err := cgroup1.Load(path, cgroup1.WithHierarchy(func() ([]cgroup1.Subsystem, error) { return subs, nil }))
	if err != nil {
		for _, p := range m.parents {
			unix.Rmdir(p.dir)
		}
		return fmt.Errorf("cgroup: load parent group: %w", err)
	}
	m.v1 = cg
	m.swap = exists(filepath.Join(m.parents[0].dir, "memory.memsw.limit_in_bytes"))
	if !m.swap {
		m.log.Warn("no memory.memsw.* (swap accounting off, boot with swapaccount=1): swap is not capped")
	}
	return nil
}

func (m *Manager) createV1(name string, lim Limits) (*Group, error) {
	g := &Group{m: m, name: name, fd: -1}
	for _, p := range m.parents {
		d := ctlDir{ctl: p.ctl, dir: filepath.Join(p.dir, name)}
		g.dirs = append(g.dirs, d)
		switch p.ctl {
		case "memory":
			g.memDir = d.dir
		case "pids":
			g.pidsDir = d.dir
		}
	}
	if lim.PidsMax > 0 && g.pidsDir == "" {
		return nil, fmt.Errorf("%w: group %q: PidsMax %d: pids controller not mounted", ErrLimit, name, lim.PidsMax)
	}
	if err := mkdirExclusive(g.dirList()); err != nil {
		return nil, fmt.Errorf("cgroup: create group %q: %w", name, err)
	}
	cg, err := m.v1.New(name, &specs.LinuxResources{})
	if err != nil {
		g.rmdirs()
		return nil, fmt.Errorf("cgroup: create group %q: %w", name, err)
	}
	v := &v1Group{cg: cg}
	g.version = v
	if err := v.apply(lim, g.memDir, g.pidsDir, m.swap); err != nil {
		g.rmdirs()
		return nil, fmt.Errorf("%w: group %q: %w", ErrLimit, name, err)
	}
	return g, nil
}

// v1Group is a Group's cgroup v1 side: one directory per controller,
// reached through containerd/cgroups' cgroup1.
type v1Group struct {
	cg cgroup1.Cgroup
}

var _ groupVersion = (*v1Group)(nil)

// apply writes the caps through containerd/cgroups, memory limit before
// memsw (memsw may never be below the memory limit), then reads them back.
// swap says whether memsw can be capped.
func (v *v1Group) apply(lim Limits, memDir, pidsDir string, swap bool) error {
	res := &specs.LinuxResources{}
	if lim.MemoryBytes > 0 {
		mem := lim.MemoryBytes
		res.Memory = &specs.LinuxMemory{Limit: &mem}
		if swap {
			res.Memory.Swap = &mem
		}
	}
	if lim.PidsMax > 0 {
		pids := lim.PidsMax
		res.Pids = &specs.LinuxPids{Limit: &pids}
	}
	if err := v.cg.Update(res); err != nil {
		return err
	}
	if err := checkMemoryCapsV1(memDir, lim, swap); err != nil {
		return err
	}
	if lim.PidsMax > 0 {
		if err := checkValue(pidsDir, "pids.max", strconv.FormatInt(lim.PidsMax, 10)); err != nil {
			return err
		}
	}
	return nil
}

// checkMemoryCapsV1 reads back the memory cap (and its memsw twin when
// swap is capped) of the group whose memory directory is memDir.
func checkMemoryCapsV1(memDir string, lim Limits, swap bool) error {
	if lim.MemoryBytes <= 0 {
		return nil
	}
	want := pageRound(lim.MemoryBytes)
	if err := checkValue(memDir, "memory.limit_in_bytes", want); err != nil {
		return err
	}
	if swap {
		return checkValue(memDir, "memory.memsw.limit_in_bytes", want)
	}
	return nil
}

func (v *v1Group) addProc(pid int) error { return v.cg.AddProc(uint64(pid)) }

func (v *v1Group) openPeak(memDir string) (*os.File, error) {
	return os.Open(filepath.Join(memDir, "memory.max_usage_in_bytes"))
}

func (v *v1Group) oomKills(memDir string, peakBytes func() (uint64, error)) (uint64, error) {
	n, found, err := readKey(filepath.Join(memDir, "memory.oom_control"), "oom_kill")
	if err != nil {
		return 0, err
	}
	if found {
		return n, nil
	}
	// Kernels before 4.13 have no oom_kill counter: report one kill if the
	// group hit its limit at its peak. It cannot tell one kill from several.
	limit, err1 := readUint(filepath.Join(memDir, "memory.limit_in_bytes"))
	peak, err2 := peakBytes()
	fails, err3 := readUint(filepath.Join(memDir, "memory.failcnt"))
	if err := errors.Join(err1, err2, err3); err != nil {
		return 0, err
	}
	if fails > 0 && peak+uint64(os.Getpagesize()) >= limit {
		return 1, nil
	}
	return 0, nil
}

// kill freezes forks with pids.max 0 and signals every listed pid: v1
// has no cgroup.kill.
func (v *v1Group) kill(dirs []string, pidsDir string) error {
	return killTree(dirs, pidsDir)
}
