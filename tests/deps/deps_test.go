package deps

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/wardenhq/warden"

// known names the third-party modules the table may list, as it spells
// them, by module path. A package that imports a module not here fails
// the test: add the module to the table's row and here.
var known = map[string]string{
	"wazero":             "github.com/tetratelabs/wazero",
	"go-plugin":          "github.com/hashicorp/go-plugin",
	"go-hclog":           "github.com/hashicorp/go-hclog",
	"gRPC":               "google.golang.org/grpc",
	"protobuf":           "google.golang.org/protobuf",
	"containerd/cgroups": "github.com/containerd/cgroups/v3",
	"runtime-spec":       "github.com/opencontainers/runtime-spec",
	"x/sys":              "golang.org/x/sys",
	// Intl's collation, language tags and normalization (child/engine/intl).
	"x/text": "golang.org/x/text",
	// Intl.Segmenter's graphemes, words and sentences (UAX #29).
	"uniseg": "github.com/rivo/uniseg",
	// TypeScript's types stripped (internal/typescript).
	"esbuild": "github.com/evanw/esbuild",
	// The MCP server (internal/mcptool, `warden mcp`).
	"go-sdk": "github.com/modelcontextprotocol/go-sdk",
	// The daemon's (server/).
	"prometheus": "github.com/prometheus/client_golang",
	"x/time":     "golang.org/x/time",
	"yaml":       "go.yaml.in/yaml/v3",
	"go-systemd": "github.com/coreos/go-systemd/v22",
	// The image tool (build/image) alone writes OCI images.
	"go-containerregistry": "github.com/google/go-containerregistry",
}

// only says which of our packages alone may import a module directly;
// modules not named here may be imported by any package but supervisor
// and pool, which import nothing third-party (stdOnly).
var only = map[string][]string{
	"wazero":               {"child/engine"},
	"go-plugin":            {"ipc"},
	"go-hclog":             {"ipc"}, // go-plugin's logger: child and supervisor log with slog
	"gRPC":                 {"ipc", "ipc/pb"},
	"protobuf":             {"ipc", "ipc/pb"},
	"containerd/cgroups":   {"cgroup"},
	"runtime-spec":         {"cgroup"}, // the types containerd/cgroups takes
	"prometheus":           {"server"},
	"x/time":               {"server"},
	"yaml":                 {"server"},
	"go-systemd":           {"server"},
	"go-containerregistry": {"build/image"},
	"uniseg":               {"child/engine/intl"},
	"esbuild":              {"internal/typescript", "build/modules"},
	"go-sdk":               {"internal/mcptool", "cmd/warden", "server"},
}

// stdOnly are the packages an embedder links for the public API: they
// import only the standard library and our packages, and never reach,
// even through those, the child or its engine (wazero, seccomp), which
// run in the child binary.
var stdOnly = []string{"supervisor", "pool"}

// listed is what `go list -json` says of one of our packages.
type listed struct {
	ImportPath string
	Imports    []string // non-test imports only
	Deps       []string // transitively, non-test
}

// TestPackageTable checks every package's non-test imports, under each
// build-tag set the tests use, against the rules above and against the
// third-party column of ARCHITECTURE.md's package table.
func TestPackageTable(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("the go command is not on PATH (%v): cannot list the packages' imports", err)
	}
	root := moduleRoot(t)
	rows := readTable(t, filepath.Join(root, "ARCHITECTURE.md"))

	// By table row: the third-party names its packages import directly.
	imported := map[string]map[string]bool{}
	covered := map[string]bool{}
	for _, tags := range []string{"", "wardenfaults"} {
		for _, p := range goList(t, root, tags) {
			rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
			row := rowFor(rows, rel)
			if row == "" {
				if tags == "" {
					t.Errorf("package %s has no row in ARCHITECTURE.md's package table", rel)
				}
				continue
			}
			covered[row] = true
			if imported[row] == nil {
				imported[row] = map[string]bool{}
			}
			direct := map[string]bool{}
			for _, imp := range p.Imports {
				name, ok := thirdParty(imp)
				if !ok {
					continue
				}
				if name == "" {
					t.Errorf("%s imports %s, from a module the table does not know: name it in the package's row and in known (deps_test.go)", rel, imp)
					continue
				}
				imported[row][name] = true
				direct[name] = true
				if owners, ruled := only[name]; ruled && !slices.Contains(owners, rel) {
					t.Errorf("%s imports %s (%s): only %s may", rel, imp, name, strings.Join(owners, ", "))
				}
				if slices.Contains(stdOnly, rel) {
					t.Errorf("%s imports %s (%s): it may import only the standard library and our packages", rel, imp, name)
				}
			}
			if slices.Contains(stdOnly, rel) {
				var reached []string
				for _, d := range p.Deps {
					switch {
					case d == module+"/child" || strings.HasPrefix(d, module+"/child/"):
						reached = append(reached, strings.TrimPrefix(d, module+"/"))
					case d == known["wazero"]:
						reached = append(reached, d)
					}
				}
				if len(reached) > 0 {
					t.Errorf("%s reaches %s (-tags=%q): an embedder of the API would link the child and its engine", rel, strings.Join(reached, ", "), tags)
				}
			}
			if tags == "" {
				t.Logf("%-18s %s", rel, strings.Join(names(direct), ", "))
			}
		}
	}
	for row, want := range rows {
		if !covered[row] {
			t.Errorf("ARCHITECTURE.md's package table has a row for %s/, which is no package", row)
			continue
		}
		if got := names(imported[row]); !slices.Equal(got, want) {
			t.Errorf("ARCHITECTURE.md's package table says %s/ imports %q of the third-party modules, but it imports %q", row, want, got)
		}
	}
	for _, p := range stdOnly {
		if !covered[p] {
			t.Errorf("no package %s to check", p)
		}
	}
}

// moduleRoot is the directory of go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// goList lists the module's packages with their non-test imports.
func goList(t *testing.T, root, tags string) []listed {
	t.Helper()
	// -e: a package with an error (the QuickJS wasm not fetched yet) is
	// still listed with its imports.
	cmd := exec.Command("go", "list", "-e", "-tags="+tags, "-json=ImportPath,Imports,Deps", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -tags=%q: %v\n%s", tags, err, stderr.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list listed no package")
	}
	return pkgs
}

// thirdParty reports whether imp is outside the standard library and
// this module and, if so, the table's name for its module ("" when the
// module is not known).
func thirdParty(imp string) (string, bool) {
	first, _, _ := strings.Cut(imp, "/")
	if !strings.Contains(first, ".") || imp == module || strings.HasPrefix(imp, module+"/") {
		return "", false
	}
	for name, mod := range known {
		if imp == mod || strings.HasPrefix(imp, mod+"/") {
			return name, true
		}
	}
	return "", true
}

// readTable reads the package table: for each row, by package directory
// (without its slash), the third-party names of its last column, sorted.
// Text in parentheses there is commentary; "none" is no module.
func readTable(t *testing.T, path string) map[string][]string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(src), "\n| package | owns | third-party imports |\n")
	if !ok {
		t.Fatalf("%s: no package table (a header row \"| package | owns | third-party imports |\")", path)
	}
	table, _, _ = strings.Cut(table, "\n\n")
	paren := regexp.MustCompile(`\([^)]*\)`)
	rows := map[string][]string{}
	for _, line := range strings.Split(table, "\n")[1:] { // after the |---| line
		cells := strings.Split(line, "|")
		if len(cells) != 5 {
			t.Fatalf("%s: a package table row without exactly three cells: %s", path, line)
		}
		pkg := strings.TrimSuffix(strings.Trim(strings.TrimSpace(cells[1]), "`"), "/")
		var want []string
		for _, name := range strings.Split(paren.ReplaceAllString(cells[3], ""), ",") {
			name = strings.TrimSpace(name)
			if name == "" || name == "none" {
				continue
			}
			if _, ok := known[name]; !ok {
				t.Errorf("%s: the row of %s/ names %q, which is not a module the test knows (known in deps_test.go)", path, pkg, name)
			}
			want = append(want, name)
		}
		slices.Sort(want)
		rows[pkg] = want
	}
	if len(rows) == 0 {
		t.Fatalf("%s: the package table has no rows", path)
	}
	return rows
}

// rowFor is the row covering package rel: its own, or its closest
// parent's (ipc/ covers ipc/pb).
func rowFor(rows map[string][]string, rel string) string {
	if rel == "" {
		rel = "." // the module's root package
	}
	for p := rel; ; {
		if _, ok := rows[p]; ok {
			return p
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			return ""
		}
		p = p[:i]
	}
}

func names(set map[string]bool) []string {
	var s []string
	for n := range set {
		s = append(s, n)
	}
	slices.Sort(s)
	return s
}
