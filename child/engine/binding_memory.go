package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

// Guest-memory marshalling: every byte that crosses between Go and the
// module's linear memory goes through these functions. Reads are bounds-
// checked by wazero (an out-of-range pointer or length is an error, never
// a panic), and nothing is copied out before its length has been checked
// against the budget it will count towards.

var errGuestOOM = errors.New("engine: guest allocation failed")

// writeParts copies the concatenation of parts into a fresh
// NUL-terminated guest allocation.
func (vm *VM) writeParts(parts ...[]byte) (ptr, n uint32, err error) {
	total := 0
	for _, b := range parts {
		total += len(b)
	}
	if total >= 1<<31 {
		return 0, 0, errors.New("engine: value too large for guest memory")
	}
	p, err := vm.call(vm.fn.malloc, uint64(total+1))
	if err != nil {
		return 0, 0, err
	}
	if p == 0 {
		return 0, 0, errGuestOOM
	}
	mem := vm.mod.Memory()
	at := uint32(p)
	for _, b := range parts {
		if !mem.Write(at, b) {
			return 0, 0, errors.New("engine: write out of range")
		}
		at += uint32(len(b))
	}
	if !mem.WriteByte(at, 0) {
		return 0, 0, errors.New("engine: write out of range")
	}
	return uint32(p), uint32(total), nil
}

// writeBytes copies b into a fresh NUL-terminated guest allocation.
func (vm *VM) writeBytes(b []byte) (ptr, n uint32, err error) {
	return vm.writeParts(b)
}

// freeValue releases a JSValue box. Once the instance is broken nothing is
// released: it is discarded whole, and no call may run after a trap.
func (vm *VM) freeValue(box uint32) {
	if box != 0 && vm.broken == nil {
		vm.call(vm.fn.freeValue, uint64(box))
	}
}

// guestString is a JS string's WTF-8 bytes in guest memory: the engine
// converts the string (inside the guest, against its memory limit) and
// reports the length, and the host reads only what it can afford.
type guestString struct {
	cstr, n uint32
}

// stringAt returns where a JS string value's WTF-8 bytes lie, without
// copying them; ok is false when the value is not a string. It never
// converts a non-string: that would run guest code (toString). The
// caller releases a returned string with freeString.
func (vm *VM) stringAt(box uint32) (s guestString, ok bool, err error) {
	isStr, err := vm.call(vm.fn.isString, uint64(box))
	if err != nil || isStr == 0 {
		return guestString{}, false, err
	}
	cstr, err := vm.call(vm.fn.getStringLen, uint64(box), uint64(vm.scratch))
	if err != nil {
		return guestString{}, false, err
	}
	if cstr == 0 {
		return guestString{}, false, errGuestOOM
	}
	n, okLen := vm.mod.Memory().ReadUint32Le(vm.scratch)
	if !okLen {
		vm.freeString(guestString{cstr: uint32(cstr)})
		return guestString{}, false, errors.New("engine: scratch out of range")
	}
	return guestString{cstr: uint32(cstr), n: n}, true, nil
}

func (vm *VM) freeString(s guestString) {
	if s.cstr != 0 && vm.broken == nil {
		vm.call(vm.fn.freeCString, uint64(s.cstr))
	}
}

// view returns the string's bytes in place. The slice aliases linear
// memory: use it before the next call into the module (which may grow
// memory and move it), and never keep it.
func (vm *VM) view(s guestString) ([]byte, error) {
	b, ok := vm.mod.Memory().Read(s.cstr, s.n)
	if !ok {
		return nil, errors.New("engine: string out of range")
	}
	return b, nil
}

// utf8String copies the string out as UTF-8 text, in one copy.
func (vm *VM) utf8String(s guestString) (string, error) {
	b, err := vm.view(s)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.Grow(len(b))
	writeWTF8(&sb, b)
	return sb.String(), nil
}

// stringBytes copies out a JS string's WTF-8 bytes when they are at most
// max bytes long (max < 0: any length); n is the length either way, and b
// is nil when it is over max. ok is false when the value is not a string.
func (vm *VM) stringBytes(box uint32, max int64) (b []byte, n int64, ok bool, err error) {
	s, ok, err := vm.stringAt(box)
	if err != nil || !ok {
		return nil, 0, ok, err
	}
	defer vm.freeString(s)
	if max >= 0 && int64(s.n) > max {
		return nil, int64(s.n), true, nil
	}
	v, err := vm.view(s)
	if err != nil {
		return nil, 0, false, err
	}
	return append([]byte(nil), v...), int64(s.n), true, nil
}

// newString makes a JS string from the concatenation of parts (text).
func (vm *VM) newString(parts ...string) (uint32, error) {
	bs := make([][]byte, len(parts))
	for i, p := range parts {
		bs[i] = []byte(p)
	}
	return vm.newStringBytes(bs...)
}

// newStringBytes makes a JS string from the concatenation of parts
// (UTF-8). It fails with errGuestOOM when the guest is out of memory.
func (vm *VM) newStringBytes(parts ...[]byte) (uint32, error) {
	p, n, err := vm.writeParts(parts...)
	if err != nil {
		return 0, err
	}
	defer vm.call(vm.fn.free, uint64(p))
	return vm.newStringAt(p, n)
}

// newStringAt makes a JS string from the n bytes of UTF-8 at p in guest
// memory. It fails with errGuestOOM when the guest is out of memory.
func (vm *VM) newStringAt(p, n uint32) (uint32, error) {
	box, err := vm.call(vm.fn.newString, uint64(p), uint64(n))
	if err != nil {
		return 0, err
	}
	isExc, err := vm.call(vm.fn.isException, box)
	if err != nil {
		return 0, err
	}
	if isExc != 0 {
		vm.freeValue(uint32(box))
		return 0, errGuestOOM
	}
	return uint32(box), nil
}

// throwError makes the current host call throw an Error with msg; it
// returns the 0 the trampoline expects. It defines "message" rather than
// setting it, so no guest setter can run.
func (vm *VM) throwError(msg string) uint32 {
	errBox, err := vm.call(vm.fn.newError)
	if err != nil || errBox == 0 {
		return 0
	}
	defer vm.freeValue(uint32(errBox))
	if msgBox, err := vm.newString(msg); err == nil {
		vm.call(vm.fn.definePropString, errBox, uint64(vm.messageKey), uint64(msgBox), 3)
		vm.freeValue(msgBox)
	}
	if exc, err := vm.call(vm.fn.throw, errBox); err == nil {
		vm.freeValue(uint32(exc))
	}
	return 0
}

// readCString reads a NUL-terminated string of at most max bytes.
func (vm *VM) readCString(p uint32, max uint32) (string, bool) {
	mem := vm.mod.Memory()
	var b []byte
	for i := uint32(0); i <= max; i++ {
		c, ok := mem.ReadByte(p + i)
		if !ok {
			return "", false
		}
		if c == 0 {
			return string(b), true
		}
		b = append(b, c)
	}
	return "", false
}

// returnString answers a host call with the concatenation of parts.
func (vm *VM) returnString(parts ...string) uint32 {
	box, err := vm.newString(parts...)
	if err != nil {
		return 0
	}
	return box
}

// hostSHA256 hashes the string where it lies: nothing is copied out, and
// the UTF-8 conversion of lone surrogates streams into the hash.
func (vm *VM) hostSHA256(text guestString) uint32 {
	b, err := vm.view(text)
	if err != nil {
		return vm.throwError("warden: bad host call arguments")
	}
	h := sha256.New()
	writeWTF8(h, b)
	var sum [sha256.Size]byte
	return vm.returnString(hex.EncodeToString(h.Sum(sum[:0])))
}
