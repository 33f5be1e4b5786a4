package engine

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// The module loader: only the modules given with the request exist.

// jsStringHeaderBytes is sizeof(JSString) in this build. QuickJS hands
// the loader's callbacks specifiers as C strings, and every C string it
// makes (JS_ToCString, JS_AtomToCString) is the body of a JSString whose
// header sits just before it and holds the UTF-8 length in its first
// word's low 31 bits: that is how JS_FreeCString finds the string to
// free. The header is the only place the specifier's length survives
// ("m\0zzz" reads as "m" up to its NUL), so normalizeModule reads it
// (docs/quickjs-wasm.md, fact 11; TestModuleSpecifierHasALength).
const jsStringHeaderBytes = 24

// maxSpecifierBytes bounds the specifier the host reads.
const maxSpecifierBytes = 4096

// normalizeModule answers QuickJS's module-name normalisation: the name
// as it is, when it can match a module given with a request at all.
func (vm *VM) normalizeModule(basePtr, namePtr uint32, x *execution) uint32 {
	name, ok := vm.readSpecifier(namePtr)
	if !ok {
		return vm.throwError(fmt.Sprintf("cannot find module %q: a specifier is at most %d bytes, with no control characters", name, maxSpecifierBytes))
	}
	if name == codeFile {
		// The code's own module (or the one compiled to tell its form)
		// is the engine's; it is never evaluated again by an import.
		return vm.throwError(fmt.Sprintf("cannot find module %q: the code cannot import itself", name))
	}
	if x != nil && x.imports != nil && vm.reg.has(name) && !slices.Contains(x.imports, name) {
		// A registered module is found among the loaded ones without the
		// loader being asked: the allow-list is held here.
		allowed := "none"
		if len(x.imports) > 0 {
			allowed = strings.Join(x.imports, ", ")
		}
		return vm.throwError(fmt.Sprintf("cannot import module %q: it is registered, but not among the modules this execution may import (%s)", name, allowed))
	}
	p, _, err := vm.writeBytes([]byte(name))
	if err != nil {
		return 0
	}
	return p
}

// readSpecifier reads the specifier QuickJS passes as a C string at p.
// ok is false when it is too long, when its length (from its JSString
// header) is not where its first NUL is — it holds a NUL, so the C string
// is only a prefix of what the guest asked for — or when it holds another
// control character: no module name given with a request can
// (contract.Request.Check), so none can match. name is what was read, for
// the message.
func (vm *VM) readSpecifier(p uint32) (name string, ok bool) {
	name, ok = vm.readCString(p, maxSpecifierBytes)
	if !ok {
		return "", false
	}
	if p < jsStringHeaderBytes {
		return name, false
	}
	word, ok := vm.mod.Memory().ReadUint32Le(p - jsStringHeaderBytes)
	if !ok {
		return name, false
	}
	if n := word & (1<<31 - 1); n != uint32(len(name)) {
		// The bytes past the NUL are the guest's; show them.
		if rest, ok := vm.mod.Memory().Read(p, min(n, maxSpecifierBytes)); ok && n > uint32(len(name)) {
			name = string(rest)
		}
		return name, false
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return name, false
		}
	}
	return name, true
}

// moduleSourcer gives a module's source to the loader, or says why
// there is none (the message the import throws).
type moduleSourcer func(name string) (src string, ok bool, message string)

// loadModule answers QuickJS's module loader with the source of the
// module named at namePtr, from source: the execution's (the request's
// modules, while its code runs), or nil, which has none.
func (vm *VM) loadModule(namePtr, outLenPtr uint32, source moduleSourcer) uint32 {
	// The name is what normalizeModule returned (QuickJS copies it), so
	// it holds no NUL: a C string is all of it.
	name, ok := vm.readCString(namePtr, maxSpecifierBytes)
	if !ok {
		return vm.throwError("module specifier too long")
	}
	if source == nil {
		return vm.throwError(fmt.Sprintf("cannot find module %q: nothing can be imported here", name))
	}
	src, found, message := source(name)
	if !found {
		return vm.throwError(message)
	}
	p, n, err := vm.writeBytes([]byte(src))
	if err != nil {
		return 0
	}
	vm.mod.Memory().WriteUint32Le(outLenPtr, n)
	return p
}
