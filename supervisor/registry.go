package supervisor

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/registry"
	"github.com/wardenhq/warden/ipc"
)

// The registry of host-approved modules (Config.Modules, ModulesDir):
// read and checked by New, written into the cache directory for the
// compile child (which evaluates it into the heap snapshot) and the
// children (which read it only when they have no snapshot).

// loadRegistry reads cfg's registered modules: nil when there are none.
func loadRegistry(cfg *Config) (*registry.Set, error) {
	if cfg.MaxModulesBytes < 0 || cfg.ModulesHeapBytes < 0 {
		return nil, errors.New("supervisor: negative MaxModulesBytes or ModulesHeapBytes")
	}
	if cfg.MaxModulesBytes == 0 {
		cfg.MaxModulesBytes = DefaultMaxModulesBytes
	}
	mods := registry.FromMap(cfg.Modules)
	if cfg.ModulesDir != "" {
		fromDir, err := registry.FromDir(cfg.ModulesDir, cfg.MaxModulesBytes)
		if err != nil {
			return nil, fmt.Errorf("supervisor: Config.ModulesDir: %w", err)
		}
		mods = append(mods, fromDir...)
	}
	if len(mods) == 0 {
		return nil, nil
	}
	var total int64
	for _, m := range mods {
		total += int64(len(m.Source))
	}
	if total > cfg.MaxModulesBytes {
		return nil, fmt.Errorf("supervisor: the registered modules are %d bytes, over Config.MaxModulesBytes (%d)", total, cfg.MaxModulesBytes)
	}
	if cfg.ModulesHeapBytes == 0 {
		cfg.ModulesHeapBytes = 8*total + 4<<20
	}
	set, err := registry.New(mods, cfg.ModulesHeapBytes)
	if err != nil {
		return nil, fmt.Errorf("supervisor: Config.Modules: %w", err)
	}
	return set, nil
}

// writeRegistry writes the registry into the cache directory, where the
// compile child and the children read it, replacing a file of the same
// name by rename (its name is its digest: the content is the same).
func writeRegistry(cacheDir string, set *registry.Set) error {
	b, err := set.Encode()
	if err != nil {
		return fmt.Errorf("supervisor: registry: %w", err)
	}
	if err := writeCacheFile(filepath.Join(cacheDir, registry.FileName(set.Digest())), b); err != nil {
		return fmt.Errorf("supervisor: registry: %w", err)
	}
	return nil
}

// registryRef is what a child is told of the registry: nil for none.
func registryRef(set *registry.Set) *ipc.RegistryRef {
	if set == nil {
		return nil
	}
	return &ipc.RegistryRef{File: registry.FileName(set.Digest()), Digest: set.Digest(), Names: set.Names(), HeapBytes: set.HeapBytes}
}

// registryHeap is the heap allowance of the registered modules.
func registryHeap(set *registry.Set) int64 {
	if set == nil {
		return 0
	}
	return set.HeapBytes
}

// checkShadowing refuses a request whose own modules take a registered
// module's name.
func checkShadowing(set *registry.Set, req contract.Request) error {
	if set == nil {
		return nil
	}
	for name := range req.Modules {
		if _, found := slices.BinarySearchFunc(set.Modules, name, func(m registry.Module, n string) int {
			switch {
			case m.Name < n:
				return -1
			case m.Name > n:
				return 1
			}
			return 0
		}); found {
			return contract.Errorf(contract.ContractError, "module %q is registered with the supervisor: a request's modules cannot replace it", name)
		}
	}
	return nil
}

// ModuleInfo describes one registered module, for warden doctor.
type ModuleInfo struct {
	Name       string
	Bytes      int64
	SHA256     string
	TypeScript bool
}

// Modules lists the registered modules; RegistryCap is the most their
// sources may take (Config.MaxModulesBytes) and the heap they are given.
func (s *Supervisor) Modules() []ModuleInfo {
	set := s.registry
	if set == nil {
		return nil
	}
	out := make([]ModuleInfo, len(set.Modules))
	for i, m := range set.Modules {
		out[i] = ModuleInfo{Name: m.Name, Bytes: int64(len(m.Source)), SHA256: registry.ModuleDigest(m), TypeScript: m.TypeScript}
	}
	return out
}

// RegistryLimits are Config.MaxModulesBytes and ModulesHeapBytes as
// resolved.
func (s *Supervisor) RegistryLimits() (maxBytes, heapBytes int64) {
	return s.cfg.MaxModulesBytes, registryHeap(s.registry)
}
