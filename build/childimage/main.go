// Command childimage appends the lean child binary to the warden binary
// (internal/childimage says why and how): `make build` runs
//
//	go run ./build/childimage -child bin/.warden-child -into bin/warden
//
// after linking both from the same tree. It refuses a target that already
// carries a child, and removes the child file it appended.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/wardenhq/warden/internal/childimage"
)

func main() {
	child := flag.String("child", "", "the child binary to append (removed afterwards)")
	into := flag.String("into", "", "the binary that carries it")
	flag.Parse()
	if *child == "" || *into == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: childimage -child FILE -into FILE")
		os.Exit(2)
	}
	if err := appendChild(*child, *into); err != nil {
		fmt.Fprintln(os.Stderr, "childimage:", err)
		os.Exit(1)
	}
}

func appendChild(child, into string) error {
	c, err := os.Open(child)
	if err != nil {
		return err
	}
	defer c.Close()
	w, err := os.OpenFile(into, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer w.Close()
	if _, err := childimage.Find(w); !errors.Is(err, childimage.ErrNone) {
		return fmt.Errorf("%s already carries a child image (or a damaged one: %v)", into, err)
	}
	if _, err := w.Seek(0, 2); err != nil {
		return err
	}
	if err := childimage.Append(w, c); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.Remove(child)
}
