package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/typescript"
)

// The registry: modules the host approved, evaluated into every
// instance during init (so into the heap snapshot) before any untrusted
// code exists. QuickJS keeps each evaluated module under its name, and
// an import of that name resolves to it without the loader being asked:
// importing one costs an execution nothing but the lookup. Each child
// maps its own copy of the heap, so what one execution does to a
// module's objects no other sees.

// RegistryModule is one host-approved module: the name code imports it
// by, its source, and whether that is TypeScript (its types are stripped
// when it is compiled).
type RegistryModule struct {
	Name       string `json:"name"`
	Source     string `json:"source"`
	TypeScript bool   `json:"typescript,omitempty"`
}

// Registry is a set of host-approved modules. The zero value and nil
// hold none.
type Registry struct {
	names  []string
	digest string
	// heapBytes is the QuickJS heap the modules may take once evaluated,
	// on top of every memory profile's (their linear memory and the
	// init-time heap limit grow by it).
	heapBytes int64
	// modules are the sources, sorted by name; nil until load reads them
	// (a child restoring a snapshot never does).
	modules []RegistryModule
	load    func() ([]RegistryModule, error)
}

// NewRegistry checks mods (names a request could import, no two alike,
// UTF-8 sources) and makes a registry of them, allowed heapBytes of
// QuickJS heap once evaluated.
func NewRegistry(mods []RegistryModule, heapBytes int64) (*Registry, error) {
	mods = slices.Clone(mods)
	sort.Slice(mods, func(i, j int) bool { return mods[i].Name < mods[j].Name })
	for i, m := range mods {
		if err := contract.CheckModuleName(m.Name); err != nil {
			return nil, fmt.Errorf("engine: registry: %w", err)
		}
		if m.Name == codeFile {
			return nil, fmt.Errorf("engine: registry: %q is the engine's name for the code", m.Name)
		}
		if i > 0 && mods[i-1].Name == m.Name {
			return nil, fmt.Errorf("engine: registry: module %q is given twice", m.Name)
		}
		if !utf8.ValidString(m.Source) {
			return nil, fmt.Errorf("engine: registry: module %q is not valid UTF-8", m.Name)
		}
	}
	if heapBytes < 0 {
		return nil, errors.New("engine: registry: a negative heap allowance")
	}
	r := &Registry{modules: mods, heapBytes: heapBytes}
	h := sha256.New()
	for _, m := range mods {
		r.names = append(r.names, m.Name)
		fmt.Fprintf(h, "%d:%s\n%t\n%d:", len(m.Name), m.Name, m.TypeScript, len(m.Source))
		h.Write([]byte(m.Source))
	}
	fmt.Fprintf(h, "\nheap %d\n", heapBytes)
	r.digest = hex.EncodeToString(h.Sum(nil))
	return r, nil
}

// Encode is the registry as a file (RegistryFromFile reads it back).
func (r *Registry) Encode() ([]byte, error) {
	return json.Marshal(registryFile{Modules: r.modules, HeapBytes: r.heapBytes})
}

type registryFile struct {
	Modules   []RegistryModule `json:"modules"`
	HeapBytes int64            `json:"heap_bytes"`
}

// RegistryFromFile is the registry Encode wrote to path, known by its
// digest, names and heap allowance (what a child is told): the file is
// read only if an instance has to evaluate the modules (no snapshot),
// and refused unless it is that registry.
func RegistryFromFile(path, digest string, names []string, heapBytes int64) *Registry {
	return &Registry{names: slices.Clone(names), digest: digest, heapBytes: heapBytes, load: func() ([]RegistryModule, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("engine: registry: %w", err)
		}
		var f registryFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("engine: registry %s: %w", path, err)
		}
		got, err := NewRegistry(f.Modules, f.HeapBytes)
		if err != nil {
			return nil, err
		}
		if got.digest != digest {
			return nil, fmt.Errorf("engine: registry %s is not the one the supervisor recorded (digest %s, want %s)", path, got.digest, digest)
		}
		return got.modules, nil
	}}
}

// Names are the registered modules' names, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	return r.names
}

// Digest identifies the registry (names, sources, heap allowance): ""
// for none.
func (r *Registry) Digest() string {
	if r == nil || len(r.names) == 0 {
		return ""
	}
	return r.digest
}

// HeapBytes is the heap allowance the modules are given.
func (r *Registry) HeapBytes() int64 {
	if r == nil || len(r.names) == 0 {
		return 0
	}
	return r.heapBytes
}

// Modules are the registered modules, read from the registry's file if
// it has one.
func (r *Registry) Modules() ([]RegistryModule, error) {
	if r == nil {
		return nil, nil
	}
	if r.modules == nil && r.load != nil {
		mods, err := r.load()
		if err != nil {
			return nil, err
		}
		r.modules = mods
	}
	return r.modules, nil
}

// has reports whether name is registered.
func (r *Registry) has(name string) bool {
	if r == nil {
		return false
	}
	_, found := slices.BinarySearch(r.names, name)
	return found
}

// registryFilename is the script that imports every registered module
// during init.
const registryFilename = "<warden-registry>"

// loadRegistry evaluates every registered module, with imports among
// them served from the registry and none from anywhere else, and runs
// the jobs their evaluation queues until it settles. It runs in init,
// before any untrusted code exists, with host functions closed: a
// module whose top level logs, sets a timer or makes a data request
// fails, as does one that imports a name outside the registry.
func (vm *VM) loadRegistry(r *Registry) error {
	mods, err := r.Modules()
	if err != nil {
		return err
	}
	sources := make(map[string]string, len(mods))
	for _, m := range mods {
		src := m.Source
		if m.TypeScript {
			t, err := typescript.Module(src)
			if err != nil {
				return fmt.Errorf("engine: registered module %q: %w", m.Name, err)
			}
			src = t.Code
		}
		sources[m.Name] = src
	}
	vm.registry = func(name string) (string, bool, string) {
		src, ok := sources[name]
		if !ok {
			return "", false, fmt.Sprintf("cannot find module %q: a registered module imports only registered modules (%s)", name, strings.Join(r.names, ", "))
		}
		return src, true, ""
	}
	defer func() { vm.registry = nil }()
	var script strings.Builder
	for _, m := range mods {
		script.WriteString("import " + strconv.Quote(m.Name) + ";\n")
	}
	promise, err := vm.evalCode(script.String(), registryFilename, evalFlagModule)
	if err != nil {
		return fmt.Errorf("engine: registered modules: %w", vm.describeInit(err))
	}
	defer vm.freeValue(promise)
	for {
		state, err := vm.call(vm.fn.promiseState, uint64(promise))
		if err != nil {
			return err
		}
		if state == 1 {
			return nil
		}
		if state == 2 {
			result, err := vm.call(vm.fn.promiseResult, uint64(promise))
			if err != nil {
				return err
			}
			return fmt.Errorf("engine: registered modules: %w", vm.describeInit(&jsException{value: uint32(result)}))
		}
		pending, err := vm.call(vm.fn.isJobPending)
		if err != nil {
			return err
		}
		if pending == 0 {
			return errors.New("engine: registered modules: their evaluation never settles (a top-level await nothing resolves)")
		}
		if rc, err := vm.call(vm.fn.executePendingJob); err != nil {
			return err
		} else if int32(rc) < 0 {
			exc, err := vm.call(vm.fn.getException)
			if err != nil {
				return err
			}
			return fmt.Errorf("engine: registered modules: %w", vm.describeInit(&jsException{value: uint32(exc)}))
		}
	}
}

// describeInit turns an exception raised during init into an error
// with its text (String(e) and the stack), and frees it.
func (vm *VM) describeInit(err error) error {
	var exc *jsException
	if !errors.As(err, &exc) {
		return err
	}
	defer vm.freeValue(exc.value)
	s, callErr := vm.callFunction(vm.api.describe, exc.value)
	if callErr != nil {
		return errors.New("an exception that could not be described")
	}
	defer vm.freeValue(s)
	b, _, ok, _ := vm.stringBytes(s, 64<<10)
	if !ok {
		return errors.New("an exception that could not be described")
	}
	var d struct{ Name, Message, Stack string }
	if json.Unmarshal(b, &d) != nil {
		return errors.New(string(b))
	}
	if d.Stack != "" {
		return errors.New(d.Stack)
	}
	return fmt.Errorf("%s: %s", d.Name, d.Message)
}
