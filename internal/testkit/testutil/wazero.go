package testutil

import (
	"io"
	"os"
	"testing"
)

// CacheEntryMappable reports whether the wazero compilation-cache entry
// at path has the layout the project's patched wazero (`make build`,
// `make test`) writes and maps executable from the file ("WAZEV2");
// stock wazero's entries start "WAZEVO".
func CacheEntryMappable(tb testing.TB, path string) bool {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	magic := make([]byte, 6)
	if _, err := io.ReadFull(f, magic); err != nil {
		tb.Fatal(err)
	}
	return string(magic) == "WAZEV2"
}
