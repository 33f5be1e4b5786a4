package child

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/wardenhq/warden/internal/pagemap"
	"github.com/wardenhq/warden/ipc"
)

// keepWarm re-reads a child's resident memory while it waits for its
// execution. On the VMs Warden is measured on, memory left untouched for
// seconds gets slow to touch again: the same warm execution costs the
// child more CPU the longer it idled, with the same number of page
// faults (the host, not the guest, makes it slow). Reading one byte of
// every page that was resident when start-up ended, once per interval,
// keeps it warm for a little CPU per idle child (BENCHMARKS.md, "Where
// the warm path goes", has the figures with and without). A pass reads
// only pages that were already resident, so RSS does not grow, and makes
// no system call but the sleeps between chunks.
type keepWarm struct {
	pages    []uintptr
	interval time.Duration
	stopped  atomic.Bool
	passes   atomic.Int64
	dropped  atomic.Int64 // pages that faulted (unmapped since) and were dropped
}

// warmChunk is how many pages a pass reads between yields: a request
// that arrives mid-pass waits for at most one chunk (BENCHMARKS.md,
// "Behind the comments").
const warmChunk = 256

// startKeepWarm lists the pages resident now (it reads /proc/self/maps
// and pagemap, so it must run before the seccomp filter goes on) and
// re-reads them every interval until Stop.
func startKeepWarm(interval time.Duration) (*keepWarm, error) {
	pages, err := residentPages()
	if err != nil {
		return nil, err
	}
	k := &keepWarm{pages: pages, interval: max(interval, ipc.MinKeepWarm)}
	go k.loop()
	return k, nil
}

// Stop ends the loop; a pass in progress stops at its next chunk.
func (k *keepWarm) Stop() {
	if k != nil {
		k.stopped.Store(true)
	}
}

func (k *keepWarm) loop() {
	for !k.stopped.Load() {
		time.Sleep(k.interval)
		k.pass()
	}
}

// pass reads one byte of each listed page, yielding between chunks so
// that the child's one P can serve the network.
func (k *keepWarm) pass() {
	// A page unmapped since the list was made faults: with this set, the
	// fault is a panic that readPages recovers from, not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var sink byte
	for i := 0; i < len(k.pages); {
		if k.stopped.Load() {
			return
		}
		end := min(i+warmChunk, len(k.pages))
		i = k.readPages(i, end, &sink)
		time.Sleep(time.Microsecond)
	}
	k.passes.Add(1)
}

// readPages reads pages[i:end] and returns where it stopped: end, or
// just past a page that faulted, which it drops from the list.
func (k *keepWarm) readPages(i, end int, sink *byte) (next int) {
	defer func() {
		if recover() != nil {
			k.pages = append(k.pages[:next], k.pages[next+1:]...)
			k.dropped.Add(1)
		}
	}()
	for next = i; next < end; next++ {
		// The addresses are not Go pointers and are kept as integers, so
		// that the collector never sees them; each becomes a pointer only
		// for its one read.
		*sink += *(*byte)(unsafe.Add(nil, k.pages[next]))
	}
	return next
}

// residentPages lists the pages of the process's readable mappings that
// are present in memory, from /proc/self/maps and /proc/self/pagemap.
// The kernel's special mappings ([vvar], [vsyscall], [vdso]) are left
// out.
func residentPages() ([]uintptr, error) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return nil, err
	}
	if !pagemap.Open() {
		return nil, errors.New("child: /proc/self/pagemap cannot be read")
	}
	pageSize := uint64(os.Getpagesize())
	var pages []uintptr
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// start-end perms offset dev inode [path]
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || fields[1][0] != 'r' {
			continue
		}
		if len(fields) >= 6 && strings.HasPrefix(fields[5], "[") && fields[5] != "[heap]" && fields[5] != "[stack]" {
			continue
		}
		lo, hi, ok := pagemap.MapsRange(fields[0])
		if !ok {
			continue
		}
		first := lo / pageSize
		entries, ok := pagemap.Entries(uintptr(first), uintptr((hi-lo)/pageSize))
		if !ok {
			continue
		}
		for j, e := range entries {
			if e&pagemap.Present != 0 {
				pages = append(pages, uintptr((first+uint64(j))*pageSize))
			}
		}
	}
	return pages, sc.Err()
}
