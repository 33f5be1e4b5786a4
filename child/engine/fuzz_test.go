package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tetratelabs/wazero/api"

	"github.com/wardenhq/warden/contract"
)

// hostEntries are the Go functions the module calls, by the index
// FuzzHostCallArgs picks them with, and how many stack slots each reads.
var hostEntries = []struct {
	name string
	fn   api.GoModuleFunc
	args int
}{
	{"host_call", hostCall, 5},
	{"host_module_normalize", hostModuleNormalize, 2},
	{"host_module_load", hostModuleLoad, 2},
	{"host_promise_rejection", hostPromiseRejection, 3},
	{"host_interrupt", hostInterrupt, 0},
	{"fd_write", wasiFdWrite, 4},
	{"clock_time_get", wasiClockTimeGet, 3},
	{"random_get", wasiRandomGet, 2},
	{"fd_fdstat_get", wasiFdFdstatGet, 2},
}

// FuzzHostCallArgs calls the host functions with the pointers and
// lengths a subverted module could pass: arbitrary, or relative to a
// buffer of fuzzed bytes, with real JS strings and host-function names
// planted where flags say. The host must never panic: a call may throw
// into the guest, return an error code, or trap (abort and
// unwindIfInHost panic with vm.broken, which wazero returns as the
// trapping call's error; here it is recovered the same way).
func FuzzHostCallArgs(f *testing.F) {
	// host_call of warden_sha256, warden_request and warden_log with real
	// strings ("log" and the fuzzed bytes); arbitrary pointers; the
	// module loader; fd_write.
	f.Add(uint8(0), uint32(0), uint32(0), uint32(0), uint32(1), uint32(0), uint8(0b1110_0000), []byte("abcdefghijklmnop"))
	f.Add(uint8(0), uint32(1), uint32(0), uint32(0), uint32(2), uint32(0), uint8(0b1110_0000), []byte(`{"a":[1,2,3]}`))
	f.Add(uint8(0), uint32(2), uint32(0), uint32(0), uint32(2), uint32(0), uint8(0b1110_0000), []byte("some text í "))
	f.Add(uint8(0), uint32(0xFFFF_FFF0), uint32(0xFFFF_FFFF), uint32(0), uint32(0xFFFF_FFFF), uint32(0xFFFF_FFF0), uint8(0), []byte{})
	f.Add(uint8(0), uint32(0), uint32(0), uint32(0), uint32(2), uint32(0), uint8(0b0100_0000), []byte{0, 0, 0, 0, 0x10, 0, 0, 0})
	f.Add(uint8(2), uint32(0), uint32(16), uint32(0), uint32(0), uint32(0), uint8(0b0000_0011), []byte("mod\x00"))
	f.Add(uint8(5), uint32(1), uint32(0), uint32(1000), uint32(0), uint32(0), uint8(0b0000_1010), []byte{0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Add(uint8(3), uint32(8), uint32(8), uint32(0), uint32(0), uint32(0), uint8(0b0000_0011), []byte{1, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, which uint8, a, b, c, d, e uint32, flags uint8, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		entry := hostEntries[int(which)%len(hostEntries)]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		vm, err := testEngine.NewVM(ctx, contract.DefaultLimits.MemoryBytes)
		if err != nil {
			t.Fatal(err)
		}
		defer vm.Close(ctx)
		limits, _, _ := contract.Resolve(contract.Limits{OutputBytes: 4096, DataBytes: 4096, DataRequests: 2}, contract.DefaultLimits, contract.DefaultCaps)
		opts := RunOptions{Handler: func(_ context.Context, _ string, args json.RawMessage) (json.RawMessage, error) { return args, nil }}
		x, cancelRun := vm.startExecution(ctx, limits, opts, map[string]string{"mod": "export default 1"}, time.Now().Add(5*time.Second))
		defer cancelRun()
		x.ph = phaseRun

		// The fuzzed bytes, then two real strings and the host-function
		// names, in guest memory.
		base, _, err := vm.writeBytes(append(append([]byte(nil), data...), make([]byte, 16)...))
		if err != nil {
			t.Fatal(err)
		}
		str1, err := vm.newString("log")
		if err != nil {
			t.Fatal(err)
		}
		str2, err := vm.newString(string(data))
		if err != nil {
			t.Fatal(err)
		}
		names := []string{hostFnSHA256, hostFnRequest, hostFnLog, hostFnRandom, hostFnDigest, hostFnHMACSign, hostFnHMACVerify, hostFnSource, hostFnIntl}
		name := names[int(a)%len(names)]
		namePtr, _, err := vm.writeBytes([]byte(name))
		if err != nil {
			t.Fatal(err)
		}
		// flags bit i < 5: parameter i is an offset into the buffer.
		params := []uint32{a, b, c, d, e}
		span := uint32(len(data) + 16)
		for i := range params {
			if flags&(1<<i) != 0 {
				params[i] = base + params[i]%span
			}
		}
		if entry.name == "host_call" {
			// bit 5: the argv array (at the buffer's start) holds real
			// strings; bit 6: the name is a real host function's; bit 7:
			// argv is the buffer itself.
			if flags&(1<<5) != 0 {
				mem := vm.mod.Memory()
				mem.WriteUint32Le(base, str1)
				mem.WriteUint32Le(base+4, str2)
			}
			if flags&(1<<6) != 0 {
				params[0], params[1] = namePtr, uint32(len(name))
			}
			if flags&(1<<7) != 0 {
				params[4] = base
			}
		}
		stack := make([]uint64, max(entry.args, 1))
		for i := 0; i < entry.args; i++ {
			stack[i] = uint64(params[i])
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					var trap *errTrap
					if rerr, ok := r.(error); !ok || !errors.As(rerr, &trap) || r != any(vm.broken) {
						panic(r)
					}
				}
			}()
			entry.fn(vm.callCtx, vm.mod, stack)
		}()
		if vm.inHost {
			t.Fatal("inHost still set after the host function returned")
		}
		if int64(len(x.logs)) > 0 {
			enc, _ := json.Marshal(x.logs)
			if int64(len(enc)) > x.limits.OutputBytes {
				t.Fatalf("logs encode to %d bytes, over the %d-byte output limit", len(enc), x.limits.OutputBytes)
			}
		}
		if x.dataBytes > x.limits.DataBytes {
			t.Fatalf("data bytes %d over the limit %d", x.dataBytes, x.limits.DataBytes)
		}
	})
}

// FuzzWTF8: the streaming conversion writeWTF8 (used in place on guest
// memory) equals the one-piece reference and always gives valid UTF-8.
func FuzzWTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "\xed\xa0\x80", "\xed\xa0\xbd\xed\xb8\x80", "x\xed\xb0\x80y", "\xff\xfe", "é\xed\xa0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := wtf8ToUTF8(b)
		want := wtf8Reference(b)
		if string(got) != string(want) {
			t.Fatalf("wtf8ToUTF8(%x) = %x, reference %x", b, got, want)
		}
		if !utf8.Valid(got) {
			t.Fatalf("wtf8ToUTF8(%x) = %x: not UTF-8", b, got)
		}
		var w sliceWriter
		writeWTF8(&w, b)
		if string(w.b) != string(want) {
			t.Fatalf("writeWTF8(%x) = %x, reference %x", b, w.b, want)
		}
	})
}

// wtf8Reference is the conversion written as one loop over the input.
func wtf8Reference(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if i+2 < len(b) && b[i] == 0xED && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2] >= 0x80 && b[i+2] <= 0xBF {
			hi := rune(0xD000) | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
			if hi < 0xDC00 && i+5 < len(b) && b[i+3] == 0xED && b[i+4] >= 0xB0 && b[i+4] <= 0xBF && b[i+5] >= 0x80 && b[i+5] <= 0xBF {
				lo := rune(0xD000) | rune(b[i+4]&0x3F)<<6 | rune(b[i+5]&0x3F)
				out = utf8.AppendRune(out, 0x10000+(hi-0xD800)<<10+(lo-0xDC00))
				i += 6
				continue
			}
			out = utf8.AppendRune(out, utf8.RuneError)
			i += 3
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		out = utf8.AppendRune(out, r)
		i += size
	}
	return out
}

// wtf8ToUTF8 is writeWTF8 into a new slice (b itself when it is valid
// UTF-8), for the tests.
func wtf8ToUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	var out sliceWriter
	out.b = make([]byte, 0, len(b))
	writeWTF8(&out, b)
	return out.b
}

type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// FuzzWTF8JSON: the JSON rule gives valid UTF-8, and for a string
// literal valid JSON that decodes (Go's decoder turns an escaped lone
// surrogate into U+FFFD) to exactly what the text rule gives.
func FuzzWTF8JSON(f *testing.F) {
	for _, s := range []string{"", "abc", "\xed\xa0\x80", "\xed\xa0\xbd\xed\xb8\x80", "x\xed\xb0\x80y", "\xff\xfe", "é\xed\xa0", "\xed\xbf\xbf\xed\xa0\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out := wtf8ToJSON(b)
		if !utf8.Valid(out) {
			t.Fatalf("wtf8ToJSON(%x) = %x: not UTF-8", b, out)
		}
		if bytes.ContainsAny(b, "\"\\") || bytes.ContainsFunc(b, func(r rune) bool { return r < 0x20 }) {
			return
		}
		lit := wtf8ToJSON(append(append([]byte{'"'}, b...), '"'))
		var s string
		if err := json.Unmarshal(lit, &s); err != nil {
			t.Fatalf("wtf8ToJSON(%q) = %q: %v", b, lit, err)
		}
		if want := string(wtf8ToUTF8(b)); s != want {
			t.Fatalf("wtf8ToJSON(%q) decodes to %q, the text rule gives %q", b, s, want)
		}
	})
}
