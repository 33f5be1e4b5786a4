package engine

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"strconv"
)

// The crypto global's host functions (web/60-crypto.js closes over them).
// Bytes cross as binary strings: a JS string whose code units are the
// bytes (0-255), which QuickJS hands the host as UTF-8 (a byte under 0x80
// as itself, one from 0x80 as C2/C3 and a continuation byte). The host
// decodes them where they lie, in pieces, straight into the hash: nothing
// the guest passes is copied into Go memory whole, however long it is.
// What the guest allocated to build the string (the string, and QuickJS's
// UTF-8 copy of it) counted against its memory limit. Answers are short
// (a digest as hex) or bounded (random bytes, at most randomMax).

// Names of the crypto host functions.
const (
	hostFnRandom     = "warden_random"
	hostFnDigest     = "warden_digest"
	hostFnHMACSign   = "warden_hmac_sign"
	hostFnHMACVerify = "warden_hmac_verify"
)

// randomMax is the most bytes one warden_random call gives:
// getRandomValues' quota (the Web Cryptography API's 65,536 bytes).
const randomMax = 65536

var errNotBinary = errors.New("not a binary string")

// newHash is the hash named as the Web Cryptography API names it (the
// prelude has normalised the name), nil for any other.
func newHash(name string) func() hash.Hash {
	switch name {
	case "SHA-1":
		return sha1.New
	case "SHA-256":
		return sha256.New
	case "SHA-384":
		return sha512.New384
	case "SHA-512":
		return sha512.New
	}
	return nil
}

// writeBinary decodes b, a binary string's UTF-8, into w in pieces of at
// most 4 KiB: Go holds no copy of b.
func writeBinary(w io.Writer, b []byte) error {
	var buf [4096]byte
	n := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c >= 0x80 {
			if (c != 0xC2 && c != 0xC3) || i+1 >= len(b) || b[i+1]&0xC0 != 0x80 {
				return errNotBinary
			}
			c = (c&0x1F)<<6 | b[i+1]&0x3F
			i++
		}
		buf[n] = c
		n++
		if n == len(buf) {
			w.Write(buf[:])
			n = 0
		}
	}
	w.Write(buf[:n])
	return nil
}

// appendBinary appends p as a binary string's UTF-8.
func appendBinary(dst, p []byte) []byte {
	for _, c := range p {
		if c < 0x80 {
			dst = append(dst, c)
		} else {
			dst = append(dst, 0xC0|c>>6, 0x80|c&0x3F)
		}
	}
	return dst
}

// hostRandom answers count (decimal, at most randomMax) bytes from the
// operating system's generator (or det's stream), drawn now: nothing is drawn while the
// prelude loads, so children restored from one heap snapshot never
// share a value. The bytes are drawn 4 KiB at a time and encoded
// straight into a guest allocation: Go holds none of them.
func (vm *VM) hostRandom(count guestString, det *determinism) uint32 {
	text, err := vm.view(count)
	if err != nil || len(text) > 6 {
		return vm.throwError("warden: bad host call arguments")
	}
	n, err := strconv.Atoi(string(text))
	if err != nil || n < 0 || n > randomMax {
		return vm.throwError("warden: bad host call arguments")
	}
	p, err := vm.call(vm.fn.malloc, uint64(2*n+1))
	if err != nil || p == 0 {
		return 0 // the engine reports the guest out of memory
	}
	defer vm.call(vm.fn.free, p)
	out, ok := vm.mod.Memory().Read(uint32(p), uint32(2*n))
	if !ok {
		return vm.throwError("warden: bad host call arguments")
	}
	var chunk [4096]byte
	at := 0
	for done := 0; done < n; {
		c := chunk[:min(len(chunk), n-done)]
		if det != nil {
			det.Read(c)
		} else if _, err := rand.Read(c); err != nil {
			return vm.throwError("warden: no entropy: " + err.Error())
		}
		at += len(appendBinary(out[at:at], c))
		done += len(c)
	}
	box, err := vm.newStringAt(uint32(p), uint32(at))
	if err != nil {
		return 0
	}
	return box
}

// hostDigest answers the hash (named as the Web Cryptography API names
// it) of a binary string, as hex.
func (vm *VM) hostDigest(alg, data guestString) uint32 {
	h, ok := vm.hashFor(alg)
	if !ok {
		return vm.throwError("warden: unknown hash")
	}
	if !vm.hashBinary(h, data) {
		return vm.throwError("warden: bad host call arguments")
	}
	return vm.returnString(hex.EncodeToString(h.Sum(nil)))
}

// hostHMAC answers HMAC(key, data) with the named hash, as hex, or, for
// verify, "1" or "0" for whether it equals sig (compared in constant
// time).
func (vm *VM) hostHMAC(alg, key, data, sig guestString, verify bool) uint32 {
	newH, ok := vm.hashNamed(alg)
	if !ok {
		return vm.throwError("warden: unknown hash")
	}
	k, ok := vm.hmacKey(newH, key)
	if !ok {
		return vm.throwError("warden: bad host call arguments")
	}
	mac := hmac.New(newH, k)
	if !vm.hashBinary(mac, data) {
		return vm.throwError("warden: bad host call arguments")
	}
	sum := mac.Sum(nil)
	if !verify {
		return vm.returnString(hex.EncodeToString(sum))
	}
	// A signature of another length cannot match; only one of the MAC's
	// length is decoded (into a bounded buffer) and compared.
	want, ok := vm.boundedBinary(sig, len(sum))
	if !ok {
		return vm.throwError("warden: bad host call arguments")
	}
	if want != nil && hmac.Equal(sum, want) {
		return vm.returnString("1")
	}
	return vm.returnString("0")
}

func (vm *VM) hashNamed(alg guestString) (func() hash.Hash, bool) {
	name, err := vm.view(alg)
	if err != nil || len(name) > 16 {
		return nil, false
	}
	newH := newHash(string(name))
	return newH, newH != nil
}

func (vm *VM) hashFor(alg guestString) (hash.Hash, bool) {
	newH, ok := vm.hashNamed(alg)
	if !ok {
		return nil, false
	}
	return newH(), true
}

// hashBinary writes the binary string data into h, in place.
func (vm *VM) hashBinary(h io.Writer, data guestString) bool {
	b, err := vm.view(data)
	return err == nil && writeBinary(h, b) == nil
}

// hmacKey is the key HMAC uses for the binary string key: the key itself
// when it fits the hash's block, its hash when it is longer (RFC 2104,
// which is what crypto/hmac does with a long key too). Either way Go
// holds at most one block of it: a 10 MiB key is hashed in place, never
// copied.
func (vm *VM) hmacKey(newH func() hash.Hash, key guestString) ([]byte, bool) {
	b, err := vm.view(key)
	if err != nil {
		return nil, false
	}
	h := newH()
	kw := &keyWriter{limit: h.BlockSize(), h: h}
	if writeBinary(kw, b) != nil {
		return nil, false
	}
	if kw.hashing {
		return h.Sum(nil), true
	}
	return kw.buf, true
}

// keyWriter keeps what is written while it fits limit bytes, and hashes
// it all (into h) from the first byte over.
type keyWriter struct {
	limit   int
	buf     []byte
	h       hash.Hash
	hashing bool
}

func (w *keyWriter) Write(p []byte) (int, error) {
	if !w.hashing && len(w.buf)+len(p) <= w.limit {
		w.buf = append(w.buf, p...)
		return len(p), nil
	}
	if !w.hashing {
		w.hashing = true
		w.h.Write(w.buf)
		w.buf = nil
	}
	return w.h.Write(p)
}

// boundedBinary decodes the binary string s when it decodes to exactly n
// bytes; b is nil when its length is another.
func (vm *VM) boundedBinary(s guestString, n int) (b []byte, ok bool) {
	v, err := vm.view(s)
	if err != nil {
		return nil, false
	}
	if len(v) < n || len(v) > 2*n {
		return nil, true // n bytes are between n and 2n bytes of UTF-8
	}
	w := &boundedWriter{limit: n}
	if writeBinary(w, v) != nil {
		return nil, false
	}
	if w.over || len(w.buf) != n {
		return nil, true
	}
	return w.buf, true
}

// boundedWriter keeps what is written while it fits limit bytes.
type boundedWriter struct {
	limit int
	buf   []byte
	over  bool
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	if w.over || len(w.buf)+len(p) > w.limit {
		w.over = true
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}
