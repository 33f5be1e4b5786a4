package engine

import (
	"unicode/utf8"

	"github.com/wardenhq/warden/contract"
)

// Captured logs. Each entry costs what it adds to the logs' JSON
// encoding (its envelope, level, escaped text and a separator), so that
// the encoded logs, "[" and "]" and the truncation marker included, stay
// within the output limit however many entries the guest makes: the
// limit bounds the bytes that reach the wire, not only the text.

const logTruncatedMarker = "[warden: log output truncated: over the output limit]"

// logEntryOverhead is what one entry adds to the JSON beyond its quoted
// level and text: {"level":,"text":} and the comma before the next one.
const logEntryOverhead = len(`{"level":,"text":}`) + 1

// logEntryCost is the bytes the entry adds to the logs' JSON encoding
// (encoding/json, as the envelope is written).
func logEntryCost(level, text string) int64 {
	return int64(logEntryOverhead + jsonStringLen(level) + jsonStringLen(text))
}

var logMarkerCost = logEntryCost("warn", logTruncatedMarker)

// logRoom is what the next entry may cost and still leave room for the
// marker: the array's brackets take 2 bytes, less the last entry's
// separator that is never written.
func (vm *VM) logRoom() int64 {
	return vm.limits.OutputBytes - 1 - vm.logBytes - logMarkerCost
}

// hostLog keeps one console entry, or cuts the logs when it does not fit.
// The text's length is checked before a byte of it is copied: its WTF-8
// length never exceeds what it costs (QuickJS writes a surrogate pair as
// one 4-byte sequence, so converting its WTF-8 to UTF-8 never shortens
// it, and escaping never does).
func (vm *VM) hostLog(levelArg, textArg guestString) uint32 {
	level, ok := vm.logLevel(levelArg)
	if !ok {
		return vm.throwError("warden: bad host call arguments")
	}
	// The level and the text cost at least their length and two quotes.
	room := vm.logRoom() - int64(logEntryOverhead+len(level)+4)
	if int64(textArg.n) > room {
		return vm.cutLogs()
	}
	text, err := vm.utf8String(textArg)
	if err != nil {
		return vm.throwError("warden: bad host call arguments")
	}
	cost := logEntryCost(level, text)
	if cost > vm.logRoom() {
		return vm.cutLogs()
	}
	vm.logBytes += cost
	vm.keepLog(contract.LogEntry{Level: level, Text: text})
	return vm.returnString(logKeptAnswer)
}

// logLevel reads the level argument, which must be one the prelude uses.
func (vm *VM) logLevel(s guestString) (string, bool) {
	if s.n > 8 {
		return "", false
	}
	b, err := vm.view(s)
	if err != nil {
		return "", false
	}
	switch string(b) {
	case "log":
		return "log", true
	case "info":
		return "info", true
	case "warn":
		return "warn", true
	case "error":
		return "error", true
	case "debug":
		return "debug", true
	}
	return "", false
}

// cutLogs ends the logs with the truncation marker; later console calls
// are not even read. Entries always leave room for the marker, so it is
// left out only under an output limit smaller than the marker itself.
func (vm *VM) cutLogs() uint32 {
	vm.logsCut = true
	if vm.logRoom() >= 0 {
		vm.logBytes += logMarkerCost
		vm.keepLog(contract.LogEntry{Level: "warn", Text: logTruncatedMarker})
	}
	return vm.returnString(logCutAnswer)
}

func (vm *VM) keepLog(e contract.LogEntry) {
	vm.logs = append(vm.logs, e)
	if vm.opts.OnLog != nil {
		vm.opts.OnLog(e)
	}
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
