// Package regfile opens the files Warden's commands are given to read
// (scripts, modules, inputs, data, tokens, configuration): regular files
// only, checked without blocking. A plain open(2) of a named pipe with no
// writer blocks until one comes, for ever if none does, and a device
// (/dev/zero) never ends; both are refused with a message instead.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrNotRegular is why a path that names something other than a regular
// file (a named pipe, a device, a socket, a directory) is refused.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading if it names a regular file. It opens with
// O_NONBLOCK, which returns at once even for a named pipe without a
// writer, and checks the type of what it opened (fstat), so that nothing
// can be swapped in between a check and the open. O_NONBLOCK does not
// change how a regular file reads.
func Open(path string) (*os.File, error) {
	return open(path, false)
}

func open(path string, dirOK bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if m := st.Mode(); !m.IsRegular() && !(dirOK && m.IsDir()) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(m))}
	}
	return f, nil
}

// kind names a file type for the refusal's message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return m.Type().String()
}

// ReadFile reads the regular file path whole, refusing one over limit
// bytes; it never reads more than limit+1.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCapped(f, path, limit)
}

// ReadCapped reads r, called name in errors, refusing more than limit
// bytes. It never reads more than limit+1.
func ReadCapped(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return b, nil
}

// TooLargeError is ReadCapped's refusal of more than Limit bytes.
type TooLargeError struct {
	Name  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the cap of %d bytes", e.Name, e.Limit)
}

// DirFS is os.DirFS(dir) that opens only regular files and directories,
// as Open does: a named pipe in a corpus directory is refused rather than
// waited on.
func DirFS(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := open(filepath.Join(string(d), filepath.FromSlash(name)), true)
	if err != nil {
		return nil, err
	}
	return f, nil
}
