package childimage

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func carrier(t *testing.T, head, child []byte) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "warden"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if child != nil {
		if err := Append(f, bytes.NewReader(child)); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestFindWhatAppendWrote(t *testing.T) {
	child := bytes.Repeat([]byte("child!"), 10000)
	img, err := Find(carrier(t, []byte("the warden binary"), child))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(img.Data)
	if img.Size != int64(len(child)) || !bytes.Equal(got, child) {
		t.Errorf("found %d bytes, want the %d appended", len(got), len(child))
	}
}

func TestFindWithoutATrailer(t *testing.T) {
	for _, head := range [][]byte{nil, []byte("short"), bytes.Repeat([]byte{0x7f}, 4096)} {
		if _, err := Find(carrier(t, head, nil)); !errors.Is(err, ErrNone) {
			t.Errorf("%d bytes without a trailer: %v, want ErrNone", len(head), err)
		}
	}
}

func TestFindRefusesADamagedImage(t *testing.T) {
	f := carrier(t, []byte("head"), []byte("the child binary"))
	// One flipped bit in the child.
	if _, err := f.WriteAt([]byte("T"), 4); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(f); err == nil || !strings.Contains(err.Error(), "do not match") {
		t.Errorf("a flipped byte: %v", err)
	}
	// A length past the start of the file.
	fi, _ := f.Stat()
	if _, err := f.WriteAt([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}, fi.Size()-16); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(f); err == nil || !strings.Contains(err.Error(), "the trailer gives") {
		t.Errorf("a length too large: %v", err)
	}
}
