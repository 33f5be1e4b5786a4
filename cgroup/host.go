//go:build linux

package cgroup

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/containerd/cgroups/v3"
)

const (
	procSelfCgroup    = "/proc/self/cgroup"
	procSelfMountinfo = "/proc/self/mountinfo"
	unifiedMount      = "/sys/fs/cgroup"
	hybridMount       = "/sys/fs/cgroup/unified"
)

// Detect reports what the machine offers. Its only side effect is creating
// and removing one probe group per controller.
func Detect() Report {
	return detect(probeHost())
}

func detect(h host) Report {
	r := Report{
		Mode:        h.mode,
		Controllers: map[string]bool{"memory": false, "pids": false, "swap": false},
	}
	var dirs, notes []string
	switch h.mode {
	case ModeNone:
		r.Reason = h.reason
		return r
	case ModeV1:
		dirs, notes = detectV1(h, r.Controllers)
	case ModeV2:
		dir, err := dirOf(h.mount2, h.own2)
		if err != nil {
			r.Reason = fmt.Sprintf("cgroup v2: %v", err)
			return r
		}
		dirs, notes = []string{dir}, detectV2(h, dir, r.Controllers)
	}
	var probeNotes []string
	r.Writable, probeNotes = probeWritable(dirs)
	r.Reason = strings.Join(append(notes, probeNotes...), "; ")
	return r
}

// detectV1 finds the memory and pids hierarchies' directories of this
// process, marks what it found in ctls (and swap, from memory's
// memsw files), and says what it found in notes.
func detectV1(h host, ctls map[string]bool) (dirs, notes []string) {
	kind := "legacy"
	if h.hybrid {
		kind = "hybrid"
	}
	notes = append(notes, "cgroup v1 ("+kind+")")
	for _, c := range []string{"memory", "pids"} {
		mnt, ok := h.mounts[c]
		if !ok {
			notes = append(notes, c+" controller not mounted")
			continue
		}
		dir, err := dirOf(mnt, h.own1[c])
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", c, err))
			continue
		}
		ctls[c] = true
		dirs = append(dirs, dir)
		notes = append(notes, fmt.Sprintf("%s at %s", c, dir))
		if c == "memory" {
			ctls["swap"] = exists(filepath.Join(dir, "memory.memsw.limit_in_bytes"))
			if !ctls["swap"] {
				notes = append(notes, "no memory.memsw.* (swap accounting off, boot with swapaccount=1): swap is not capped")
			}
		}
	}
	return dirs, notes
}

// detectV2 marks in ctls the controllers delegated to this process's v2
// cgroup dir (and swap, from memory.swap.max), and says what it found.
func detectV2(h host, dir string, ctls map[string]bool) (notes []string) {
	avail, _ := readTrim(filepath.Join(dir, "cgroup.controllers"))
	have := strings.Fields(avail)
	notes = append(notes, fmt.Sprintf("cgroup v2 at %s (controllers: %s)", dir, avail))
	for _, c := range []string{"memory", "pids"} {
		ctls[c] = slices.Contains(have, c)
		if !ctls[c] {
			notes = append(notes, c+" controller not delegated to this cgroup (run under systemd with Delegate=yes)")
		}
	}
	switch {
	case h.own2 == "/":
		notes = append(notes, "at the root cgroup: swap accounting cannot be checked")
	case ctls["memory"]:
		ctls["swap"] = exists(filepath.Join(dir, "memory.swap.max"))
		if !ctls["swap"] {
			notes = append(notes, "no memory.swap.max (swap accounting off): swap is not capped")
		}
	}
	return notes
}

// probeWritable creates and removes a probe group in each of dirs, and
// reports whether every one could be created.
func probeWritable(dirs []string) (writable bool, notes []string) {
	writable = true
	probe := groupName("probe-", os.Getpid(), 0)
	for _, d := range dirs {
		p := filepath.Join(d, probe)
		if err := os.Mkdir(p, 0o755); err != nil {
			writable = false
			notes = append(notes, fmt.Sprintf("cannot create groups in %s: %v", d, err))
			continue
		}
		if err := rmdirRetry(p); err != nil {
			notes = append(notes, fmt.Sprintf("probe group left behind: %v", err))
		}
	}
	return writable, notes
}

// host is what probeHost found: the mode and where each hierarchy is.
type host struct {
	mode   string
	hybrid bool
	// reason says why mode is none.
	reason string

	// mounts and own1 are, for v1, each controller's mount and the
	// process's own cgroup path in that hierarchy.
	mounts map[string]mount
	own1   map[string]string

	// mount2 and own2 are the v2 mount and own cgroup path.
	mount2 mount
	own2   string
	// requireMemory is false only in tests that drive the v2 code on a
	// unified hierarchy with no controllers.
	requireMemory bool
}

// mount is one cgroup filesystem mount: root is the hierarchy path it shows
// (not "/" inside some containers) and point is where it is mounted.
type mount struct {
	root  string
	point string
}

// dirOf maps a hierarchy path (as in /proc/self/cgroup) to a directory.
func dirOf(m mount, path string) (string, error) {
	rel, err := relInMount(m, path)
	if err != nil {
		return "", err
	}
	return filepath.Join(m.point, rel), nil
}

// relInMount maps a hierarchy path to a path relative to the mount point,
// with a leading "/".
func relInMount(m mount, path string) (string, error) {
	rel, err := filepath.Rel(m.root, filepath.Join("/", path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("cgroup path %q is outside the mount of %q at %s", path, m.root, m.point)
	}
	return filepath.Join("/", rel), nil
}

// probeHost detects the mode with cgroups.Mode and finds the mounts and the
// process's own cgroups. It never fails: problems become mode none and a
// reason.
func probeHost() host {
	h := host{mode: ModeNone, requireMemory: true}
	mode := cgroups.Mode()
	if mode == cgroups.Unavailable {
		h.reason = "no cgroup filesystem mounted at " + unifiedMount
		return h
	}
	mounts, err := readMounts()
	if err != nil {
		h.reason = err.Error()
		return h
	}
	legacy, unified, err := cgroups.ParseCgroupFileUnified(procSelfCgroup)
	if err != nil {
		h.reason = fmt.Sprintf("read %s: %v", procSelfCgroup, err)
		return h
	}
	if mode == cgroups.Unified {
		return probeV2(h, mounts, unifiedMount, unified)
	}
	h.hybrid = mode == cgroups.Hybrid
	h.mounts = make(map[string]mount)
	h.own1 = make(map[string]string)
	for _, c := range []string{"memory", "pids"} {
		for _, e := range mounts {
			if e.fstype != "cgroup" || !slices.Contains(strings.Split(e.super, ","), c) {
				continue
			}
			// containerd/cgroups addresses a v1 controller as
			// <dir>/<controller>, so co-mounted controllers ("cpu,memory")
			// are not supported.
			if filepath.Base(e.point) != c {
				continue
			}
			if own, ok := legacy[c]; ok {
				h.mounts[c] = mount{root: e.root, point: e.point}
				h.own1[c] = own
				break
			}
		}
	}
	if _, ok := h.mounts["memory"]; ok {
		h.mode = ModeV1
		return h
	}
	if h.hybrid {
		// Some hybrid machines put the memory controller on the unified
		// hierarchy.
		if v2 := probeV2(h, mounts, hybridMount, unified); v2.mode == ModeV2 {
			return v2
		}
	}
	h.reason = "cgroup v1: memory controller not mounted (expected at " + unifiedMount + "/memory)"
	return h
}

// probeV2 fills h for the unified hierarchy mounted at point.
func probeV2(h host, mounts []mountEntry, point, own string) host {
	h.mode = ModeNone
	idx := slices.IndexFunc(mounts, func(e mountEntry) bool { return e.fstype == "cgroup2" && e.point == point })
	if idx < 0 {
		h.reason = "cgroup v2: no cgroup2 mount at " + point
		return h
	}
	h.mount2 = mount{root: mounts[idx].root, point: point}
	h.own2 = own
	dir, err := dirOf(h.mount2, own)
	if err != nil {
		h.reason = "cgroup v2: " + err.Error()
		return h
	}
	ctls, err := readTrim(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		h.reason = "cgroup v2: " + err.Error()
		return h
	}
	if h.requireMemory && !slices.Contains(strings.Fields(ctls), "memory") {
		h.reason = fmt.Sprintf("cgroup v2: memory controller not delegated to %s (cgroup.controllers: %q); run under systemd with Delegate=yes", dir, ctls)
		return h
	}
	h.mode = ModeV2
	return h
}

type mountEntry struct {
	root, point, fstype, super string
}

// readMounts returns the cgroup and cgroup2 mounts of /proc/self/mountinfo.
func readMounts() ([]mountEntry, error) {
	f, err := os.Open(procSelfMountinfo)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mountEntry
	s := bufio.NewScanner(f)
	for s.Scan() {
		// id parent major:minor root point options [optional...] - fstype source super
		fields := strings.Fields(s.Text())
		sep := slices.Index(fields, "-")
		if sep < 6 || len(fields) < sep+4 {
			continue
		}
		fstype := fields[sep+1]
		if fstype != "cgroup" && fstype != "cgroup2" {
			continue
		}
		out = append(out, mountEntry{
			root:   unescapeMount(fields[3]),
			point:  unescapeMount(fields[4]),
			fstype: fstype,
			super:  fields[sep+3],
		})
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", procSelfMountinfo, err)
	}
	return out, nil
}

// unescapeMount undoes mountinfo's octal escapes of space, tab, newline
// and backslash.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}
