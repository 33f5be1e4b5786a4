// Package childimage finds the lean child binary that `make build`
// appends to bin/warden, and appends it there (build/childimage).
//
// A Warden child needs the engine, the wire and the seccomp filter; the
// warden binary also links the daemon, the MCP server, the stress
// runner and the CLI, whose package inits and larger image every child
// would pay for at exec (RATIONALE.md, "A lean child, carried in the
// warden binary"). So the build links the child on its own
// (cmd/warden-child) and appends it to bin/warden behind a trailer; the
// supervisor finds it in its own executable at New, checks it, copies it
// into a sealed memory file and starts every child from that. Users still
// install one file, and a binary without a trailer (go install, an
// embedder's program) starts itself as before.
//
// The layout, at the very end of the file:
//
//	[child ELF][SHA-256 of the child, 32 bytes][its length, 8 bytes LE][Magic, 8 bytes]
package childimage

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// Magic ends a file that carries a child image.
var Magic = [8]byte{'W', 'D', 'N', 'C', 'H', 'L', 'D', '1'}

const trailerSize = sha256.Size + 8 + len(Magic)

// ErrNone is returned by Find for a file that carries no child image.
var ErrNone = errors.New("childimage: the file carries no child image")

// Image is a child binary found inside another file.
type Image struct {
	// Data reads the child binary.
	Data *io.SectionReader
	// Size is its length in bytes.
	Size int64
	// SHA256 is its digest as the trailer records it (Find has checked
	// it; after Open, whoever reads Data checks it).
	SHA256 [sha256.Size]byte
	name   string
}

// Find returns the child image f carries, after checking the bytes
// against the digest in its trailer: ErrNone when f has no trailer, an
// error naming what is wrong when its trailer or bytes are damaged.
func Find(f *os.File) (*Image, error) {
	img, err := Open(f)
	if err != nil {
		return nil, err
	}
	if err := img.Verify(); err != nil {
		return nil, err
	}
	return img, nil
}

// Open is Find without reading the child's bytes: for a caller that
// checks them against SHA256 as it copies them anyway (the supervisor,
// into a sealed memory file), so that the image is read once.
func Open(f *os.File) (*Image, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() < int64(trailerSize) {
		return nil, ErrNone
	}
	var tr [trailerSize]byte
	if _, err := f.ReadAt(tr[:], fi.Size()-int64(trailerSize)); err != nil {
		return nil, fmt.Errorf("childimage: read the trailer of %s: %w", f.Name(), err)
	}
	if !bytes.Equal(tr[trailerSize-len(Magic):], Magic[:]) {
		return nil, ErrNone
	}
	img := &Image{Size: int64(binary.LittleEndian.Uint64(tr[sha256.Size:]))}
	copy(img.SHA256[:], tr[:sha256.Size])
	start := fi.Size() - int64(trailerSize) - img.Size
	if img.Size <= 0 || start < 0 {
		return nil, fmt.Errorf("childimage: %s: the trailer gives a child of %d bytes in a file of %d", f.Name(), img.Size, fi.Size())
	}
	img.Data = io.NewSectionReader(f, start, img.Size)
	img.name = f.Name()
	return img, nil
}

// Verify reads the child's bytes and checks them against the SHA-256 in
// the trailer, leaving Data at its start.
func (img *Image) Verify() error {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(img.Data, 0, img.Size)); err != nil {
		return fmt.Errorf("childimage: read the child in %s: %w", img.name, err)
	}
	if !bytes.Equal(h.Sum(nil), img.SHA256[:]) {
		return fmt.Errorf("childimage: %s: the child's bytes do not match the SHA-256 in its trailer", img.name)
	}
	return nil
}

// Append writes child, then its trailer, at the end of w.
func Append(w io.Writer, child io.Reader) error {
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), child)
	if err != nil {
		return fmt.Errorf("childimage: append the child: %w", err)
	}
	if n == 0 {
		return errors.New("childimage: the child binary is empty")
	}
	var tr [trailerSize]byte
	copy(tr[:], h.Sum(nil))
	binary.LittleEndian.PutUint64(tr[sha256.Size:], uint64(n))
	copy(tr[sha256.Size+8:], Magic[:])
	_, err = w.Write(tr[:])
	return err
}
