package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/wardenhq/warden/internal/registry"
	"github.com/wardenhq/warden/internal/typescript"
)

// The registry: modules the host approved, evaluated into every
// instance during init (so into the heap snapshot) before any untrusted
// code exists. QuickJS keeps each evaluated module under its name, and
// an import of that name resolves to it without the loader being asked:
// importing one costs an execution nothing but the lookup. Each child
// maps its own copy of the heap, so what one execution does to a
// module's objects no other sees.

// Registry is the set of host-approved modules an engine evaluates. The
// zero value and nil hold none.
type Registry struct {
	names     []string
	digest    string
	heapBytes int64
	// set holds the sources; nil until load reads them (a child restoring
	// a snapshot never does).
	set  *registry.Set
	load func() (*registry.Set, error)
}

// NewRegistry is the registry of set, whose sources it holds.
func NewRegistry(set *registry.Set) *Registry {
	return &Registry{names: set.Names(), digest: set.Digest(), heapBytes: set.HeapBytes, set: set}
}

// RegistryFromFile is the registry in the file at path (registry.Set's
// Encode), known by its digest, names and heap allowance (what a child
// is told): the file is read only when an instance has to evaluate the
// modules (no snapshot), and refused unless it is that registry.
func RegistryFromFile(path, digest string, names []string, heapBytes int64) *Registry {
	return &Registry{names: slices.Clone(names), digest: digest, heapBytes: heapBytes, load: func() (*registry.Set, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		set, err := registry.Decode(b)
		if err != nil {
			return nil, fmt.Errorf("engine: %s: %w", path, err)
		}
		if set.Digest() != digest {
			return nil, fmt.Errorf("engine: registry %s is not the one the supervisor recorded (digest %s, want %s)", path, set.Digest(), digest)
		}
		return set, nil
	}}
}

// Names are the registered modules' names, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	return r.names
}

// Digest identifies the registry: "" for none.
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

// modules are the registered modules, read from the registry's file if
// it has one.
func (r *Registry) modules() ([]registry.Module, error) {
	if r.set == nil && r.load != nil {
		set, err := r.load()
		if err != nil {
			return nil, err
		}
		r.set = set
	}
	if r.set == nil {
		return nil, nil
	}
	return r.set.Modules, nil
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
	mods, err := r.modules()
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
			vm.clearDeadStack()
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

// clearDeadStack zeroes the shadow stack below its pointer, which init
// leaves back at the top: the frames the registered modules' evaluation
// left there are dead, but what they held (a clock reading a libc call
// put on the stack) would differ from one init to the next.
func (vm *VM) clearDeadStack() {
	view, ok := vm.mod.Memory().Read(0, vm.stackTop)
	if !ok {
		return
	}
	clear(view[firstNonZero(view):])
}
