package memfd

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func newOrSkip(t *testing.T, data []byte) *os.File {
	t.Helper()
	f, err := New("test", bytes.NewReader(data), int64(len(data)))
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("no sealed memory files on %s here: %v", runtime.GOOS, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestSealedFileCannotChange(t *testing.T) {
	data := []byte("what every child maps")
	f := newOrSkip(t, data)
	if err := Check(f.Fd()); err != nil {
		t.Fatalf("Check of a fresh sealed file: %v", err)
	}
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %q, %v; want %q", got, err, data)
	}
	if _, err := f.WriteAt([]byte("X"), 0); err == nil {
		t.Error("a write to a sealed file succeeded")
	}
	if err := f.Truncate(1); err == nil {
		t.Error("shrinking a sealed file succeeded")
	}
	if err := f.Truncate(int64(len(data)) + 4096); err == nil {
		t.Error("growing a sealed file succeeded")
	}
	// A second descriptor, opened for writing through /proc, cannot
	// write either: the seal is on the file, not the descriptor.
	if w, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), os.O_WRONLY, 0); err == nil {
		_, werr := w.Write([]byte("X"))
		w.Close()
		if werr == nil {
			t.Error("a write through a second descriptor succeeded")
		}
	}
}

func TestNewRefusesASourceOfAnotherSize(t *testing.T) {
	newOrSkip(t, nil) // skips where there are none
	if _, err := New("short", strings.NewReader("abc"), 4); err == nil || !strings.Contains(err.Error(), "read 3 of 4") {
		t.Errorf("a short source: %v", err)
	}
	if _, err := New("long", strings.NewReader("abcde"), 4); err == nil || !strings.Contains(err.Error(), "more than 4") {
		t.Errorf("a long source: %v", err)
	}
}

func TestCheckRefusesWhatIsNotSealed(t *testing.T) {
	newOrSkip(t, nil)
	plain, err := os.CreateTemp(t.TempDir(), "plain")
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if err := Check(plain.Fd()); !errors.Is(err, ErrNotSealed) {
		t.Errorf("Check of a file on disk: %v, want ErrNotSealed", err)
	}
	unsealed, err := create("unsealed")
	if err != nil {
		t.Fatal(err)
	}
	defer unsealed.Close()
	if err := Check(unsealed.Fd()); !errors.Is(err, ErrNotSealed) {
		t.Errorf("Check of a memory file without seals: %v, want ErrNotSealed", err)
	}
}

func TestNewCheckedRefusesOtherBytes(t *testing.T) {
	newOrSkip(t, nil)
	data := []byte("what the supervisor recorded")
	sum := sha256.Sum256(data)
	f, err := NewChecked("ok", bytes.NewReader(data), int64(len(data)), sum[:])
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	other := []byte("what the supervisor recordeD")
	if _, err := NewChecked("changed", bytes.NewReader(other), int64(len(other)), sum[:]); !errors.Is(err, ErrMismatch) {
		t.Errorf("other bytes: %v, want ErrMismatch", err)
	}
}
