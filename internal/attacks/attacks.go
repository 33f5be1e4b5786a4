// Package attacks is Warden's shipped corpus of attack scripts: sandbox
// escapes, QuickJS crash reproducers, resource bombs, isolation pairs,
// information leaks and determinism checks, each with the outcome
// Warden's contract promises for it. `warden stress` runs it under load
// and `go test ./internal/attacks/` runs it once through a real
// supervisor. An embedder attacks its own set-up with `warden stress`
// (against a daemon with --server), not by importing this package.
//
// A script is a file corpus/CATEGORY/NAME.js whose leading comment lines
// carry its header:
//
//	// expect: ok | TYPE[/kind] [| TYPE[/kind]]...
//	// value: JSON          the value an ok outcome must equal ("any": any)
//	// category: CATEGORY   the directory it lives in
//	// source: CVE-..., vm2#NNN, a paper, or original
//	// timeout: 300ms       limits (default: the contract's defaults)
//	// memory: 8MiB
//	// limits: {"output_bytes": 1024}
//	// input: JSON
//	// language: typescript  the request's language (default javascript)
//	// format: module       the request's format (default: none given)
//	// logs: ["text", ...]  the texts the logs must hold
//	// clamped: NAME...     the limits the envelope must say were clamped
//	// known: WHY           a known failure: run and reported, not counted
//
// A line "//== module NAME" starts the source of a module the current
// execution may import, and "//== next" starts a second execution run
// after the first on the same supervisor (an isolation pair): the first
// must end ok, and its value is the second's input.
package attacks

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/wardenhq/warden/contract"
)

//go:embed corpus
var corpus embed.FS

// Categories are the corpus's categories, one directory each.
var Categories = []string{"escape", "quickjs", "resource", "isolation", "leak", "determinism"}

// Script is one attack: one or more executions and what the last must
// end in.
type Script struct {
	// Name is CATEGORY/FILE without ".js".
	Name     string
	Category string
	Source   string
	// Known, when set, says why today's build fails this script: its
	// outcome is still checked and reported, but not counted as a
	// failure.
	Known  string
	Steps  []Step
	Expect Expect
}

// Step is one execution of a script.
type Step struct {
	Request contract.Request
	// InputFromPrevious makes the previous step's value this step's
	// input.
	InputFromPrevious bool
}

// Outcome is one acceptable ending: ok (Type "") or an error type with
// an optional kind.
type Outcome struct {
	Type contract.ErrorType
	Kind string
}

func (o Outcome) String() string {
	switch {
	case o.Type == "":
		return "ok"
	case o.Kind != "":
		return string(o.Type) + "/" + o.Kind
	}
	return string(o.Type)
}

// Expect is what a script's last execution must end in.
type Expect struct {
	// Any of these outcomes.
	Outcomes []Outcome
	// Value, for an ok outcome: the JSON the value must equal; nil means
	// any value.
	Value json.RawMessage
	// Logs, when set, is the JSON array of the texts the logs must hold.
	Logs json.RawMessage
	// Clamped, when set, are the limits the envelope must name as
	// clamped to their cap.
	Clamped []string
}

func (e Expect) String() string {
	var parts []string
	for _, o := range e.Outcomes {
		parts = append(parts, o.String())
	}
	s := strings.Join(parts, " | ")
	if e.Value != nil {
		s += " value " + string(e.Value)
	}
	return s
}

// Check says whether res meets the expectation, and if not, why.
func (e Expect) Check(res contract.Result) error {
	if e.Clamped != nil && !slices.Equal(e.Clamped, res.Clamped) {
		return fmt.Errorf("clamped %q, want %q", res.Clamped, e.Clamped)
	}
	if e.Logs != nil {
		texts := make([]string, 0, len(res.Logs))
		for _, l := range res.Logs {
			texts = append(texts, l.Text)
		}
		if got, _ := json.Marshal(texts); !jsonEqual(e.Logs, got) {
			return fmt.Errorf("logs %.300s, want %s", got, e.Logs)
		}
	}
	if len(res.Value) > 0 && !contract.ValidJSON(res.Value) {
		// Whatever the script returned, the envelope is UTF-8 JSON.
		return fmt.Errorf("value %.300q is %s", res.Value, contract.WhyNotJSON(res.Value))
	}
	for _, o := range e.Outcomes {
		if o.Type == "" && res.OK {
			if e.Value == nil || jsonEqual(e.Value, res.Value) {
				return nil
			}
			return fmt.Errorf("value %.300s, want %s", res.Value, e.Value)
		}
		if o.Type != "" && !res.OK && res.Error != nil && res.Error.Is(&contract.Error{Type: o.Type, Kind: o.Kind}) {
			return nil
		}
	}
	if res.OK {
		return fmt.Errorf("want %s, got ok %.300s", e, res.Value)
	}
	if res.Error == nil {
		return fmt.Errorf("want %s, got a failed envelope without an error", e)
	}
	return fmt.Errorf("want %s, got %s: %.300s", e, Outcome{res.Error.Type, res.Error.Kind}, res.Error.Message)
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// Corpus is the shipped corpus.
func Corpus() ([]Script, error) {
	sub, err := fs.Sub(corpus, "corpus")
	if err != nil {
		return nil, err
	}
	return Load(sub)
}

// Load reads every CATEGORY/*.js of fsys as a script.
func Load(fsys fs.FS) ([]Script, error) {
	var out []Script
	for _, cat := range Categories {
		files, err := fs.Glob(fsys, cat+"/*.js")
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := fs.ReadFile(fsys, f)
			if err != nil {
				return nil, err
			}
			s, err := Parse(strings.TrimSuffix(f, ".js"), string(b))
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, &HeaderError{Name: ".", Msg: "no scripts in any of " + strings.Join(Categories, ", ")}
	}
	return out, nil
}

// HeaderError is a script whose header is missing or malformed.
type HeaderError struct{ Name, Msg string }

func (e *HeaderError) Error() string { return "attacks: " + e.Name + ": " + e.Msg }

// Parse reads one script named name (CATEGORY/FILE) from its source.
func Parse(name, src string) (Script, error) {
	s := Script{Name: name}
	bad := func(format string, a ...any) (Script, error) {
		return Script{}, &HeaderError{Name: name, Msg: fmt.Sprintf(format, a...)}
	}
	h, err := parseHeader(&s, strings.Split(src, "\n"))
	if err != nil {
		return bad("%v", err)
	}
	lines := h.lines
	switch {
	case len(s.Expect.Outcomes) == 0:
		return bad("no '// expect:' line")
	case s.Source == "":
		return bad("no '// source:' line")
	case s.Category != path.Dir(name):
		return bad("category %q, but it lives in %q", s.Category, path.Dir(name))
	case !slices.Contains(Categories, s.Category):
		return bad("unknown category %q", s.Category)
	}
	if s.Expect.Value == nil && slices.Contains(s.Expect.Outcomes, Outcome{}) && !h.anyValue {
		return bad("an ok expectation needs '// value: JSON' (or 'any')")
	}
	s.Steps = splitSteps(lines, h.limits, h.input)
	for i := range s.Steps {
		s.Steps[i].Request.Language, s.Steps[i].Request.Format = h.language, h.format
	}
	return s, nil
}

func parseOutcomes(v string) ([]Outcome, error) {
	var out []Outcome
	for _, alt := range strings.Split(v, "|") {
		alt = strings.TrimSpace(alt)
		if alt == "ok" {
			out = append(out, Outcome{})
			continue
		}
		typ, kind, _ := strings.Cut(alt, "/")
		if !contract.ErrorType(typ).Known() {
			return nil, fmt.Errorf("unknown error type %q", typ)
		}
		out = append(out, Outcome{contract.ErrorType(typ), kind})
	}
	return out, nil
}

// splitSteps cuts the source at "//== next" and "//== module NAME" lines.
func splitSteps(lines []string, lim contract.Limits, input json.RawMessage) []Step {
	steps := []Step{{Request: contract.Request{Limits: lim, Input: input}}}
	var buf []string
	module := ""
	flush := func() {
		cur := &steps[len(steps)-1].Request
		text := strings.Join(buf, "\n")
		if module == "" {
			cur.Code = text
		} else {
			if cur.Modules == nil {
				cur.Modules = map[string]string{}
			}
			cur.Modules[module] = text
		}
		buf = nil
	}
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "//== next"):
			flush()
			module = ""
			steps = append(steps, Step{Request: contract.Request{Limits: lim}, InputFromPrevious: true})
		case strings.HasPrefix(line, "//== module "):
			flush()
			module = strings.TrimSpace(strings.TrimPrefix(line, "//== module "))
		default:
			buf = append(buf, line)
		}
	}
	flush()
	return steps
}

// header is what a script's leading comment lines say of its requests
// (its expectations go straight into the Script).
type header struct {
	lines            []string
	limits           contract.Limits
	input            json.RawMessage
	language, format string
	anyValue         bool // "// value: any": an ok expectation with no value to check
}

// parseHeader reads the leading comment lines of a script's source
// lines into s's expectations and the header of its requests.
func parseHeader(s *Script, lines []string) (header, error) {
	h := header{lines: lines}
	for _, line := range lines {
		if !strings.HasPrefix(line, "//") {
			break
		}
		key, val, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "//")), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		var err error
		switch key {
		case "expect":
			s.Expect.Outcomes, err = parseOutcomes(val)
		case "value":
			h.anyValue = val == "any"
			if !h.anyValue {
				if !json.Valid([]byte(val)) {
					return h, fmt.Errorf("value %q is not JSON", val)
				}
				s.Expect.Value = json.RawMessage(val)
			}
		case "logs":
			if !json.Valid([]byte(val)) {
				return h, fmt.Errorf("logs %q is not JSON", val)
			}
			s.Expect.Logs = json.RawMessage(val)
		case "clamped":
			s.Expect.Clamped = strings.Fields(val)
		case "category":
			s.Category = val
		case "source":
			s.Source = val
		case "known":
			s.Known = val
		case "timeout":
			h.limits.Timeout, err = time.ParseDuration(val)
		case "memory":
			h.limits.MemoryBytes, err = contract.ParseSize(val)
		case "limits":
			var l contract.Limits
			if err = json.Unmarshal([]byte(val), &l); err == nil {
				h.limits = l.WithDefaults(h.limits)
			}
		case "language":
			h.language = val
		case "format":
			h.format = val
		case "input":
			if !json.Valid([]byte(val)) {
				return h, fmt.Errorf("input %q is not JSON", val)
			}
			h.input = json.RawMessage(val)
		}
		if err != nil {
			return h, fmt.Errorf("%s: %v", key, err)
		}
	}
	return h, nil
}
