package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWazeroPatchRefusesWhatItWasNotWrittenFor: build/wazero/apply.sh,
// which `make build` and `make test` run, fails loudly and leaves no
// patched module behind when go.mod's wazero is a version the patch was
// not written for (a version bump), and when the patch does not apply
// cleanly to the source (checked with --dry-run first: never half
// applied). It runs the script on a copy of the repository's go.mod,
// go.sum and build/wazero, so it needs wazero's source in the module
// cache (`go mod download`) and the patch program.
func TestWazeroPatchRefusesWhatItWasNotWrittenFor(t *testing.T) {
	for _, cmd := range []string{"sh", "patch", "go"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Skipf("skipping: needs %s: %v", cmd, err)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	patches, _ := filepath.Glob(filepath.Join(root, "build", "wazero", "v*.patch"))
	if len(patches) != 1 {
		t.Fatalf("want one patch in build/wazero, got %q", patches)
	}
	version := strings.TrimSuffix(filepath.Base(patches[0]), ".patch")
	patch, err := os.ReadFile(patches[0])
	if err != nil {
		t.Fatal(err)
	}
	// A hunk whose context no longer matches the source: the first
	// context line of the first hunk, changed.
	broken := breakFirstHunk(t, string(patch))

	for _, tc := range []struct {
		name, patchName, patch, want string
	}{
		{"version bump", "v0.0.1.patch", string(patch), "but the patch is for v0.0.1"},
		{"patch does not apply", version + ".patch", broken, "does not apply to wazero " + version},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{"go.mod", "go.sum"} {
				copyFile(t, filepath.Join(root, f), filepath.Join(dir, f))
			}
			copyFile(t, filepath.Join(root, "build", "wazero", "apply.sh"), filepath.Join(dir, "build", "wazero", "apply.sh"))
			if err := os.WriteFile(filepath.Join(dir, "build", "wazero", tc.patchName), []byte(tc.patch), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			cmd := exec.Command("sh", filepath.Join(dir, "build", "wazero", "apply.sh"), out)
			cmd.Dir = dir
			msg, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(msg), tc.want) {
				t.Fatalf("want apply.sh to fail saying %q, got %v: %s", tc.want, err, msg)
			}
			for _, f := range []string{"wazero", "wazero.tmp", "go.mod", "stamp"} {
				if _, err := os.Lstat(filepath.Join(out, f)); err == nil {
					t.Errorf("apply.sh failed but left %s behind", f)
				}
			}
			t.Logf("%s", msg)
		})
	}
}

// breakFirstHunk changes the first context line (" ...") after the first
// hunk header of a unified diff.
func breakFirstHunk(t *testing.T, patch string) string {
	t.Helper()
	lines := strings.Split(patch, "\n")
	inHunk := false
	for i, l := range lines {
		if strings.HasPrefix(l, "@@") {
			inHunk = true
			continue
		}
		if inHunk && strings.HasPrefix(l, " ") && strings.TrimSpace(l) != "" {
			lines[i] = l + " // changed upstream"
			return strings.Join(lines, "\n")
		}
	}
	t.Fatal("no context line in the patch")
	return ""
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
