// Package memfd makes sealed memory files: anonymous files (memfd_create)
// filled once and then sealed against every change (F_SEAL_WRITE,
// F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_SEAL), so that what a process maps
// or executes from one is exactly what was written, whoever else holds
// the descriptor. The supervisor puts the child binary and the
// compilation cache's files into them once and hands the descriptors to
// every child; children check the seals (Check) instead of hashing the
// bytes.
package memfd

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrUnsupported is returned where the platform or the kernel has no
// sealed memory files (not Linux, a kernel before 3.17, or a seccomp
// policy that refuses memfd_create): callers fall back to files on disk.
var ErrUnsupported = errors.New("memfd: sealed memory files are not supported here")

// ErrNotSealed is returned by Check for a descriptor that is not a memory
// file carrying every seal.
var ErrNotSealed = errors.New("memfd: not a sealed memory file")

// New returns a sealed memory file named name (the name shows in
// /proc/PID/maps and fd links; it has no other meaning) holding exactly
// the size bytes read from r. The descriptor is close-on-exec: it reaches
// another process only as exec.Cmd.ExtraFiles or as the file an exec
// runs. A reader shorter or longer than size is an error, so a file that
// changed while it was copied is not sealed as if it were whole.
func New(name string, r io.Reader, size int64) (*os.File, error) {
	f, err := create(name)
	if err != nil {
		return nil, err
	}
	if err := fill(f, r, size); err != nil {
		f.Close()
		return nil, fmt.Errorf("memfd: fill %s: %w", name, err)
	}
	if err := seal(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("memfd: seal %s: %w", name, err)
	}
	return f, nil
}

// ErrMismatch is returned by NewChecked for a source whose bytes do not
// have the digest given.
var ErrMismatch = errors.New("memfd: the bytes do not match the SHA-256 given")

// NewChecked is New for a source whose SHA-256 must be sum: the bytes
// are hashed as they are copied, so that what is sealed is what was
// checked, and the source is read once. A mismatch is ErrMismatch, and
// nothing is returned.
func NewChecked(name string, r io.Reader, size int64, sum []byte) (*os.File, error) {
	h := sha256.New()
	f, err := New(name, io.TeeReader(r, h), size)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(h.Sum(nil), sum) {
		f.Close()
		return nil, fmt.Errorf("%w: %s", ErrMismatch, name)
	}
	return f, nil
}

// fill writes size bytes of r into f and checks that r ends there.
func fill(f *os.File, r io.Reader, size int64) error {
	if size < 0 {
		return fmt.Errorf("negative size %d", size)
	}
	if err := f.Truncate(size); err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(r, size))
	if err != nil {
		return err
	}
	if n != size {
		return fmt.Errorf("read %d of %d bytes", n, size)
	}
	var one [1]byte
	if m, _ := io.ReadFull(r, one[:]); m != 0 {
		return fmt.Errorf("the source holds more than %d bytes", size)
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}
