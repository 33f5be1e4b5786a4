package ipc

import (
	"os"
)

// shmDir is the tmpfs most Linux systems mount for shared memory, world
// writable with the sticky bit, like /tmp.
const shmDir = "/dev/shm"

// socketBase is the directory go-plugin makes each child's socket
// directory in ("" is its default, os.TempDir()). A child's socket
// directory is made and removed once per execution, and on a disk file
// system such as ext4 that is journal work: a mkdir, chown and removal
// cost the supervisor ~0.2 ms of CPU each time against ~5 µs on a tmpfs
// (BENCHMARKS.md, "Supervisor CPU per execution"). So when TMPDIR is not
// set and os.TempDir() is not a tmpfs, the directories go to /dev/shm if
// that is one. A TMPDIR the operator set is always honoured. The socket
// directory is private either way (mode 0700, handed to the child's uid),
// and the supervisor connects only to the child itself (wire.go).
func socketBase() string {
	if os.Getenv("TMPDIR") != "" || isTmpfs(os.TempDir()) {
		return ""
	}
	if isTmpfs(shmDir) && usableDir(shmDir) {
		return shmDir
	}
	return ""
}
