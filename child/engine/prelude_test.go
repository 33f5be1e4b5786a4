package engine

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestComposePrelude: the web files go in at the marker, in name order,
// each in its own function; a core without the marker is refused.
func TestComposePrelude(t *testing.T) {
	files := fstest.MapFS{
		"web/20-b.js":     {Data: []byte("defineGlobal('b', 2);")},
		"web/10-a.js":     {Data: []byte("defineGlobal('a', 1);")},
		"web/README.md":   {Data: []byte("not code")},
		"web/sub/99-z.js": {Data: []byte("defineGlobal('z', 0);")},
	}
	got := composePrelude("head\n"+webMarker+"tail\n", files)
	a, b := strings.Index(got, "defineGlobal('a'"), strings.Index(got, "defineGlobal('b'")
	if a < 0 || b < 0 || a > b || strings.Contains(got, "not code") || strings.Contains(got, "'z'") {
		t.Fatalf("web files not inlined in name order:\n%s", got)
	}
	if !strings.HasPrefix(got, "head\n") || !strings.HasSuffix(got, "tail\n") || strings.Count(got, "(function () {") != 2 {
		t.Fatalf("not wrapped at the marker:\n%s", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a core without the marker was accepted")
		}
	}()
	composePrelude("no marker\n", files)
}

// TestPreludeKeyIsTheComposedText's: the key a restoring child takes
// from the prelude's parts is the key of the text init evaluates.
func TestPreludeKeyIsTheComposedText(t *testing.T) {
	if got, want := preludeKey(), snapshotKey(preludeSource()); got != want {
		t.Fatalf("preludeKey %s, snapshotKey of the composed prelude %s", got, want)
	}
}
