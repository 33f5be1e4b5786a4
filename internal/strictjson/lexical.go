package strictjson

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// str reads a string at s.i (its opening quote): valid UTF-8, no control
// character, escapes as RFC 8259 spells them and no lone surrogate
// (\ud800 alone, or \udc00 without a high one before it). With decode it
// returns the string's value (for a member name).
func (s *scanner) str(decode bool) (string, error) {
	s.i++ // "
	start := s.i
	escaped := false // out holds the value so far (from the first escape on)
	var out strings.Builder
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			if !decode {
				return "", nil
			}
			if !escaped {
				return string(s.b[start : s.i-1]), nil
			}
			return out.String(), nil
		case c < 0x20:
			return "", s.fail("control character %U in a string (escape it)", rune(c))
		case c == '\\':
			if decode && !escaped {
				out.Write(s.b[start:s.i])
				escaped = true
			}
			r, err := s.escape()
			if err != nil {
				return "", err
			}
			if decode {
				out.WriteRune(r)
			}
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				return "", s.fail("invalid UTF-8 (byte %#02x)", c)
			}
			if escaped {
				out.Write(s.b[s.i : s.i+size])
			}
			s.i += size
			continue
		}
		if escaped {
			out.WriteByte(c)
		}
		s.i++
	}
	return "", s.fail("unexpected end of the JSON text in a string")
}

// simpleEscape is the rune a one-letter escape stands for, or -1.
func simpleEscape(c byte) rune {
	switch c {
	case '"', '\\', '/':
		return rune(c)
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return -1
}

// escape reads one escape at s.i (its backslash) and returns the rune
// it stands for; a surrogate pair is one escape here.
func (s *scanner) escape() (rune, error) {
	if s.i+1 >= len(s.b) {
		return 0, s.fail("unexpected end of the JSON text in a string")
	}
	c := s.b[s.i+1]
	if r := simpleEscape(c); r >= 0 {
		s.i += 2
		return r, nil
	}
	if c != 'u' {
		return 0, s.fail("invalid escape \\%c in a string", rune(c))
	}
	r, ok := s.hex4(s.i + 2)
	if !ok {
		return 0, s.fail("invalid \\u escape in a string (want 4 hex digits)")
	}
	switch {
	case r >= 0xD800 && r <= 0xDFFF && s.raw && !s.pairAt(s.i):
		s.i += 6 // kept as written: see scanner.raw
		return r, nil
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, s.fail("lone surrogate \\u%04x in a string (a low surrogate with no high one before it)", r)
	case r >= 0xD800 && r <= 0xDBFF:
		lo, ok := rune(0), s.i+7 < len(s.b) && s.b[s.i+6] == '\\' && s.b[s.i+7] == 'u'
		if ok {
			lo, ok = s.hex4(s.i + 8)
		}
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return 0, s.fail("lone surrogate \\u%04x in a string (a high surrogate with no low one after it)", r)
		}
		s.i += 12
		return (r-0xD800)<<10 | (lo - 0xDC00) + 0x10000, nil
	}
	s.i += 6
	return r, nil
}

// pairAt reports whether the \u escape at b[at:] is a high surrogate
// followed by a low one.
func (s *scanner) pairAt(at int) bool {
	hi, ok := s.hex4(at + 2)
	if !ok || hi < 0xD800 || hi > 0xDBFF || at+7 >= len(s.b) || s.b[at+6] != '\\' || s.b[at+7] != 'u' {
		return false
	}
	lo, ok := s.hex4(at + 8)
	return ok && lo >= 0xDC00 && lo <= 0xDFFF
}

// hex4 reads the 4 hex digits at b[at:].
func (s *scanner) hex4(at int) (rune, bool) {
	if at+4 > len(s.b) {
		return 0, false
	}
	var r rune
	for _, c := range s.b[at : at+4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// number reads a number as RFC 8259 spells it and, for an integer type,
// refuses a fraction, an exponent or a value out of the type's range.
func (s *scanner) number(sh shape, bits int) error {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return s.fail("invalid number (want a digit)")
	}
	integer := true
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		integer = false
		if s.digits() == 0 {
			return s.fail("invalid number (want a digit after '.')")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		integer = false
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return s.fail("invalid number (want a digit in the exponent)")
		}
	}
	text := string(s.b[start:s.i])
	var err error
	switch sh {
	case intShape:
		_, err = strconv.ParseInt(text, 10, bits)
	case uintShape:
		_, err = strconv.ParseUint(text, 10, bits)
	case floatShape:
		_, err = strconv.ParseFloat(text, bits)
	default:
		return nil
	}
	if err != nil || (!integer && sh != floatShape) {
		s.i = start
		return s.fail("%s is not %s in the range of a %d-bit value", text, wantNames[sh], bits)
	}
	return nil
}

func (s *scanner) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}
