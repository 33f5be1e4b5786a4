// Package procfs reads what Warden needs of /proc about other processes.
package procfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// Gone reports whether pid is not a running process: it has no /proc
// entry, or it is a zombie waiting to be reaped.
func Gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	// pid (comm) state ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false
	}
	state := b[i+2]
	return state == 'Z' || state == 'X'
}

// WaitGone polls until pid is gone (see Gone) and reports whether it
// went within the timeout.
func WaitGone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for !Gone(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
