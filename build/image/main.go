// Command image builds Warden's OCI image from the static bin/warden on
// an empty base: no container daemon, no base image pulled from
// anywhere. It writes an OCI image layout (a directory) and the same as
// an OCI archive, and prints the image's tag, which deploy/kubernetes
// references. `make image` runs it.
//
//	go run ./build/image [-binary bin/warden] [-out bin/image] [-print-tag]
//
// Load the archive with `podman load -i bin/image.tar` (or push the
// layout with any OCI tool) and run it as deploy/podman-run.sh does.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	binary := flag.String("binary", "bin/warden", "the static warden binary to put in the image")
	out := flag.String("out", "bin/image", "the OCI image layout directory to write (and OUT.tar, the same as an OCI archive)")
	printTag := flag.Bool("print-tag", false, "print the tag and exit, building nothing")
	flag.Parse()
	if *printTag {
		fmt.Println(Tag)
		return
	}
	img, err := Build(*binary)
	if err == nil {
		err = Write(*out, img, Tag)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	d, err := img.Digest()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %s (OCI layout) and %s.tar (OCI archive), manifest %s\n", *out, *out, d)
	fmt.Println(Tag)
}
