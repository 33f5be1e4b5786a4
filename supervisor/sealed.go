package supervisor

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wardenhq/warden/internal/memfd"
	"github.com/wardenhq/warden/ipc"
)

// sealedCache is what every child reads of the compilation cache (the
// compiled module, the heap snapshot, the Intl pack), each file copied
// once into a sealed memory file after its bytes were checked against
// the digest recorded for it, and handed to every child by descriptor:
// children neither hash these files nor open them by a path someone
// could swap, and all share the same pages. The cache on disk stays the
// persistent copy under its trust rules. RATIONALE.md, "Sealed memory
// files, checked once", says why and what happens when they cannot be
// made.
type sealedCache struct {
	// files are a child's exec.Cmd.ExtraFiles, in order: the child holds
	// files[i] as descriptor 3+i.
	files []*os.File
	// fds is each file's descriptor in a child, by path relative to the
	// cache (ipc.ChildConfig.Sealed).
	fds map[string]int
	// view holds, by the same relative paths, symbolic links to
	// /proc/self/fd/N: wazero's file cache opens the compiled module by
	// path, and in a child the link leads to its own descriptor.
	view  string
	bytes int64
}

// sealCache seals rels (paths relative to cache, each recorded in
// digests) into memory files, each checked against its digest as it is
// copied. A machine without sealed memory files gets memfd.ErrUnsupported.
func sealCache(cache string, digests map[string]string, rels []string) (_ *sealedCache, err error) {
	sc := &sealedCache{fds: map[string]int{}}
	defer func() {
		if err != nil {
			sc.close()
		}
	}()
	if sc.view, err = os.MkdirTemp("", "warden-sealed-"); err != nil {
		return nil, err
	}
	// Children, whatever their uid, follow its links; only the
	// supervisor's uid may change it.
	if err := os.Chmod(sc.view, 0o755); err != nil {
		return nil, err
	}
	rels = slices.Clone(rels)
	slices.Sort(rels)
	for _, rel := range slices.Compact(rels) {
		if err := sc.add(cache, rel, digests); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// add seals one file and links it in the view.
func (sc *sealedCache) add(cache, rel string, digests map[string]string) error {
	want, ok := digests[rel]
	if !ok || !filepath.IsLocal(rel) {
		return fmt.Errorf("the compile child named %q, which is not a file it recorded", rel)
	}
	src, err := openNoFollow(filepath.Join(cache, rel))
	if err != nil {
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	// The digest ipc.CacheDigest records, of the very bytes sealed.
	sum, err := hex.DecodeString(want)
	if err != nil {
		return fmt.Errorf("the digest recorded for %s: %w", rel, err)
	}
	f, err := memfd.NewChecked("warden-"+filepath.Base(rel), src, fi.Size(), sum)
	if errors.Is(err, memfd.ErrMismatch) {
		return &CacheError{filepath.Join(cache, rel), "changed after the compile child ran: its SHA-256 is not the one recorded"}
	}
	if err != nil {
		return err
	}
	fd := 3 + len(sc.files)
	sc.files = append(sc.files, f)
	sc.fds[rel] = fd
	sc.bytes += fi.Size()
	link := filepath.Join(sc.view, rel)
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return err
	}
	return os.Symlink(fmt.Sprintf("/proc/self/fd/%d", fd), link)
}

// childFDs, viewDir and extraFiles are what a child is given: nothing
// when sc is nil.
func (sc *sealedCache) childFDs() map[string]int {
	if sc == nil {
		return nil
	}
	return sc.fds
}

func (sc *sealedCache) viewDir() string {
	if sc == nil {
		return ""
	}
	return sc.view
}

func (sc *sealedCache) extraFiles() []*os.File {
	if sc == nil {
		return nil
	}
	return sc.files
}

// close closes the memory files (children started from them keep their
// own descriptors) and removes the view.
func (sc *sealedCache) close() {
	if sc == nil {
		return
	}
	for _, f := range sc.files {
		f.Close()
	}
	if sc.view != "" {
		os.RemoveAll(sc.view)
	}
}

// parseCompileReport reads the compile child's ipc.CompileReport from
// its stdout.
func parseCompileReport(stdout []byte) ([]string, error) {
	var r ipc.CompileReport
	if err := json.Unmarshal(stdout, &r); err != nil {
		return nil, fmt.Errorf("the compile child's report: %w", err)
	}
	if len(r.ChildFiles) == 0 {
		return nil, errors.New("the compile child's report names no file")
	}
	for _, rel := range r.ChildFiles {
		if strings.ContainsRune(rel, 0) {
			return nil, fmt.Errorf("the compile child's report names %q", rel)
		}
	}
	return r.ChildFiles, nil
}
