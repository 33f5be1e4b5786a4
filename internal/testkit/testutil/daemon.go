package testutil

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/childimage"
)

// BuildWarden builds the module's ./cmd/warden as `make build` does
// (static, CGO_ENABLED=0, with the lean child ./cmd/warden-child
// appended: internal/childimage) into dir and returns its path; root is
// the module's root directory. It skips the test when the QuickJS wasm
// the binary embeds is missing.
func BuildWarden(tb testing.TB, root, dir string) string {
	tb.Helper()
	for _, f := range []string{"child/engine/wasm/quickjs.wasm", "child/engine/wasm_embedded.go"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			tb.Skipf("skipping: the QuickJS wasm or the file that embeds it is missing (%v): run `make wasm` to build warden", err)
		}
	}
	bin, child := filepath.Join(dir, "warden"), filepath.Join(dir, "warden-child")
	goBuild(tb, root, child, "-ldflags=-s -w", "./cmd/warden-child")
	goBuild(tb, root, bin, "./cmd/warden")
	w, err := os.OpenFile(bin, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := os.Open(child)
	if err == nil {
		err = childimage.Append(w, c)
		c.Close()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Remove(child)
	}
	if err != nil {
		tb.Fatalf("append the lean child to %s: %v", bin, err)
	}
	return bin
}

// goBuild runs go build -o out with flags in root, as `make build` does.
func goBuild(tb testing.TB, root, out string, args ...string) {
	tb.Helper()
	cmd := exec.Command("go", append([]string{"build", "-o", out}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

// FreeLoopbackAddr is a loopback address whose port was free a moment
// ago, for a daemon process the test starts.
func FreeLoopbackAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TokenSHA256 is the hex SHA-256 of a bearer token, as a tenant's
// configuration (token_sha256, a tokens file) holds it.
func TokenSHA256(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Process is a long-running process (a daemon) a test started with
// StartProcess.
type Process struct {
	// Logs is its stdout and stderr.
	Logs   *SyncBuffer
	exited chan struct{}
	err    error
}

// StartProcess starts cmd with its stdout and stderr in Logs. At cleanup
// the process is killed if it still runs and reaped, and its output is
// logged when the test failed.
func StartProcess(tb testing.TB, cmd *exec.Cmd) *Process {
	tb.Helper()
	p := &Process{Logs: &SyncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.Logs, p.Logs
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	tb.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
		if tb.Failed() {
			tb.Logf("the output of %s:\n%s", filepath.Base(cmd.Path), p.Logs)
		}
	})
	return p
}

// WaitExit waits up to within (0: not at all) for the process to exit:
// whether it did, and its Wait result.
func (p *Process) WaitExit(within time.Duration) (exited bool, err error) {
	if within <= 0 {
		select {
		case <-p.exited:
			return true, p.err
		default:
			return false, nil
		}
	}
	select {
	case <-p.exited:
		return true, p.err
	case <-time.After(within):
		return false, nil
	}
}

// WaitReady polls url until it answers 200, failing the test if p exits
// first or url does not answer within passes.
func WaitReady(tb testing.TB, url string, p *Process, within time.Duration) {
	tb.Helper()
	deadline := time.Now().Add(within)
	for {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if exited, err := p.WaitExit(0); exited {
			tb.Fatalf("the daemon exited before %s answered 200: %v", url, err)
		}
		if time.Now().After(deadline) {
			tb.Fatalf("%s did not answer 200 within %v", url, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
