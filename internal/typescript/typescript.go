// Package typescript strips the types from TypeScript source with
// esbuild's transform, under options Warden fixes (the TS loader, no
// bundling, no file system, no plugins, no lowering, nothing taken from
// the source's pragmas or a tsconfig), and maps positions in the
// JavaScript it makes back to the TypeScript through the source map
// esbuild returns. Types are not checked.
//
// It parses untrusted input, and a deeply nested input overflows any
// goroutine stack, which Go's runtime answers by ending the process
// (TestDeepNestingKillsItsProcess): a caller runs it in a process that
// may die for one execution, never in the supervisor. Nothing Warden
// ships calls it yet.
package typescript

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// SyntaxError is TypeScript esbuild cannot parse, at its position in
// the source as the user wrote it (1-based line, 0-based column in
// UTF-16 code units, as JavaScript's stacks count).
type SyntaxError struct {
	Message      string
	Line, Column int
	LineText     string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s (%d:%d)", e.Message, e.Line, e.Column)
}

// Result is the JavaScript esbuild made of a source and the map back.
type Result struct {
	Code string
	// rawMap is esbuild's source map, decoded only when a position is
	// asked for (most executions never throw); dropped is the
	// generated line the body's wrapper took, -1 for none.
	rawMap  []byte
	dropped int
	m       *sourceMap
	// lineShift is subtracted from the map's original lines: a
	// function body was transformed inside a wrapper of that many lines.
	lineShift int
}

// options are the only transform options: fixed, never the caller's.
// ESNext keeps every construct QuickJS-NG runs as it is; decorators,
// which neither it nor Node 20 parses, are lowered to esbuild's helpers.
var options = api.TransformOptions{
	Loader:     api.LoaderTS,
	Target:     api.ESNext,
	Supported:  map[string]bool{"decorators": false},
	Format:     api.FormatDefault,
	Sourcemap:  api.SourceMapExternal,
	Sourcefile: "code.ts",
	LogLevel:   api.LogLevelSilent,
	// An empty tsconfig: no paths, no JSX factory, no
	// experimentalDecorators unless the source's own syntax asks.
	TsconfigRaw: "{}",
}

// Module transforms TypeScript that is a module or a script.
func Module(src string) (*Result, error) { return transform(src, 0) }

// bodyStart and bodyEnd wrap a function body (Warden's default form,
// whose top-level return a module cannot have) in a function on lines
// of their own, so that the body's lines are the source's, one down.
const (
	bodyStart = "async function warden_body(input) {\n"
	bodyEnd   = "\n}\n"
)

// Body transforms TypeScript that is a function body of input: the
// result is the body again, as JavaScript.
func Body(src string) (*Result, error) {
	r, err := transform(bodyStart+src+bodyEnd, 1)
	if err != nil {
		return nil, err
	}
	// esbuild prints the wrapper on a line of its own and its close on
	// the last; the lines between are the body (indented, which the
	// map's columns count). Helpers it injects (the lowered decorators')
	// come before the wrapper, and move into the body.
	lines := strings.Split(strings.TrimSuffix(r.Code, "\n"), "\n")
	at := slices.Index(lines, "async function warden_body(input) {")
	if at < 0 || len(lines) < at+2 || lines[len(lines)-1] != "}" {
		return nil, errors.New("typescript: esbuild printed the body's wrapper in a form Warden does not know")
	}
	body := append(append([]string(nil), lines[:at]...), lines[at+1:len(lines)-1]...)
	r.Code = strings.Join(body, "\n") + "\n"
	r.dropped = at
	return r, nil
}

func transform(src string, shift int) (*Result, error) {
	out := api.Transform(src, options)
	if len(out.Errors) > 0 {
		e := out.Errors[0]
		se := &SyntaxError{Message: e.Text}
		if e.Location != nil {
			se.Line, se.Column, se.LineText = e.Location.Line-shift, utf16Columns(e.Location.LineText, e.Location.Column), e.Location.LineText
		}
		return nil, se
	}
	return &Result{Code: string(out.Code), rawMap: out.Map, dropped: -1, lineShift: shift}, nil
}

// Original maps a position in Code (1-based line, 0-based column) to
// the TypeScript source's; ok is false where the map has nothing.
func (r *Result) Original(line, column int) (origLine, origColumn int, ok bool) {
	if r.m == nil {
		m, err := parseSourceMap(r.rawMap)
		if err != nil {
			return 0, 0, false
		}
		m.dropLine(r.dropped)
		r.m = m
	}
	l, c, ok := r.m.lookup(line-1, column)
	if !ok || l+1-r.lineShift < 1 {
		return 0, 0, false
	}
	return l + 1 - r.lineShift, c, true
}

// utf16Columns turns esbuild's byte column in lineText into UTF-16
// code units.
func utf16Columns(lineText string, byteColumn int) int {
	if byteColumn > len(lineText) {
		byteColumn = len(lineText)
	}
	n := 0
	for _, r := range lineText[:byteColumn] {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
