package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// maxInitBytes bounds what each of Warden's packages may allocate in its
// package init. Every child runs this binary's package inits before its
// main, including those of code only the supervisor or doctor uses, so
// work done there is paid once per execution. The generated protobuf
// package registers its descriptors and is exempt.
const maxInitBytes = 8 << 10

// TestPackageInitsAreCheap runs this test binary with the runtime's init
// trace and checks what Warden's packages allocate at init (a bound on
// bytes, not on time: the trace's clock is too noisy to assert on).
func TestPackageInitsAreCheap(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run the test binary: %v\n%s", err, stderr.Bytes())
	}
	line := regexp.MustCompile(`^init (\S+) @.* ([0-9]+) bytes, [0-9]+ allocs$`)
	seen := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil || !strings.HasPrefix(m[1], "github.com/wardenhq/warden/") || m[1] == "github.com/wardenhq/warden/ipc/pb" {
			continue
		}
		seen++
		if n, _ := strconv.Atoi(m[2]); n > maxInitBytes {
			t.Errorf("package %s allocates %d bytes at init (at most %d): every child pays for it", m[1], n, maxInitBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of a Warden package in:\n%s", stderr.Bytes())
	}
}
