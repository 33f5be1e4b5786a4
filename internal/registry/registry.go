// Package registry is the data of Warden's registry of host-approved
// modules: the set of modules, checked, with the digest that names it,
// and the file the supervisor writes it to for the compile child and
// the children. The supervisor builds it (from Config.Modules and
// Config.ModulesDir) and the engine evaluates it; both import this
// package, which links neither of them.
package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/wardenhq/warden/contract"
)

// Module is one host-approved module: the name code imports it by, its
// source, and whether that is TypeScript.
type Module struct {
	Name       string `json:"name"`
	Source     string `json:"source"`
	TypeScript bool   `json:"typescript,omitempty"`
}

// Set is a checked set of modules, sorted by name, with the QuickJS heap
// they may take once evaluated (HeapBytes, on top of every memory
// profile's) and the digest of all of it.
type Set struct {
	Modules   []Module `json:"modules"`
	HeapBytes int64    `json:"heap_bytes"`
	digest    string
}

// reservedName is the engine's own name for the code.
const reservedName = "<code>"

// New checks mods (names a request could import, no two alike, UTF-8
// sources) and makes a Set of them.
func New(mods []Module, heapBytes int64) (*Set, error) {
	mods = slices.Clone(mods)
	sort.Slice(mods, func(i, j int) bool { return mods[i].Name < mods[j].Name })
	for i, m := range mods {
		if err := contract.CheckModuleName(m.Name); err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		if m.Name == reservedName {
			return nil, fmt.Errorf("registry: %q is the engine's name for the code", m.Name)
		}
		if i > 0 && mods[i-1].Name == m.Name {
			return nil, fmt.Errorf("registry: module %q is given twice", m.Name)
		}
		if !utf8.ValidString(m.Source) {
			return nil, fmt.Errorf("registry: module %q is not valid UTF-8", m.Name)
		}
	}
	if heapBytes < 0 {
		return nil, errors.New("registry: a negative heap allowance")
	}
	s := &Set{Modules: mods, HeapBytes: heapBytes}
	h := sha256.New()
	for _, m := range mods {
		fmt.Fprintf(h, "%d:%s\n%t\n%d:", len(m.Name), m.Name, m.TypeScript, len(m.Source))
		h.Write([]byte(m.Source))
	}
	fmt.Fprintf(h, "\nheap %d\n", heapBytes)
	s.digest = hex.EncodeToString(h.Sum(nil))
	return s, nil
}

// Digest names the set: its names, sources and heap allowance.
func (s *Set) Digest() string { return s.digest }

// Names are the modules' names, sorted.
func (s *Set) Names() []string {
	names := make([]string, len(s.Modules))
	for i, m := range s.Modules {
		names[i] = m.Name
	}
	return names
}

// Bytes is the size of the modules' sources.
func (s *Set) Bytes() int64 {
	var n int64
	for _, m := range s.Modules {
		n += int64(len(m.Source))
	}
	return n
}

// ModuleDigest is the SHA-256 of one module's source, in hex.
func ModuleDigest(m Module) string {
	sum := sha256.Sum256([]byte(m.Source))
	return hex.EncodeToString(sum[:])
}

// Encode is the set as a file (Decode reads it back).
func (s *Set) Encode() ([]byte, error) { return json.Marshal(s) }

// Decode reads a file Encode wrote and checks it again.
func Decode(b []byte) (*Set, error) {
	var s Set
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	return New(s.Modules, s.HeapBytes)
}

// FileName is where, relative to a cache directory, the set with this
// digest is written.
func FileName(digest string) string { return filepath.Join("registry", digest+".json") }

// Extensions are the files a modules directory may hold: JavaScript
// modules and TypeScript.
var Extensions = []string{".js", ".mjs", ".ts"}

// FromMap is the modules of a name -> source map: a name ending in
// ".ts" is TypeScript (and imported by that name).
func FromMap(m map[string]string) []Module {
	mods := make([]Module, 0, len(m))
	for name, src := range m {
		mods = append(mods, Module{Name: name, Source: src, TypeScript: strings.HasSuffix(name, ".ts")})
	}
	return mods
}

// FromDir reads the modules of dir: each regular file ending in .js,
// .mjs or .ts is a module named by its file name without the extension
// (lodash-es.js is "lodash-es"), TypeScript when it ends in .ts. A
// symbolic link, a subdirectory or another file is an error (so that
// what is registered is exactly what the directory shows), and so are
// two files that name one module, and more than maxBytes of sources.
func FromDir(dir string, maxBytes int64) ([]Module, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	var mods []Module
	var total int64
	seen := map[string]string{}
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if !e.Type().IsRegular() || !slices.Contains(Extensions, ext) {
			return nil, fmt.Errorf("registry: %s: only regular files ending in %s are modules (%s)", dir, strings.Join(Extensions, ", "), e.Name())
		}
		name := strings.TrimSuffix(e.Name(), ext)
		if other, ok := seen[name]; ok {
			return nil, fmt.Errorf("registry: %s: %s and %s both name module %q", dir, other, e.Name(), name)
		}
		seen[name] = e.Name()
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		if total += info.Size(); total > maxBytes {
			return nil, fmt.Errorf("registry: %s holds more than the %d bytes of modules allowed (Config.MaxModulesBytes)", dir, maxBytes)
		}
		b, err := fs.ReadFile(os.DirFS(dir), e.Name())
		if err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		mods = append(mods, Module{Name: name, Source: string(b), TypeScript: ext == ".ts"})
	}
	return mods, nil
}
