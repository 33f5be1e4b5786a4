package intlgen

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestFlattenZones: CLDR's nested zone tree becomes IANA names.
func TestFlattenZones(t *testing.T) {
	tree := map[string]any{
		"America": map[string]any{
			"Los_Angeles": []any{"p"},
			"Argentina":   map[string]any{"Buenos_Aires": []any{"q"}},
		},
		"UTC": []any{"r"},
	}
	got := flattenZones("", tree)
	var names []string
	for k := range got {
		names = append(names, k)
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "America/Argentina/Buenos_Aires America/Los_Angeles UTC" {
		t.Fatalf("flattened to %v", names)
	}
}

// TestWriteLookup: the tables become sorted KIND:KEY lines, and leave
// the supplemental data.
func TestWriteLookup(t *testing.T) {
	sup := map[string]any{
		"languageAlias": map[string]any{"iw": "he", "in": "id"},
		"zoneNames":     map[string]string{"asia/kolkata": "Asia/Calcutta"},
		"metaZones":     map[string]any{"America/New_York": []any{map[string]any{"usesMetazone": map[string]any{"_mzone": "America_Eastern"}}}},
		"cldrVersion":   "48.0.0",
	}
	path := filepath.Join(t.TempDir(), "lookup.txt")
	if err := writeLookup(path, sup); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "\nla:in\tid\nla:iw\the\nmz:America/New_York\t[{\"usesMetazone\":{\"_mzone\":\"America_Eastern\"}}]\nzn:asia/kolkata\tAsia/Calcutta\n"
	if string(b) != want {
		t.Fatalf("lookup.txt is %q, want %q", b, want)
	}
	if _, ok := sup["languageAlias"]; ok || sup["cldrVersion"] != "48.0.0" {
		t.Fatalf("supplemental left as %v", sup)
	}
}
