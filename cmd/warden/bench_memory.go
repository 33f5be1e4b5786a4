package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/wardenhq/warden/internal/median"
)

// idleMemory is what idle children hold, from /proc/PID/smaps_rollup
// (medians over the children measured, in KiB): Private is
// Private_Clean + Private_Dirty, the memory no other process shares
// (the target is per idle child); Pss charges each shared page
// to its sharers; Rss counts every resident page.
type idleMemory struct {
	Children     int     `json:"children"`
	PrivateKiB   float64 `json:"private_kib"`
	PrivateClean float64 `json:"private_clean_kib"`
	PrivateDirty float64 `json:"private_dirty_kib"`
	AnonymousKiB float64 `json:"anonymous_kib"`
	PssKiB       float64 `json:"pss_kib"`
	RssKiB       float64 `json:"rss_kib"`
	Note         string  `json:"note,omitempty"`
}

// measureIdleMemory reads smaps_rollup of every live child of this
// process (the pool's idle children, when called between runs).
func measureIdleMemory() idleMemory {
	var cols [6][]float64
	n := 0
	var lastErr error
	for _, pid := range childPIDs() {
		f, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		if err != nil {
			lastErr = err
			continue
		}
		v := smapsRollup(bytes.NewReader(f))
		for i, k := range []string{"Private_Clean", "Private_Dirty", "Anonymous", "Pss", "Rss"} {
			cols[i] = append(cols[i], v[k])
		}
		cols[5] = append(cols[5], v["Private_Clean"]+v["Private_Dirty"])
		n++
	}
	m := idleMemory{Children: n}
	if n == 0 {
		m.Note = "no idle child could be read"
		if lastErr != nil {
			m.Note += ": " + lastErr.Error()
		}
		return m
	}
	m.PrivateClean, m.PrivateDirty, m.AnonymousKiB = median.Of(cols[0]), median.Of(cols[1]), median.Of(cols[2])
	m.PssKiB, m.RssKiB, m.PrivateKiB = median.Of(cols[3]), median.Of(cols[4]), median.Of(cols[5])
	return m
}

// smapsRollup parses the "Name: N kB" lines of smaps_rollup.
func smapsRollup(r io.Reader) map[string]float64 {
	v := map[string]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) != 3 || string(f[2]) != "kB" || !bytes.HasSuffix(f[0], []byte(":")) {
			continue
		}
		if n, err := strconv.ParseFloat(string(f[1]), 64); err == nil {
			v[string(bytes.TrimSuffix(f[0], []byte(":")))] = n
		}
	}
	return v
}

func printIdleMemory(w io.Writer, m *idleMemory) {
	if m == nil {
		return
	}
	if m.Children == 0 {
		fmt.Fprintf(w, "idle child memory: %s\n", m.Note)
		return
	}
	fmt.Fprintf(w, "idle child memory (smaps_rollup, median of %d): private %.1f MiB (clean %.1f, dirty %.1f; anonymous %.1f), Pss %.1f MiB, Rss %.1f MiB\n",
		m.Children, m.PrivateKiB/1024, m.PrivateClean/1024, m.PrivateDirty/1024, m.AnonymousKiB/1024, m.PssKiB/1024, m.RssKiB/1024)
}
