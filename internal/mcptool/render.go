package mcptool

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/contract"
)

// result is the tool result of an envelope: the envelope whole as the
// structured content, and for a model a compact text of it, cut at
// MaxTextBytes with a note of how much was cut.
func (t *tool) result(res contract.Result) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: cut(Text(res), t.cfg.MaxTextBytes)}},
		StructuredContent: res,
		IsError:           !res.OK,
	}
}

// Text renders an envelope as a model reads it best: the value as JSON
// (or the error's type, name, message and stack), then the logs, one a
// line with its level.
func Text(res contract.Result) string {
	var b strings.Builder
	if res.OK {
		b.WriteString("value: ")
		b.Write(res.Value)
		b.WriteByte('\n')
	} else if e := res.Error; e != nil {
		b.WriteString("error: " + string(e.Type))
		if e.Kind != "" {
			b.WriteString(" (" + e.Kind + ")")
		}
		b.WriteString("\n")
		if e.Stack != "" {
			b.WriteString(e.Stack + "\n")
		} else {
			if e.Name != "" {
				b.WriteString(e.Name + ": ")
			}
			b.WriteString(e.Message + "\n")
		}
	}
	if len(res.Logs) > 0 {
		b.WriteString("logs:\n")
		for _, l := range res.Logs {
			fmt.Fprintf(&b, "[%s] %s\n", l.Level, l.Text)
		}
	}
	if len(res.Clamped) > 0 {
		b.WriteString("clamped to the caps: " + strings.Join(res.Clamped, ", ") + "\n")
	}
	return b.String()
}

// cut keeps the first max bytes of text (on a UTF-8 boundary) and says
// how much is left out.
func cut(text string, max int) string {
	if len(text) <= max {
		return text
	}
	end := max
	for end > 0 && text[end]&0xc0 == 0x80 {
		end--
	}
	return text[:end] + fmt.Sprintf("\n[%d more bytes cut; structuredContent has the whole envelope]", len(text)-end)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// inputSchema is the tool's input: code, input, language, modules and
// the two limits a caller may set, bounded by the caps.
func inputSchema(cfg Config) json.RawMessage {
	schema := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"code"},
		"properties": map[string]any{
			"code":  map[string]any{"type": "string", "description": "The body of an async function of input: `return` the result. Or an ES module (with import/export) whose default export is the result, called with input when it is a function."},
			"input": map[string]any{"description": "Any JSON value, bound to the code's input."},
			"language": map[string]any{"type": "string", "enum": []string{contract.LanguageJavaScript, contract.LanguageTypeScript},
				"description": "typescript: the types are stripped (never checked) before the code runs. Default javascript."},
			"modules": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"},
				"description": "Modules the code may import by these names (source text; a name ending in .ts is TypeScript)."},
			"timeout_ms": map[string]any{"type": "integer", "minimum": 0, "maximum": cfg.Caps.Timeout.Milliseconds(),
				"description": fmt.Sprintf("Wall-clock limit. Default %d, at most %d.", cfg.Defaults.Timeout.Milliseconds(), cfg.Caps.Timeout.Milliseconds())},
			"memory_bytes": map[string]any{"type": "integer", "minimum": 0, "maximum": cfg.Caps.MemoryBytes,
				"description": fmt.Sprintf("Heap limit. Default %d, at most %d.", cfg.Defaults.MemoryBytes, cfg.Caps.MemoryBytes)},
			"deterministic": map[string]any{"type": "object", "additionalProperties": false, "required": []string{"seed"},
				"properties": map[string]any{
					"seed":   map[string]any{"type": "integer", "minimum": 0, "maximum": contract.MaxSafeSeed},
					"now_ms": map[string]any{"type": "integer", "minimum": 0, "maximum": contract.MaxNowMS},
				},
				"description": "Run reproducibly: Math.random and crypto's random values come from seed; Date and performance.now read a clock that starts at now_ms (default 0) and moves only with timers, which fire without waiting. The same call with the same seed returns the same result."},
		},
	}
	b, _ := json.Marshal(schema)
	return b
}

// Description is the tool's description, for a model: the contract in a
// few lines, with the limits in force, the modules it may import and
// the data sources it may ask, from cfg.
func Description(cfg Config) string {
	var b strings.Builder
	b.WriteString("Runs JavaScript or TypeScript in a sandbox (a fresh QuickJS interpreter in a hardened process of its own: no network, files, environment or processes) and returns the result as JSON.\n")
	b.WriteString("`code` is the body of an async function of one parameter, `input` (the JSON `input` argument): `return` the result, which must be JSON-serializable; `await` works. Code with top-level import/export is an ES module: its default export is the result, called with input when it is a function.\n")
	b.WriteString("Globals: the ECMAScript built-ins, console.log/info/warn/error (returned as logs), setTimeout/setInterval, URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa, Buffer, structuredClone, crypto (getRandomValues, randomUUID, subtle digest/HMAC), Intl, AbortController, EventTarget, performance.now, sha256(string) and host.request(name, args). Not available: require, process, fetch, the file system. Dates are in UTC.\n")
	fmt.Fprintf(&b, "Limits: %d ms (timeout_ms, at most %d), %d MiB of heap (memory_bytes, at most %d MiB), %d KiB of code, %d KiB of result.\n",
		cfg.Defaults.Timeout.Milliseconds(), cfg.Caps.Timeout.Milliseconds(), cfg.Defaults.MemoryBytes>>20, cfg.Caps.MemoryBytes>>20, cfg.Defaults.CodeBytes>>10, cfg.Defaults.OutputBytes>>10)
	if len(cfg.Modules) > 0 {
		fmt.Fprintf(&b, "Modules it may import by name (import _ from \"lodash-es\", or await import(...) from a body): %s.\n", strings.Join(cfg.Modules, ", "))
	} else {
		b.WriteString("No library modules are installed: only modules passed in `modules` can be imported.\n")
	}
	switch {
	case cfg.Handler != nil:
		fmt.Fprintf(&b, "host.request(name, args) is answered by %s.\n", cfg.HandlerNote)
	case len(cfg.Data) > 0:
		fmt.Fprintf(&b, "host.request(name, args) answers: %s.\n", strings.Join(sortedKeys(cfg.Data), ", "))
	default:
		b.WriteString("No data source is configured: host.request rejects.\n")
	}
	b.WriteString("A failed run (a thrown error, a limit) comes back as an error with its type (UserCodeError, TimeoutError, ResourceError, ...), message and stack.")
	return b.String()
}
