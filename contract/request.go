package contract

import (
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Check reports, as a ContractError, what makes r malformed whatever its
// limits: an unknown language or format, code, module names or sources
// that are not UTF-8, a module name that is empty or holds a control
// character, input that is not JSON in UTF-8, or a deterministic mode's
// seed or start time out of range. Every surface runs it (the supervisor before it takes a
// child, the engine before it runs anything), so each refuses the same
// requests the same way.
func (r Request) Check() error {
	switch r.Language {
	case "", LanguageJavaScript, LanguageTypeScript:
	default:
		return Errorf(ContractError, "language %q is not one of %q and %q", r.Language, LanguageJavaScript, LanguageTypeScript)
	}
	switch r.Format {
	case "", FormatBody, FormatModule:
	default:
		return Errorf(ContractError, "format %q is not one of %q and %q (or empty: a body unless the code is a module)", r.Format, FormatBody, FormatModule)
	}
	if !utf8.ValidString(r.Code) {
		return Errorf(ContractError, "code is not valid UTF-8")
	}
	for name, src := range r.Modules {
		if err := CheckModuleName(name); err != nil {
			return err
		}
		if !utf8.ValidString(src) {
			return Errorf(ContractError, "module %q is not valid UTF-8", name)
		}
	}
	if len(r.Input) > 0 && !ValidJSON(r.Input) {
		return Errorf(ContractError, "input is %s", WhyNotJSON(r.Input))
	}
	if d := r.Deterministic; d != nil {
		if d.Seed > MaxSafeSeed {
			return Errorf(ContractError, "deterministic.seed %d is over %d (Number.MAX_SAFE_INTEGER: a JSON client in JavaScript would not read it exactly)", d.Seed, uint64(MaxSafeSeed))
		}
		if d.NowMS < 0 || d.NowMS > MaxNowMS {
			return Errorf(ContractError, "deterministic.now_ms %d is not between 0 (the Unix epoch) and %d (the end of Date's range)", d.NowMS, int64(MaxNowMS))
		}
	}
	return nil
}

// CheckModuleName refuses a module specifier no import can name
// faithfully: an empty one, one that is not UTF-8, or one with a control
// character. The engine's loader is handed specifiers as C strings, so a
// NUL would make "m\x00x" and "m" one name; the other control characters
// go with it, as nothing legitimate spells a module with them.
func CheckModuleName(name string) error {
	if name == "" {
		return Errorf(ContractError, "a module name is empty")
	}
	if !utf8.ValidString(name) {
		return Errorf(ContractError, "module name %q is not valid UTF-8", name)
	}
	for i, r := range name {
		if unicode.IsControl(r) {
			return Errorf(ContractError, "module name %q has the control character %U at byte %d", name, r, i)
		}
	}
	return nil
}

// ValidJSON reports whether b is JSON text in UTF-8 (RFC 8259, section
// 8.1), nested no deeper than MaxJSONDepth: json.Valid alone takes
// strings with any bytes in them.
func ValidJSON(b []byte) bool {
	return utf8.Valid(b) && json.Valid(b)
}

// WhyNotJSON says why ValidJSON refused b, for an error message: bytes
// that are not UTF-8, nesting deeper than MaxJSONDepth (which json.Valid
// refuses although the text is JSON), or plain invalid JSON.
func WhyNotJSON(b []byte) string {
	if !utf8.Valid(b) {
		return "not valid UTF-8 (JSON text must be: RFC 8259, section 8.1)"
	}
	if jsonDepth(b) > MaxJSONDepth {
		return fmt.Sprintf("nested deeper than the %d levels an envelope can carry", MaxJSONDepth)
	}
	return "not valid JSON"
}
