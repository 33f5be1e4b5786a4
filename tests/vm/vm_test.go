// Package vm is the VM test lane's driver (`make vmtest`): it boots the
// images tests/vm/build.sh made under qemu and turns the guests' serial
// console into one subtest per check. The checks themselves run inside
// the guests (cgroup-checks.sh, systemd-checks.sh); each prints one line
// (lib.sh) and the guest ends with "N passed, N failed".
package vm

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// dirEnv names the directory build.sh wrote (its out/ subdirectory holds
// the kernel and the initramfs images). make vmtest sets it; without it
// the lane is not run.
const dirEnv = "WARDEN_VM_DIR"

var (
	checkLine   = regexp.MustCompile(`vmcheck: (PASS|FAIL|SKIP) ([^:\s]+)(?::\s*(.*))?$`)
	summaryLine = regexp.MustCompile(`^(\d+) passed, (\d+) failed\s*$`)
)

// result is one check as its guest reported it.
type result struct {
	status, name, reason string
}

// guest is one boot: which image, and its bounds.
type guest struct {
	name    string
	initrd  string
	append  string
	memMiB  int
	timeout time.Duration
}

func vmDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(dirEnv)
	if dir == "" {
		t.Skipf("skipping: the VM lane runs through `make vmtest` (which sets %s after building the images)", dirEnv)
	}
	return filepath.Join(dir, "out")
}

// TestCgroupV2 boots the busybox initramfs: cgroup v2 alone, as root,
// and the cgroup-related tests of ./cgroup, ./supervisor, ./tests and
// ./tests/vm/guest (cgroup-checks.sh).
func TestCgroupV2(t *testing.T) {
	t.Parallel()
	out := vmDir(t)
	runGuest(t, out, guest{
		name:    "cgroup",
		initrd:  filepath.Join(out, "cgroup.cpio"),
		append:  "console=ttyS0 panic=-1 quiet loglevel=3 rdinit=/init",
		memMiB:  1024,
		timeout: durationEnv("WARDEN_VM_CGROUP_TIMEOUT", 300*time.Second),
	})
}

// TestSystemd boots the mmdebstrap'd systemd root filesystem, packed as
// an initramfs, and runs systemd-checks.sh as a unit.
func TestSystemd(t *testing.T) {
	t.Parallel()
	out := vmDir(t)
	img := filepath.Join(out, "systemd.cpio")
	if _, err := os.Stat(img); err != nil {
		if os.Getenv("WARDEN_VM_SYSTEMD") == "0" {
			t.Skip("skipping: WARDEN_VM_SYSTEMD=0 (no systemd image built)")
		}
		t.Fatalf("no systemd image: %v", err)
	}
	runGuest(t, out, guest{
		name:   "systemd",
		initrd: img,
		// The getty would wait for its serial device; the console is ours.
		append: "console=ttyS0 panic=-1 quiet loglevel=3 systemd.show_status=0 systemd.mask=serial-getty@ttyS0.service systemd.mask=getty.target",
		// The root filesystem lives in a tmpfs of half the memory: with
		// podman, the image and its unpacked copy, 1 GiB leaves no room.
		memMiB:  2048,
		timeout: durationEnv("WARDEN_VM_SYSTEMD_TIMEOUT", 480*time.Second),
	})
}

// runGuest boots g, copies its console to g.name.log (and to stdout with
// -v), then reports each check as a subtest.
func runGuest(t *testing.T, out string, g guest) {
	accel := accelerator(t, out)
	logPath := filepath.Join(out, g.name+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	ctx, cancel := context.WithTimeout(context.Background(), g.timeout)
	defer cancel()
	start := time.Now()
	var results []result
	summary := ""
	err = boot(ctx, out, accel, g, func(line string) {
		fmt.Fprintln(logf, line)
		if testing.Verbose() {
			fmt.Println(g.name + "| " + line)
		}
		if m := checkLine.FindStringSubmatch(line); m != nil {
			results = append(results, result{m[1], m[2], m[3]})
		} else if summaryLine.MatchString(strings.TrimSpace(line)) {
			summary = strings.TrimSpace(line)
		}
	})
	t.Logf("%s guest: %s, %v of wall time, console in %s", g.name, accel, time.Since(start).Round(time.Second), logPath)
	if err != nil {
		t.Errorf("qemu: %v", err)
	}
	passed, failed := 0, 0
	for _, r := range results {
		t.Run(r.name, func(t *testing.T) {
			switch r.status {
			case "PASS":
				passed++
			case "SKIP":
				t.Skipf("expected skip: %s", r.reason)
			default:
				failed++
				t.Errorf("%s (guest console: %s)", r.reason, logPath)
			}
		})
	}
	if summary == "" {
		t.Fatalf("the guest never printed its \"N passed, N failed\" line (crashed or ran out of time after %d checks); see %s", len(results), logPath)
	}
	if want := fmt.Sprintf("%d passed, %d failed", passed, failed); summary != want {
		t.Errorf("guest summary %q, but its check lines count %q", summary, want)
	}
	t.Logf("%s guest: %s", g.name, summary)
}

// boot runs qemu until the guest powers off or ctx ends, calling line for
// each line of its serial console.
func boot(ctx context.Context, out, accel string, g guest, line func(string)) error {
	args := []string{
		"-accel", accel + map[string]string{"tcg": ",thread=multi"}[accel], "-cpu", "max", "-smp", "2", "-m", strconv.Itoa(g.memMiB),
		"-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
		"-serial", "stdio", "-monitor", "none",
		"-kernel", filepath.Join(out, "vmlinuz"), "-initrd", g.initrd,
		"-append", g.append,
	}
	if accel == "kvm" {
		args[3] = "host"
	}
	cmd := exec.CommandContext(ctx, "qemu-system-x86_64", args...)
	cmd.WaitDelay = 5 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	readLines(stdout, line)
	err = cmd.Wait()
	if ctx.Err() != nil {
		return fmt.Errorf("the guest did not power off within %v: %w", g.timeout, ctx.Err())
	}
	return err
}

// readLines calls line for each line of r, without the carriage returns
// a serial console adds.
func readLines(r io.Reader, line func(string)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line(strings.TrimRight(sc.Text(), "\r"))
	}
}

// accelerator is "kvm" when /dev/kvm is there and a short boot of the
// probe image completes with it, else "tcg" (on this CI machine KVM's
// device exists but a boot hangs). WARDEN_VM_ACCEL forces one.
func accelerator(t *testing.T, out string) string {
	if a := os.Getenv("WARDEN_VM_ACCEL"); a != "" {
		return a
	}
	probeOnce.Do(func() {
		probed = "tcg"
		if f, err := os.OpenFile("/dev/kvm", os.O_RDWR, 0); err != nil {
			t.Logf("no KVM (%v): TCG", err)
			return
		} else {
			f.Close()
		}
		g := guest{name: "probe", initrd: filepath.Join(out, "probe.cpio"), append: "console=ttyS0 panic=-1 quiet rdinit=/init", memMiB: 256,
			timeout: durationEnv("WARDEN_VM_KVM_PROBE", 15*time.Second)}
		ctx, cancel := context.WithTimeout(context.Background(), g.timeout)
		defer cancel()
		ok := false
		err := boot(ctx, out, "kvm", g, func(l string) { ok = ok || strings.Contains(l, "vmprobe: ok") })
		if ok {
			probed = "kvm"
			return
		}
		t.Logf("KVM boot probe failed (%v): TCG", err)
	})
	return probed
}

var (
	probeOnce sync.Once
	probed    string
)

func durationEnv(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil {
		return d
	}
	return def
}
