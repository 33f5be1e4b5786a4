package engine

import (
	"runtime/debug"
	"sync"
)

// CacheFlavour names the wazero build this binary carries: "patched"
// when the wazero module is replaced (`make build` builds against the
// project's patch), "stock" otherwise. The engine keeps its compilation
// cache entries under a subdirectory of that name: the two builds never
// read each other's entries anyway (the patched entry format is part of
// its cache key), and apart a child checks the digests of its own
// build's entries only, not of every build that shared the directory.
func CacheFlavour() string { return cacheFlavour() }

var cacheFlavour = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/tetratelabs/wazero" && dep.Replace != nil {
				return "patched"
			}
		}
	}
	return "stock"
})
