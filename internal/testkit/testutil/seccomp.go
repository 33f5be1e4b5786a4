package testutil

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ThreadsSeccomped checks that every thread of process pid runs under
// one seccomp filter more than the test process (the child's) and with
// no_new_privs, and returns how many threads there are.
func ThreadsSeccomped(t testing.TB, pid int) int {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, task := range tasks {
		status, err := os.ReadFile(filepath.Join(dir, task.Name(), "status"))
		if err != nil {
			continue // the thread exited meanwhile
		}
		for _, want := range []string{"Seccomp:\t2\n", "NoNewPrivs:\t1\n", fmt.Sprintf("Seccomp_filters:\t%d\n", seccompOwnFilters(t)+1)} {
			if !bytes.Contains(status, []byte(want)) {
				t.Errorf("thread %s of %d: no %q in its status", task.Name(), pid, strings.TrimSpace(want))
			}
		}
		n++
	}
	return n
}

// seccompOwnFilters is how many seccomp filters the test process itself runs
// under (0 unless an outer sandbox installed some).
func seccompOwnFilters(t testing.TB) int {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^Seccomp_filters:\s+(\d+)$`).FindSubmatch(status)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
