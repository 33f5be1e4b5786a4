// Command mapready is the floor of a child that needs the module: a
// static Go binary that maps every file of the compilation cache it is
// given (the compiled module and the heap snapshot), reads one byte of
// each page, says ready and exits (tests/floor_test.go).
package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// sink keeps the reads.
var sink byte

func main() {
	err := filepath.WalkDir(os.Args[1], func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil || fi.Size() == 0 {
			return err
		}
		b, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
		if err != nil {
			return err
		}
		for i := 0; i < len(b); i += os.Getpagesize() {
			sink += b[i]
		}
		return syscall.Munmap(b)
	})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("ready\n")
}
