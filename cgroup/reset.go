//go:build linux

package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Reset makes an empty group ready for another process: the peak memory
// use and failure counts start again from what is charged now, pids.max
// (which Kill sets to 0) is the cap again, and every cap reads back as
// Create applied it. The OOM-kill count cannot be reset: callers compare
// with a baseline taken when the next process is ready, as they do for a
// fresh group. After an error (wrapping ErrNotReset) Delete the group.
func (g *Group) Reset() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted {
		return ErrDeleted
	}
	pids, err := readProcs(g.dirList())
	if err == nil && len(pids) > 0 {
		err = fmt.Errorf("processes %v are still in it", pids)
	}
	if err == nil {
		var peak *os.File
		if peak, err = g.version.reset(g.memDir, g.pidsDir, g.lim, g.peak); err == nil && peak != g.peak {
			if g.peak != nil {
				g.peak.Close()
			}
			g.peak = peak
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %q: %w", ErrNotReset, g.name, err)
	}
	return nil
}

// checkResidual fails when more than MaxResidualBytes is charged to the
// group whose current usage file is path.
func checkResidual(path string) error {
	n, err := readUint(path)
	if err != nil {
		return err
	}
	if n > MaxResidualBytes {
		return fmt.Errorf("%d bytes are still charged to it (at most %d)", n, MaxResidualBytes)
	}
	return nil
}

// resetCommon is what v1 and v2 reset alike: the pids cap, and the
// memory still charged (read from usage in memDir, "" without a memory
// controller, which it returns for the caller to go on with).
func resetCommon(memDir, pidsDir string, lim Limits, usage string) (string, error) {
	if err := resetPids(pidsDir, lim); err != nil {
		return "", err
	}
	if memDir == "" {
		return "", nil
	}
	return memDir, checkResidual(filepath.Join(memDir, usage))
}

// resetPids writes the pids cap again (Kill set it to 0) and reads it
// back; the group's task count must be 0.
func resetPids(pidsDir string, lim Limits) error {
	if pidsDir == "" {
		return nil
	}
	if n, err := readUint(filepath.Join(pidsDir, "pids.current")); err != nil || n != 0 {
		return fmt.Errorf("pids.current is %d (%v)", n, err)
	}
	want := "max"
	if lim.PidsMax > 0 {
		want = strconv.FormatInt(lim.PidsMax, 10)
	}
	if err := os.WriteFile(filepath.Join(pidsDir, "pids.max"), []byte(want), 0); err != nil {
		return err
	}
	return checkValue(pidsDir, "pids.max", want)
}

// reset on v1: max_usage_in_bytes and failcnt (and their memsw twins,
// where swap is capped) take a write of 0; the caps are read back.
func (v *v1Group) reset(memDir, pidsDir string, lim Limits, peak *os.File) (*os.File, error) {
	if memDir, err := resetCommon(memDir, pidsDir, lim, "memory.usage_in_bytes"); err != nil || memDir == "" {
		return peak, err
	}
	counters := []string{"memory.max_usage_in_bytes", "memory.failcnt"}
	swap := exists(filepath.Join(memDir, "memory.memsw.max_usage_in_bytes"))
	if swap {
		counters = append(counters, "memory.memsw.max_usage_in_bytes", "memory.memsw.failcnt")
	}
	for _, f := range counters {
		if err := os.WriteFile(filepath.Join(memDir, f), []byte("0"), 0); err != nil {
			return nil, err
		}
	}
	if err := checkMemoryCapsV1(memDir, lim, swap); err != nil {
		return nil, err
	}
	return peak, nil
}

// reset on v2: memory.peak is reset by a write to an open descriptor,
// for reads through that descriptor (kernel 6.12+), so the group's peak
// file becomes that descriptor; an older kernel refuses the write and
// the group is not reset. The caps are read back.
func (v *v2Group) reset(memDir, pidsDir string, lim Limits, _ *os.File) (*os.File, error) {
	if memDir, err := resetCommon(memDir, pidsDir, lim, "memory.current"); err != nil || memDir == "" {
		return nil, err
	}
	peak, err := os.OpenFile(filepath.Join(memDir, "memory.peak"), os.O_RDWR, 0)
	if err == nil {
		if _, err = peak.Write([]byte("reset\n")); err != nil {
			peak.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w (memory.peak, 6.12+): %w", ErrResetUnsupported, err)
	}
	if err := v.checkMemoryCaps(lim, exists(filepath.Join(v.dir, "memory.swap.max"))); err != nil {
		peak.Close()
		return nil, err
	}
	return peak, nil
}
