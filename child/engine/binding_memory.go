package engine

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
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

// writeWTF8 writes b to w with each surrogate code point that QuickJS
// encodes as a 3-byte WTF-8 sequence (ED A0..BF xx) replaced by U+FFFD,
// and a high/low pair encoded separately joined into one 4-byte
// sequence: exactly what Go's utf16.Decode and the WHATWG TextEncoder do
// with lone surrogates. This is the rule for text (logs, names, what
// sha256 hashes). Valid UTF-8 is written as it is. For WTF-8, all
// QuickJS produces, the result is never longer than b; any other
// invalid byte becomes U+FFFD too (three bytes for one). It writes in
// pieces of b itself and at most 4-byte runes: it never holds a copy of
// b.
func writeWTF8(w io.Writer, b []byte) {
	transcodeWTF8(w, b, func(r4 []byte, surrogate rune) []byte {
		return utf8.AppendRune(r4, utf8.RuneError)
	})
}

// writeWTF8JSON writes JSON text b, in WTF-8, to w as UTF-8 JSON: each
// lone surrogate becomes the escape \uD800..\uDFFF, which is what
// JSON.stringify itself writes for one (ES2019's well-formed
// stringify), so that a value is the same JSON whether it went through
// JSON.stringify or JSON.rawJSON, and the string keeps the code unit (it
// is lossless, unlike U+FFFD). This is the rule for JSON (the result's
// value, host.request arguments). A surrogate can only stand inside a
// string literal (JSON's structure is ASCII), where the escape is valid.
// The result is at most twice as long as b.
func writeWTF8JSON(w io.Writer, b []byte) {
	transcodeWTF8(w, b, func(r6 []byte, surrogate rune) []byte {
		if surrogate == utf8.RuneError {
			return utf8.AppendRune(r6, utf8.RuneError)
		}
		const hex = "0123456789abcdef"
		return append(r6, '\\', 'u', hex[surrogate>>12&0xF], hex[surrogate>>8&0xF], hex[surrogate>>4&0xF], hex[surrogate&0xF])
	})
}

// wtf8ToJSON is writeWTF8JSON into a new slice (b itself when it is
// valid UTF-8).
func wtf8ToJSON(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	var sb bytes.Buffer
	sb.Grow(len(b) + len(b)/2)
	writeWTF8JSON(&sb, b)
	return sb.Bytes()
}

// transcodeWTF8 writes b to w as UTF-8: valid runs as they are, a
// surrogate pair encoded as two 3-byte sequences joined into one rune,
// and for a lone surrogate (or, as utf8.RuneError, any other invalid
// byte) what lone appends to the scratch slice it is given.
func transcodeWTF8(w io.Writer, b []byte, lone func(scratch []byte, surrogate rune) []byte) {
	if utf8.Valid(b) {
		w.Write(b)
		return
	}
	var scratch [8]byte
	start := 0 // b[start:i] is valid UTF-8 not yet written
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		if i+2 < len(b) && b[i] == 0xED && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2] >= 0x80 && b[i+2] <= 0xBF {
			w.Write(b[start:i])
			hi := rune(0xD000) | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
			if hi < 0xDC00 && i+5 < len(b) && b[i+3] == 0xED && b[i+4] >= 0xB0 && b[i+4] <= 0xBF && b[i+5] >= 0x80 && b[i+5] <= 0xBF {
				lo := rune(0xD000) | rune(b[i+4]&0x3F)<<6 | rune(b[i+5]&0x3F)
				w.Write(utf8.AppendRune(scratch[:0], 0x10000+(hi-0xD800)<<10+(lo-0xDC00)))
				i += 6
			} else {
				w.Write(lone(scratch[:0], hi))
				i += 3
			}
			start = i
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			w.Write(b[start:i])
			w.Write(lone(scratch[:0], utf8.RuneError))
			start = i + 1
		}
		i += size
	}
	w.Write(b[start:])
}
