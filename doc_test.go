package warden

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestPublicPackages: every public package with code (not under
// internal/, not a command, not tests alone) is either in the API
// (promised) or marked as the implementation: listed here and saying so
// in its doc comment. A new public package fails this test until it is
// put in one list or the other.
func TestPublicPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/wardenhq/warden"
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := map[string]bool{}
	for dec.More() {
		var p struct {
			ImportPath, Name, Dir string
			GoFiles               []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, mod), "/")
		if rel == "" || p.Name == "main" || len(p.GoFiles) == 0 || strings.HasPrefix(rel+"/", "internal/") || strings.HasPrefix(rel+"/", "tests/") || strings.Contains(rel, "/internal/") {
			continue
		}
		seen[rel] = true
		switch {
		case slices.Contains(promised, rel):
		case slices.Contains(implementation, rel):
			if doc := packageDoc(t, p.Dir, p.GoFiles); !strings.Contains(strings.Join(strings.Fields(doc), " "), implementationLine) {
				t.Errorf("package %s is listed as the implementation, but its doc comment does not say %q", rel, implementationLine)
			}
		default:
			t.Errorf("public package %s is neither in the API (promised, doc.go) nor marked as the implementation: add it to one list", rel)
		}
	}
	for _, rel := range append(slices.Clone(promised), implementation...) {
		if !seen[rel] {
			t.Errorf("doc.go lists %s, which is not a public package with code", rel)
		}
	}
}

// packageDoc is the package's doc comment, from whichever file has one.
func packageDoc(t *testing.T, dir string, files []string) string {
	t.Helper()
	var doc strings.Builder
	for _, f := range files {
		af, err := parser.ParseFile(token.NewFileSet(), dir+"/"+f, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if af.Doc != nil {
			doc.WriteString(af.Doc.Text())
		}
	}
	return doc.String()
}
