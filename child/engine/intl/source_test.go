package intl

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/wardenhq/warden/internal/intlgen"
)

// TestIndexPack: a pack intlgen.Pack writes of the data directory is
// read in place, file for file, and a pack with another digest, a
// compressed file or no lookup table is refused.
func TestIndexPack(t *testing.T) {
	if _, err := os.Stat("data/lookup.txt"); err != nil {
		t.Skipf("no generated data to pack (%v): make intl-data", err)
	}
	var buf bytes.Buffer
	if err := intlgen.Pack("data", &buf); err != nil {
		t.Fatal(err)
	}
	pack := buf.Bytes()
	sum := sha256.Sum256(pack)
	files, err := indexPack(pack, hex.EncodeToString(sum[:]))
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir("data")
	if len(files) != len(entries) {
		t.Fatalf("the pack has %d files, the directory %d", len(files), len(entries))
	}
	for _, e := range entries {
		want, _ := os.ReadFile("data/" + e.Name())
		if files[e.Name()] != string(want) {
			t.Fatalf("%s differs in the pack", e.Name())
		}
	}
	if _, err := indexPack(pack, strings.Repeat("0", 64)); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("another digest: want it refused, got %v", err)
	}

	var deflated bytes.Buffer
	zw := zip.NewWriter(&deflated)
	for _, name := range []string{"lookup.txt", "tzdata.bin"} {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		w.Write([]byte("\nx\n"))
	}
	zw.Close()
	if _, err := indexPack(deflated.Bytes(), ""); err == nil || !strings.Contains(err.Error(), "stored") {
		t.Fatalf("a compressed file: want it refused, got %v", err)
	}
	var partial bytes.Buffer
	zw = zip.NewWriter(&partial)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "lookup.txt", Method: zip.Store})
	w.Write([]byte("\nx\n"))
	zw.Close()
	if _, err := indexPack(partial.Bytes(), ""); err == nil {
		t.Fatal("a pack without tzdata.bin was taken")
	}
	if _, err := indexPack([]byte("not a zip"), ""); err == nil {
		t.Fatal("a file that is not a zip was taken")
	}
}
