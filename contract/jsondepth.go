package contract

// MaxJSONDepth is the deepest nesting encoding/json takes, and so the
// deepest an input, a result or a data-request argument can be: no
// envelope or wire message can carry more.
const MaxJSONDepth = 10000

// jsonDepth is the deepest bracket nesting of b outside strings.
func jsonDepth(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
