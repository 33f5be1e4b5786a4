package engine

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The source host function: the prelude's stack rewriting (mapPosition
// in prelude.js) asks for the line of the user's code or of a module
// that a frame points at, to count its columns as V8 does and to show a
// syntax error's line. The host has the texts and finds a line at Go's
// speed; the guest would scan the whole code in its interpreter (a
// 160 to 380 ms for 240 KiB on the test machine).

// hostFnSource names it: (file, line) -> "1" + the line's text, or "0"
// when the file or line is not known. Line 0 asks for the number of
// lines. "<code>" is the wrapper's text (run's source, the user's code
// from its second line), or a module's with the same lines. A line of
// the form "L:C" asks where that position of the JavaScript the engine
// ran was in the TypeScript: "1L:C", or "0" when the file was not
// TypeScript (mapOrigin).
const hostFnSource = "warden_source"

// sourceAnswer answers the source host function for file and line.
func (x *execution) sourceAnswer(file, line string) uint32 {
	if strings.Contains(line, ":") {
		return x.mapOrigin(file, line)
	}
	n, err := strconv.Atoi(line)
	if err != nil || n < 0 {
		return x.vm.returnString("0")
	}
	text, ok := x.moduleText(file)
	if !ok {
		return x.vm.returnString("0")
	}
	starts := x.lineStarts[file]
	if starts == nil {
		starts = lineStarts(text)
		if x.lineStarts == nil {
			x.lineStarts = map[string][]int{}
		}
		x.lineStarts[file] = starts
	}
	if n == 0 {
		return x.vm.returnString("1", strconv.Itoa(len(starts)))
	}
	if n > len(starts) {
		return x.vm.returnString("0")
	}
	end := len(text)
	if n < len(starts) {
		end = starts[n]
	}
	return x.vm.returnString("1", trimLineEnd(text[starts[n-1]:end]))
}

// lineStarts is where each line of text begins, with the line
// terminators QuickJS counts: LF, CR, CRLF, U+2028 and U+2029.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\r' && i+1 < len(text) && text[i+1] == '\n':
			size = 2
			fallthrough
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			starts = append(starts, i+size)
		}
		i += size
	}
	return starts
}

// trimLineEnd drops the terminator a line from lineStarts ends with.
func trimLineEnd(line string) string {
	for _, t := range []string{"\r\n", "\n", "\r", "\u2028", "\u2029"} {
		if len(line) >= len(t) && line[len(line)-len(t):] == t {
			return line[:len(line)-len(t)]
		}
	}
	return line
}
