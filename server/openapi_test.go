package server

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/wardenhq/warden/contract"
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

// openAPIDoc is api/openapi.yaml as plain maps.
func openAPIDoc(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// at walks doc by keys; a "$ref" met on the way is followed.
func at(doc map[string]any, keys ...string) map[string]any { return walk(doc, doc, keys...) }

// walk walks from cur by keys, following a "$ref" within doc.
func walk(doc, cur map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, _ := cur[k].(map[string]any)
		if ref, ok := next["$ref"].(string); ok {
			next = at(doc, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...)
		}
		if next == nil {
			return nil
		}
		cur = next
	}
	return cur
}

// TestOpenAPIMatchesDecoding: the schemas say what the strict decoder
// does: the request's and the limits' properties are exactly the Go
// types' JSON names, none extra allowed; every limit is bounded to
// [0, MaxInt64] (each branch of a oneOf too); a data answer has exactly
// one member; the execution id's pattern accepts what the server does
// (empty is absent); every operation has an id and every link names
// one; the Event schema has one branch per event type.
func TestOpenAPIMatchesDecoding(t *testing.T) {
	doc := openAPIDoc(t)
	schemas := func(name string) map[string]any { return at(doc, "components", "schemas", name) }
	props := func(s map[string]any) []string {
		p, _ := s["properties"].(map[string]any)
		return slices.Sorted(maps.Keys(p))
	}
	keys := func(v any) []string {
		var m map[string]any
		b, _ := json.Marshal(v)
		json.Unmarshal(b, &m)
		return slices.Sorted(maps.Keys(m))
	}
	for name, want := range map[string][]string{
		"ExecuteRequest": {"code", "deterministic", "format", "input", "language", "limits", "modules", "park"},
		"Limits":         keys(contract.Limits{}),
		"Deterministic":  keys(contract.Deterministic{}),
	} {
		s := schemas(name)
		if got := props(s); !slices.Equal(got, want) || s["additionalProperties"] != false {
			t.Errorf("%s: properties %v (additionalProperties %v), want exactly %v", name, got, s["additionalProperties"], want)
		}
	}
	if got := slices.Sorted(maps.Keys(fieldNames(reflect.TypeFor[executeBody]()))); !slices.Equal(got, props(schemas("ExecuteRequest"))) {
		t.Errorf("executeBody's fields %v are not ExecuteRequest's", got)
	}
	for _, limit := range props(schemas("Limits")) {
		s := at(doc, "components", "schemas", "Limits", "properties", limit)
		branches := []map[string]any{s}
		if one, ok := s["oneOf"].([]any); ok {
			branches = nil
			for _, b := range one {
				branches = append(branches, b.(map[string]any))
			}
		}
		for _, br := range branches {
			lo, hasLo := br["minimum"].(int)
			hi, _ := br["maximum"].(int)
			enum, isEnum := br["enum"].([]any)
			if br["type"] != "integer" || (!isEnum && (!hasLo || lo < 0 || hi != math.MaxInt64)) || (isEnum && !slices.Equal(enum, []any{0})) {
				t.Errorf("limit %s: %v is not an integer within [0, MaxInt64]", limit, br)
			}
		}
	}
	if a := schemas("DataAnswer"); a["minProperties"] != 1 || a["maxProperties"] != 1 || len(a["oneOf"].([]any)) != 3 {
		t.Errorf("DataAnswer does not say exactly one of value, error and park: %v", a)
	}
	var events []string
	branches, _ := schemas("Event")["oneOf"].([]any)
	for _, br := range branches {
		s := walk(doc, map[string]any{"branch": br}, "branch")
		events = append(events, walk(doc, s, "properties", "type")["enum"].([]any)[0].(string))
	}
	if want := []string{"data_request", "log", "result", "started"}; !slices.Equal(slices.Sorted(slices.Values(events)), want) {
		t.Errorf("Event's branches %v, want one per event type %v", events, want)
	}
	checkIDPattern(t, doc)
	checkLinks(t, doc)
}

// fieldNames is t's JSON member names.
func fieldNames(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out[name] = true
	}
	return out
}

// checkIDPattern: the Warden-Execution-Id parameter's pattern accepts
// exactly what the server does: empty (absent) or a valid id.
func checkIDPattern(t *testing.T, doc map[string]any) {
	t.Helper()
	for _, p := range at(doc, "paths", "/v1/executions", "post")["parameters"].([]any) {
		pm := p.(map[string]any)
		if pm["name"] != ExecutionIDHeader {
			continue
		}
		re := regexp.MustCompile(pm["schema"].(map[string]any)["pattern"].(string))
		for _, id := range []string{"", "a", "A-z_09", strings.Repeat("x", 64), strings.Repeat("x", 65), "a/b", "a b", "é", "a\n"} {
			if got, want := re.MatchString(id), id == "" || validID(id); got != want {
				t.Errorf("the pattern says %v for %q, the server %v", got, id, want)
			}
		}
		return
	}
	t.Errorf("no %s parameter", ExecutionIDHeader)
}

// checkLinks: every operation has a unique operationId and every link
// names one of them.
func checkLinks(t *testing.T, doc map[string]any) {
	t.Helper()
	ids := map[string]bool{}
	var linked []string
	for _, ops := range doc["paths"].(map[string]any) {
		for method, op := range ops.(map[string]any) {
			om, ok := op.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			id, _ := om["operationId"].(string)
			if id == "" || ids[id] {
				t.Errorf("%s: operationId %q missing or not unique", method, id)
			}
			ids[id] = true
			for code := range om["responses"].(map[string]any) {
				links, _ := walk(doc, om, "responses", code)["links"].(map[string]any)
				for name := range links {
					linked = append(linked, walk(doc, om, "responses", code, "links", name)["operationId"].(string))
				}
			}
		}
	}
	for _, id := range linked {
		if !ids[id] {
			t.Errorf("a link names operation %q, which is not in the document", id)
		}
	}
	if len(linked) == 0 {
		t.Error("no links between operations")
	}
}
