package recording

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// maxDiffs bounds what Diff lists; one more line says how many it left.
const maxDiffs = 50

// Diff lists where two envelopes differ but for their stats, one line
// per JSON path ("value.items[2]: recorded 1, replayed 2"); nil when
// they do not.
func Diff(recorded, replayed any) []string {
	a, b := withoutStats(recorded), withoutStats(replayed)
	var out []string
	out = diffValues("", a, b, out)
	if len(out) > maxDiffs {
		out = append(out[:maxDiffs], fmt.Sprintf("... and %d more differences", len(out)-maxDiffs))
	}
	return out
}

// withoutStats is v as a generic JSON value (numbers kept as written),
// without a top-level "stats".
func withoutStats(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("(cannot be encoded: %v)", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var g any
	dec.Decode(&g)
	if m, ok := g.(map[string]any); ok {
		delete(m, "stats")
	}
	return g
}

func diffValues(path string, a, b any, out []string) []string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			va, ina := x[k]
			vb, inb := y[k]
			switch {
			case !ina:
				out = append(out, fmt.Sprintf("%s: not recorded, replayed %s", p, show(vb)))
			case !inb:
				out = append(out, fmt.Sprintf("%s: recorded %s, not replayed", p, show(va)))
			default:
				out = diffValues(p, va, vb, out)
			}
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := range max(len(x), len(y)) {
			p := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(x):
				out = append(out, fmt.Sprintf("%s: not recorded, replayed %s", p, show(y[i])))
			case i >= len(y):
				out = append(out, fmt.Sprintf("%s: recorded %s, not replayed", p, show(x[i])))
			default:
				out = diffValues(p, x[i], y[i], out)
			}
		}
		return out
	default:
		if show(a) == show(b) {
			return out
		}
	}
	if path == "" {
		path = "(the envelope)"
	}
	return append(out, fmt.Sprintf("%s: recorded %s, replayed %s", path, show(a), show(b)))
}

// show is v as compact JSON, cut to 200 bytes.
func show(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
