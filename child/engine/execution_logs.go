package engine

import "github.com/wardenhq/warden/contract"

// Captured logs. Each entry costs what it adds to the logs' JSON
// encoding (its envelope, level, escaped text and a separator), so that
// the encoded logs, "[" and "]" and the truncation marker included, stay
// within the output limit however many entries the guest makes: the
// limit bounds the bytes that reach the wire, not only the text.

const logTruncatedMarker = "[warden: log output truncated: over the output limit]"

var logMarkerCost = contract.LogEntryCost("warn", logTruncatedMarker)

// logRoom is what the next entry may cost and still leave room for the
// marker: the array's brackets take 2 bytes, less the last entry's
// separator that is never written.
func (x *execution) logRoom() int64 {
	return x.limits.OutputBytes - 1 - x.logBytes - logMarkerCost
}

// hostLog keeps one console entry, or cuts the logs when it does not fit.
// The text's length is checked before a byte of it is copied: its WTF-8
// length never exceeds what it costs (QuickJS writes a surrogate pair as
// one 4-byte sequence, so converting its WTF-8 to UTF-8 never shortens
// it, and escaping never does).
func (x *execution) hostLog(levelArg, textArg guestString) uint32 {
	level, ok := x.vm.logLevel(levelArg)
	if !ok {
		return x.vm.throwError("warden: bad host call arguments")
	}
	// The text costs at least its length on top of an empty text's entry.
	room := x.logRoom() - contract.LogEntryCost(level, "")
	if int64(textArg.n) > room {
		return x.cutLogs()
	}
	text, err := x.vm.utf8String(textArg)
	if err != nil {
		return x.vm.throwError("warden: bad host call arguments")
	}
	cost := contract.LogEntryCost(level, text)
	if cost > x.logRoom() {
		return x.cutLogs()
	}
	x.logBytes += cost
	x.keepLog(contract.LogEntry{Level: level, Text: text})
	return x.vm.returnString(logKeptAnswer)
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
func (x *execution) cutLogs() uint32 {
	x.logsCut = true
	if x.logRoom() >= 0 {
		x.logBytes += logMarkerCost
		x.keepLog(contract.LogEntry{Level: "warn", Text: logTruncatedMarker})
	}
	return x.vm.returnString(logCutAnswer)
}

func (x *execution) keepLog(e contract.LogEntry) {
	x.logs = append(x.logs, e)
	if x.opts.OnLog != nil {
		x.opts.OnLog(e)
	}
}
