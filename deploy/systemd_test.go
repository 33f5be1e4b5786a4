package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/internal/testutil"
)

// TestMain: the test binary is also the child the daemon's supervisor
// re-executes; the tests share a compilation cache and run with a TMPDIR
// of their own, which fails the run if a daemon or child they start
// leaves anything in it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

// unitDirective returns the value of the unit file's directive, or "".
func unitDirective(t *testing.T, unit []byte, name string) string {
	t.Helper()
	for _, l := range strings.Split(string(unit), "\n") {
		if v, ok := strings.CutPrefix(l, name+"="); ok {
			return v
		}
	}
	return ""
}

// TestSystemdUnitVerifies runs `systemd-analyze verify` on the units, as
// installed but with ExecStart pointing at an executable that exists
// here (verify checks that it does), and checks the directives the
// daemon depends on are there.
func TestSystemdUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skipf("systemd-analyze is not installed (Debian's systemd package has it; .ci/run installs it): %v", err)
	}
	unit, err := os.ReadFile("systemd/warden.service")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"Type": "notify", "NotifyAccess": "main", "Delegate": "yes", "KillMode": "mixed",
		"ExecReload": "/bin/kill -HUP $MAINPID", "ExecStart": "/usr/local/bin/warden serve --config /etc/warden/config.yaml",
	} {
		if got := unitDirective(t, unit, name); got != want {
			t.Errorf("%s=%q, want %q", name, got, want)
		}
	}
	if unitDirective(t, unit, "WatchdogSec") == "" {
		t.Error("no WatchdogSec")
	}
	for _, absent := range []string{"MemoryDenyWriteExecute", "PrivateUsers", "ProtectControlGroups", "User", "DynamicUser", "SystemCallFilter", "RestrictNamespaces"} {
		if unitDirective(t, unit, absent) != "" {
			t.Errorf("%s= is set: the daemon cannot work under it (see the unit's comments)", absent)
		}
	}

	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	local := strings.ReplaceAll(string(unit), "/usr/local/bin/warden", exe)
	os.WriteFile(filepath.Join(dir, "warden.service"), []byte(local), 0o644)
	sock, err := os.ReadFile("systemd/warden.socket")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "warden.socket"), sock, 0o644)
	cmd := exec.Command(analyze, "verify", filepath.Join(dir, "warden.service"), filepath.Join(dir, "warden.socket"))
	cmd.Env = append(os.Environ(), "SYSTEMD_LOG_LEVEL=warning")
	out, err := cmd.CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestSystemdCapabilities runs a script through a real supervisor and
// child under exactly the unit's CapabilityBoundingSet and
// NoNewPrivileges (setpriv), so the set the unit grants is known to be
// enough for the daemon's children: their own uid, namespaces, /proc.
func TestSystemdCapabilities(t *testing.T) {
	testutil.RequireRoot(t, "bound root's capabilities as the unit does (the unit runs the daemon as root)")
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skipf("no setpriv (util-linux) to bound the capabilities: %v", err)
	}
	unit, err := os.ReadFile("systemd/warden.service")
	if err != nil {
		t.Fatal(err)
	}
	set := "-all"
	for _, c := range strings.Fields(unitDirective(t, unit, "CapabilityBoundingSet")) {
		set += ",+" + strings.ToLower(strings.TrimPrefix(c, "CAP_"))
	}
	if unitDirective(t, unit, "NoNewPrivileges") != "yes" {
		t.Fatal("the unit does not set NoNewPrivileges=yes, which this test assumes")
	}
	bin := buildWarden(t)
	dir := testutil.TempPublicDir(t)
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte(`console.log("hi"); return input * 2`), 0o644)
	cmd := exec.Command(setpriv, "--no-new-privs", "--bounding-set", set, bin, "run", "--input", "21", "--cache-dir", filepath.Join(dir, "cache"), script)
	out, err := cmd.Output()
	var res struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
		Error any             `json:"error"`
	}
	if err != nil || json.Unmarshal(out, &res) != nil || !res.OK || string(res.Value) != "42" {
		t.Fatalf("under bounding set %s: %v\n%s", set, err, out)
	}
}

// buildWarden builds bin/warden's equivalent (static) into a temporary
// directory.
func buildWarden(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("../child/engine/wasm/quickjs.wasm"); err != nil {
		t.Skipf("the QuickJS wasm is missing (%v): run `make wasm`", err)
	}
	bin := filepath.Join(testutil.TempPublicDir(t), "warden")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/warden")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestPodmanScriptParses checks deploy/podman-run.sh is valid sh (it runs
// in the VM lane, where podman can run containers; this host cannot).
func TestPodmanScriptParses(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("no sh: %v", err)
	}
	if out, err := exec.Command(sh, "-n", "podman-run.sh").CombinedOutput(); err != nil {
		t.Errorf("sh -n podman-run.sh: %v\n%s", err, out)
	}
}
