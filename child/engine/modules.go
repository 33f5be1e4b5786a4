package engine

import "fmt"

// The module loader: only the modules given with the request exist.

func (vm *VM) normalizeModule(basePtr, namePtr uint32) uint32 {
	vm.enterHost()
	defer vm.leaveHost()
	name, ok := vm.readCString(namePtr, 4096)
	if !ok {
		return vm.throwError("module specifier too long")
	}
	p, _, err := vm.writeBytes([]byte(name))
	if err != nil {
		return 0
	}
	return p
}

func (vm *VM) loadModule(namePtr, outLenPtr uint32) uint32 {
	vm.enterHost()
	defer vm.leaveHost()
	name, ok := vm.readCString(namePtr, 4096)
	if !ok {
		return vm.throwError("module specifier too long")
	}
	src, found := vm.modules[name]
	if !found || vm.ph != phaseRun {
		return vm.throwError(fmt.Sprintf("cannot find module %q: only the modules given with the request can be imported", name))
	}
	p, n, err := vm.writeBytes([]byte(src))
	if err != nil {
		return 0
	}
	vm.mod.Memory().WriteUint32Le(outLenPtr, n)
	return p
}
