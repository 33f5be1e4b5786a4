package engine

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// WTF-8, what QuickJS encodes strings in, to the UTF-8 the host speaks:
// one rule for text (a lone surrogate becomes U+FFFD) and one for JSON (it
// becomes the escape JSON.stringify writes).

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
