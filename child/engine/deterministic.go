package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/wardenhq/warden/contract"
)

// A deterministic execution (contract.Request.Deterministic) reaches no
// entropy and no clock of the host's. Every source the guest can read
// is one of these, and each is pinned:
//
//   - Math.random: QuickJS's xorshift64* state, written from the stream
//     before the code runs (found through the snapshot's fixups, or by
//     probing a VM that ran init itself);
//   - crypto.getRandomValues, randomUUID and subtle's keys (the
//     warden_random host function) and WASI random_get: the stream;
//   - Date.now(), new Date(), performance.now() and timeOrigin, and the
//     timers' clock: the virtual clock, which starts at NowMS and moves
//     only when the engine's loop would otherwise wait for a timer, by
//     exactly that wait (timers fire in order without waiting);
//   - a registered module's load-time Date.now() held in the snapshot
//     (fixRealtimeMSValue): rewritten to NowMS.
//
// QuickJS's hash seed is left as the child drew it: it lays out the
// buckets of Maps, Sets and the atom table, which no value reads
// (iteration follows insertion order), and the Maps the prelude built
// before the request would break if it changed. The stream is ChaCha8
// (math/rand/v2) keyed with SHA-256("warden deterministic 1\n" || seed
// as 8 bytes, little-endian): the first 8 bytes drawn are the Math.random
// state (drawn again while zero), then every draw in the order the code
// makes them.
type determinism struct {
	stream  *rand.ChaCha8
	nowNS   int64         // the virtual clock's start, ns since the epoch
	elapsed time.Duration // what the timers have moved it
}

func newDeterminism(d contract.Deterministic) *determinism {
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], d.Seed)
	key := sha256.Sum256(append([]byte("warden deterministic 1\n"), seed[:]...))
	return &determinism{stream: rand.NewChaCha8(key), nowNS: d.NowMS * int64(time.Millisecond)}
}

// Read draws from the stream; it never fails.
func (d *determinism) Read(b []byte) (int, error) { return d.stream.Read(b) }

// realtimeNS and monotonicNS are the virtual clock as WASI's realtime
// and monotonic clocks (the monotonic one, never 0, as the host's).
func (d *determinism) realtimeNS() int64  { return d.nowNS + int64(d.elapsed) }
func (d *determinism) monotonicNS() int64 { return int64(d.elapsed) + 1 }

// clockNS is what WASI's clock_time_get answers for clockID during x (x
// may be nil: init, a restore), and whether clockID is known.
func clockNS(x *execution, clockID uint32) (int64, bool) {
	var d *determinism
	if x != nil {
		d = x.det
	}
	switch {
	case clockID == 0 && d != nil:
		return d.realtimeNS(), true
	case clockID == 0:
		return time.Now().UnixNano(), true
	case clockID == 1 && d != nil:
		return d.monotonicNS(), true
	case clockID == 1 && x != nil:
		// A resumed execution's clock goes on from where it parked.
		return monotonicNS() + x.monoOffset, true
	case clockID == 1:
		return monotonicNS(), true
	}
	return 0, false
}

// beginDeterministic pins what the VM drew before the request: the
// Math.random state, and the realtime readings a snapshot holds.
func (x *execution) beginDeterministic() error {
	vm := x.vm
	off, err := vm.mathRandomState()
	if err != nil {
		return fmt.Errorf("engine: deterministic mode: %w", err)
	}
	var state uint64
	for state == 0 {
		var b [8]byte
		x.det.Read(b[:])
		state = binary.LittleEndian.Uint64(b[:])
	}
	m := vm.mod.Memory()
	ok := m.WriteUint64Le(off, state)
	for _, fx := range vm.fixups {
		if fx.Kind == fixRealtimeMSValue {
			ok = ok && m.WriteUint64Le(fx.Offset, boxFloat64(float64(x.det.nowNS/int64(time.Millisecond))))
		}
	}
	if !ok {
		return fmt.Errorf("engine: deterministic mode: the Math.random state at %d is out of range", off)
	}
	return nil
}

// mathRandomState is where QuickJS keeps the Math.random state: a
// restored VM's snapshot names it; a VM that ran init itself is probed
// the way a snapshot is made (findRandomState), which moves the state
// one step and costs a copy of its memory.
func (vm *VM) mathRandomState() (uint32, error) {
	for _, fx := range vm.fixups {
		if fx.Kind == fixRandomState {
			return fx.Offset, nil
		}
	}
	mem, ok := vm.mod.Memory().Read(0, vm.mod.Memory().Size())
	if !ok {
		return 0, fmt.Errorf("cannot read the instance's memory")
	}
	return findRandomState(&initSample{vm: vm, mem: bytes.Clone(mem)})
}

// entropy is where x's random bytes come from: the deterministic
// stream, or nil for the operating system's generator.
func (x *execution) entropy() *determinism {
	if x == nil {
		return nil
	}
	return x.det
}
