package intl

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// Where the generated data lies. `make build` embeds it: make intl-data
// writes data_embedded.go beside data/ (both git-ignored), and its init
// calls useEmbedded. A binary built from the module alone (go get, go
// install) has neither and reads the pack `warden setup` wrote into the
// compilation cache (UsePackFile). Call checks, once, that one of the
// two is there before anything reads it.
var (
	// readData returns a data file by name (supplemental.json, de.json).
	readData func(name string) ([]byte, error)
	// lookupText and tzdata: see lookupLine and location.
	lookupText, tzdata string

	embedded bool
	packed   struct {
		path, sha256 string
		bytes        []byte // mapped, never written
	}
)

// useEmbedded installs the data this binary carries.
func useEmbedded(files embed.FS, lookup, tz string) {
	readData = func(name string) ([]byte, error) { return files.ReadFile("data/" + name) }
	lookupText, tzdata, embedded = lookup, tz, true
}

// Embedded reports whether this binary carries the data.
func Embedded() bool { return embedded }

// UsePackFile maps the data pack at path (intlgen.Pack's zip of stored
// files) as this process's data, unless the binary carries its own. It
// opens and maps the file at once, while the process may still open
// files (a child's seccomp filter forbids it later); the first Call
// checks the pack's SHA-256 against want (when set) and indexes it, so a
// process that never formats pays nothing more.
func UsePackFile(path, want string) error {
	if embedded {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return fmt.Errorf("intl: the data pack: %w", err)
	}
	defer f.Close()
	return UsePack(f, want)
}

// UsePack is UsePackFile with the pack already open (a sealed memory
// file, whose digest need not be checked: want ""). The mapping outlives
// f.
func UsePack(f *os.File, want string) error {
	if embedded {
		return nil
	}
	b, err := mapFile(f)
	if err != nil {
		return fmt.Errorf("intl: the data pack %s: %w", f.Name(), err)
	}
	packed.path, packed.sha256, packed.bytes = f.Name(), want, b
	return nil
}

// ready is nil once the data is there to read.
var ready = sync.OnceValue(func() error {
	if embedded {
		return nil
	}
	if packed.bytes == nil {
		return typeError("Intl is not available: this Warden binary was built without its Intl data (a plain go build or go install), and no data pack was set up; run `warden setup`, or build Warden with `make build`")
	}
	files, err := indexPack(packed.bytes, packed.sha256)
	if err != nil {
		return typeError(fmt.Sprintf("Intl is not available: the data pack %s is refused: %v; run `warden setup` again", packed.path, err))
	}
	lookupText, tzdata = files["lookup.txt"], files["tzdata.bin"]
	readData = func(name string) ([]byte, error) {
		s, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("%s: %w", name, os.ErrNotExist)
		}
		return []byte(s), nil
	}
	return nil
})

// indexPack checks b's digest and finds its files, by name, where they
// lie in b.
func indexPack(b []byte, want string) (map[string]string, error) {
	if want != "" {
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want {
			return nil, fmt.Errorf("its sha256 is %s, not the %s the supervisor recorded", got, want)
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	files := make(map[string]string, len(zr.File))
	for _, f := range zr.File {
		off, err := f.DataOffset()
		n := int64(f.UncompressedSize64)
		if err != nil || f.Method != zip.Store || off < 0 || n < 0 || off+n > int64(len(b)) {
			return nil, fmt.Errorf("%s is not a stored file within the pack", f.Name)
		}
		files[f.Name] = unsafe.String(unsafe.SliceData(b[off:]), n)
	}
	if files["lookup.txt"] == "" || files["tzdata.bin"] == "" {
		return nil, fmt.Errorf("it lacks lookup.txt or tzdata.bin")
	}
	return files, nil
}
