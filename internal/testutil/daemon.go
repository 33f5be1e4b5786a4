package testutil

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BuildWarden builds the module's ./cmd/warden as `make build` does
// (static, CGO_ENABLED=0) into dir and returns its path; root is the
// module's root directory. It skips the test when the QuickJS wasm the
// binary embeds is missing.
func BuildWarden(tb testing.TB, root, dir string) string {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(root, "child/engine/wasm/quickjs.wasm")); err != nil {
		tb.Skipf("skipping: the QuickJS wasm is missing (%v): run `make wasm` to build warden", err)
	}
	bin := filepath.Join(dir, "warden")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/warden")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./cmd/warden: %v\n%s", err, out)
	}
	return bin
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

// WaitReady polls url until it answers 200, failing the test if exited
// (the daemon process's Wait result, put back for the caller) delivers
// first or within passes.
func WaitReady(tb testing.TB, url string, exited chan error, within time.Duration) {
	tb.Helper()
	deadline := time.Now().Add(within)
	for {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-exited:
			exited <- err
			tb.Fatalf("the daemon exited before %s answered 200: %v", url, err)
		default:
		}
		if time.Now().After(deadline) {
			tb.Fatalf("%s did not answer 200 within %v", url, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
