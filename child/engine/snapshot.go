package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"sync"

	"github.com/wardenhq/warden/contract"
)

// A heap snapshot is the QuickJS instance's linear memory right after
// WASI initialisation, qjs_init, the init-time limits and the prelude:
// everything NewVM does that does not depend on the request, and that is
// byte for byte the same in every child but for a few words of entropy.
// A child maps it privately (copy-on-write) as its linear memory instead
// of running init (docs/snapshot.md).
//
// The file: a header of snapshotHeaderSize bytes (snapshotHeader as
// JSON, padded with zeros), then the memory from ImageStart to the end
// of its last page. Memory below ImageStart is all zeros and is not in
// the file. The header's offset keeps the image aligned for mmap on
// kernels with pages up to 64 KiB.

const (
	snapshotMagic      = "warden-heap-snapshot-1"
	snapshotHeaderSize = 64 << 10
	// snapshotHeaderMax bounds the header's JSON: a child reads only
	// this much of the header block, and hashes the rest as the zeros it
	// must be (zeroPad), without allocating it.
	snapshotHeaderMax = 4 << 10
	wasmPage          = 64 << 10
	// xorshiftMul is QuickJS's xorshift64* multiplier (Math.random).
	xorshiftMul = 0x2545F4914F6CDD1D
)

// Kinds of snapshotFixup: what a restored instance writes at a word that
// init filled from entropy or the clock.
const (
	// fixRandomState is QuickJS's Math.random state (xorshift64*): fresh
	// entropy, never zero.
	fixRandomState = "random_state"
	// fixRandom is any other word init drew from entropy (the bytes
	// random_get handed out): fresh entropy.
	fixRandom = "random"
	// fixHashSeed is QuickJS's Map and Set hash seed: fresh entropy. A
	// snapshot with registered modules has none: their Maps were built
	// with a seed pinned for the snapshot, which every child keeps
	// (pinHashSeed).
	fixHashSeed = "hash_seed"
	// fixMonotonicMS is a float64 of the monotonic clock in ms read at
	// init (QuickJS's performance.now origin): the restoring process's
	// own clock.
	fixMonotonicMS = "monotonic_ms"
	// fixMonotonicMSValue is the same reading held as a JSValue: a
	// float64 NaN-boxed as this 32-bit build boxes it (jsFloat64Addend),
	// a copy init left in the heap.
	fixMonotonicMSValue = "monotonic_ms_value"
	// fixRealtimeMSValue is a Date.now() reading held as a JSValue (a
	// registered module that notes its load time): the restoring
	// process's own time, as if it had loaded the module.
	fixRealtimeMSValue = "realtime_ms_value"
)

// jsFloat64Addend is what QuickJS-NG's NaN boxing (JS_NAN_BOXING, on in
// 32-bit builds such as this one) subtracts from the high word of a
// float64's bits to make a JSValue: JS_FLOAT64_TAG_ADDEND, 0x7ff80000 -
// JS_TAG_FIRST (-9) + 1.
const jsFloat64Addend = 0x7ff80000 + 9 + 1

// boxFloat64 and unboxFloat64 convert between a float64 and its JSValue.
func boxFloat64(f float64) uint64   { return math.Float64bits(f) - jsFloat64Addend<<32 }
func unboxFloat64(v uint64) float64 { return math.Float64frombits(v + jsFloat64Addend<<32) }

// snapshotHeader describes a snapshot and ties it to what made it.
type snapshotHeader struct {
	Magic string `json:"magic"`
	// Key is snapshotKey() of the engine that made it: the module's and
	// the prelude's SHA-256, the wazero flavour, the init-time stack
	// limit. A child refuses a snapshot whose key is not its own.
	Key string `json:"key"`
	// Pages is the linear memory's size, in wasm pages; ImageStart the
	// first byte the file holds (a multiple of a wasm page).
	Pages      uint32 `json:"pages"`
	ImageStart uint32 `json:"image_start"`
	// StackTop is a fresh instance's __stack_pointer; StackPointer the
	// snapshot's (the module's only mutable global).
	StackTop     uint32 `json:"stack_top"`
	StackPointer uint32 `json:"stack_pointer"`
	// Guest addresses the VM keeps (VM.scratch, VM.api).
	Scratch      uint32 `json:"scratch"`
	APIRun       uint32 `json:"api_run"`
	APITimers    uint32 `json:"api_timers"`
	APIFinish    uint32 `json:"api_finish"`
	APIDescribe  uint32 `json:"api_describe"`
	APISetTimers uint32 `json:"api_set_timers"`
	APIRunModule uint32 `json:"api_run_module"`
	APIAnswer    uint32 `json:"api_answer"`
	// Fixups are the words init filled from entropy or the clock: every
	// byte in which two inits differ is in one (WriteSnapshot checks).
	Fixups []snapshotFixup `json:"fixups"`
}

type snapshotFixup struct {
	Offset uint32 `json:"offset"`
	Size   uint32 `json:"size"`
	Kind   string `json:"kind"`
}

// zeroPad is the header block's padding, as it must read.
var zeroPad [snapshotHeaderSize - snapshotHeaderMax]byte

// ErrSnapshotRefused is matched (errors.Is) by every refusal of a
// snapshot file: wrong digest, size, key or shape.
var ErrSnapshotRefused = errors.New("engine: heap snapshot refused")

// snapshotKey ties a snapshot to everything that shapes the memory it
// holds: the module, the prelude, the wazero build (whose memory layout
// is the same today, but nothing promises it), the stack limit init
// sets, and the format. The memory profile is not in it: init's one
// profile-dependent write (QuickJS's memory limit) is made again after
// a restore, and the header's Pages must fit the profile's page cap.
func snapshotKey(prelude string) string {
	return keyOfPreludeHash(sha256Hex([]byte(prelude)))
}

// preludeKey is the real prelude's key, hashed once per process (every
// NewVM of a snapshot engine checks it), from its parts: the composed
// text is never built for it.
var preludeKey = sync.OnceValue(func() string {
	h := sha256.New()
	writePrelude(h, preludeCore, web)
	return keyOfPreludeHash(hex.EncodeToString(h.Sum(nil)))
})

func keyOfPreludeHash(preludeSHA256 string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\nwasm %s\nprelude %s\nflavour %s\nstack %d\n",
		snapshotMagic, WasmSHA256, preludeSHA256, CacheFlavour(), contract.MaxStackBytes)
	return hex.EncodeToString(h.Sum(nil))
}

// SnapshotFile is where, relative to a cache directory, this build's
// heap snapshot lives: its key is in the name, so a snapshot another
// module, prelude or wazero build made is never even opened. It is
// outside the flavour's compilation-cache directory, so a child hashes
// it once, while mapping it, and not again with the compiled module.
// With registered modules (Config.Registry) the key and the name hold
// the registry's digest too: registryDigest is Registry.Digest, "" for
// none.
func SnapshotFile(registryDigest string) string {
	return snapshotFileOfKey(keyWithRegistry(preludeKey(), registryDigest))
}

// keyWithRegistry is a snapshot key that also ties it to the registered
// modules init evaluated: each set has its own snapshot.
func keyWithRegistry(key, registryDigest string) string {
	if registryDigest == "" {
		return key
	}
	return sha256Hex([]byte(key + "\nregistry " + registryDigest))
}

// keyOf is this engine's snapshot key for prelude.
func (e *Engine) keyOf(prelude string) string {
	return keyWithRegistry(snapshotKey(prelude), e.cfg.Registry.Digest())
}

func snapshotFileOfKey(key string) string {
	return path.Join("snapshots", CacheFlavour()+"-"+key[:32]+".snap")
}

// parseSnapshotHeader reads and checks a header block against key.
func parseSnapshotHeader(block []byte, key string) (*snapshotHeader, error) {
	end := bytes.IndexByte(block, 0)
	if end < 0 {
		end = len(block)
	}
	var h snapshotHeader
	if err := json.Unmarshal(block[:end], &h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrSnapshotRefused, err)
	}
	switch {
	case h.Magic != snapshotMagic:
		return nil, fmt.Errorf("%w: not a snapshot of this format (%q)", ErrSnapshotRefused, h.Magic)
	case h.Key != key:
		return nil, fmt.Errorf("%w: made for another module, prelude or wazero build (key %.16s, want %.16s)", ErrSnapshotRefused, h.Key, key)
	case h.ImageStart%wasmPage != 0 || uint64(h.ImageStart) >= uint64(h.Pages)*wasmPage:
		return nil, fmt.Errorf("%w: image starts at %d of %d pages", ErrSnapshotRefused, h.ImageStart, h.Pages)
	}
	seenState := false
	for _, f := range h.Fixups {
		if uint64(f.Offset)+uint64(f.Size) > uint64(h.Pages)*wasmPage || f.Size == 0 || f.Size > 64 {
			return nil, fmt.Errorf("%w: fixup out of range", ErrSnapshotRefused)
		}
		switch f.Kind {
		case fixRandomState:
			seenState = f.Size == 8
		case fixRandom, fixHashSeed:
		case fixMonotonicMS, fixMonotonicMSValue, fixRealtimeMSValue:
			if f.Size != 8 {
				return nil, fmt.Errorf("%w: clock fixup of %d bytes", ErrSnapshotRefused, f.Size)
			}
		default:
			return nil, fmt.Errorf("%w: unknown fixup %q", ErrSnapshotRefused, f.Kind)
		}
	}
	if !seenState {
		// A snapshot whose Math.random state cannot be reseeded would
		// give every child the same sequence.
		return nil, fmt.Errorf("%w: it names no Math.random state to reseed", ErrSnapshotRefused)
	}
	return &h, nil
}

// imageLen is how many bytes of memory the file holds.
func (h *snapshotHeader) imageLen() int64 {
	return int64(h.Pages)*wasmPage - int64(h.ImageStart)
}
