package server

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestOpenAPIMatchesRoutes: api/openapi.yaml lists exactly the routes the
// server registers, each with exactly the methods and statuses it can
// answer.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	b, err := os.ReadFile("../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string                          `yaml:"openapi"`
		Paths   map[string]map[string]yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi %q, want 3.x", doc.OpenAPI)
	}
	seen := map[string]bool{}
	for _, r := range Routes {
		ops, ok := doc.Paths[r.Pattern]
		if !ok {
			t.Errorf("route %s is not in the document", r.Pattern)
			continue
		}
		seen[r.Pattern] = true
		for method, statuses := range r.Methods {
			node, ok := ops[strings.ToLower(method)]
			if !ok {
				t.Errorf("%s %s is not in the document", method, r.Pattern)
				continue
			}
			var op struct {
				Responses map[string]yaml.Node `yaml:"responses"`
			}
			node.Decode(&op)
			resp := op.Responses
			var got []int
			for code := range resp {
				c, err := strconv.Atoi(code)
				if err != nil {
					t.Errorf("%s %s: response %q is not a status", method, r.Pattern, code)
				}
				got = append(got, c)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(statuses))
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: the document says %v, the server answers %v", method, r.Pattern, got, want)
			}
		}
		for m := range ops {
			if m == "parameters" || m == "summary" || m == "description" {
				continue
			}
			if _, ok := r.Methods[strings.ToUpper(m)]; !ok {
				t.Errorf("the document has %s %s, which the server does not serve", strings.ToUpper(m), r.Pattern)
			}
		}
	}
	for p := range doc.Paths {
		if !seen[p] {
			t.Errorf("the document has %s, which the server does not register", p)
		}
	}
}

// TestStatusTableMatchesRoutes: docs/daemon.md's status table has a row
// for exactly the statuses the routes answer, plus 404 and 405 for
// requests no route takes.
func TestStatusTableMatchesRoutes(t *testing.T) {
	b, err := os.ReadFile("../docs/daemon.md")
	if err != nil {
		t.Fatal(err)
	}
	var table []int
	for _, m := range regexp.MustCompile(`(?m)^\| ([0-9]{3}) \|`).FindAllStringSubmatch(string(b), -1) {
		n, _ := strconv.Atoi(m[1])
		table = append(table, n)
	}
	want := []int{404, 405}
	for _, r := range Routes {
		for _, st := range r.Methods {
			want = append(want, st...)
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	slices.Sort(table)
	if !slices.Equal(table, want) {
		t.Fatalf("docs/daemon.md's table has %v, the routes answer %v", table, want)
	}
}
