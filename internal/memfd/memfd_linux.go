package memfd

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// allSeals is every seal New sets and Check requires.
const allSeals = unix.F_SEAL_WRITE | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_SEAL

// create is memfd_create, which can fail with ENOSYS (kernel before 3.17)
// or EPERM (a seccomp policy): both mean this machine has none.
var create = func(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) {
			return nil, fmt.Errorf("%w: memfd_create: %v", ErrUnsupported, err)
		}
		return nil, fmt.Errorf("memfd: memfd_create %s: %w", name, err)
	}
	return os.NewFile(uintptr(fd), "memfd:"+name), nil
}

func seal(f *os.File) error {
	_, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, allSeals)
	return err
}

// Check reports whether fd is a memory file with every seal New sets:
// nobody, not even whoever made it, can change a byte of it any more.
func Check(fd uintptr) error {
	seals, err := unix.FcntlInt(fd, unix.F_GET_SEALS, 0)
	if err != nil {
		// EINVAL: not a file that supports seals (not a memfd).
		return fmt.Errorf("%w: descriptor %d: %v", ErrNotSealed, fd, err)
	}
	if seals&allSeals != allSeals {
		return fmt.Errorf("%w: descriptor %d has seals %#x, not %#x", ErrNotSealed, fd, seals, allSeals)
	}
	return nil
}
