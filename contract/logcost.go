package contract

import "unicode/utf8"

// logEntryOverhead is what one entry adds to the logs' JSON beyond its
// quoted level and text: {"level":,"text":} and the comma before the
// next one.
const logEntryOverhead = len(`{"level":,"text":}`) + 1

// LogEntryCost is the bytes a log entry adds to the logs' JSON encoding
// (encoding/json, as the envelope is written), its separator included:
// the measure the engine bounds a child's logs by (Stats.LogBytes), and
// the supervisor the logs it keeps of a child it had to kill. The logs'
// JSON is the sum of its entries' costs plus one ("[" and "]", less the
// last entry's separator).
func LogEntryCost(level, text string) int64 {
	return int64(logEntryOverhead + jsonStringLen(level) + jsonStringLen(text))
}

// jsonStringLen is the length of s as encoding/json writes it: quoted,
// with <, > and & escaped (HTML-safe, the default), control characters
// escaped, invalid bytes as \ufffd, U+2028 and U+2029 escaped.
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '\\' || b == '"' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			case b < 0x20 || b == '<' || b == '>' || b == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}
