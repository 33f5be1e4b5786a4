package typescript

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
)

// sourceMap is a version 3 source map's mappings, decoded: per
// generated line, its segments in column order.
type sourceMap struct {
	lines [][]segment
}

// segment maps a generated column to an original line and column
// (0-based, UTF-16 code units as the format counts).
type segment struct {
	genColumn, origLine, origColumn int
}

func parseSourceMap(text []byte) (*sourceMap, error) {
	var v struct {
		Version  int    `json:"version"`
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(text, &v); err != nil {
		return nil, err
	}
	if v.Version != 3 {
		return nil, errors.New("not a version 3 source map")
	}
	m := &sourceMap{}
	var origLine, origColumn, source int
	for _, line := range strings.Split(v.Mappings, ";") {
		var segs []segment
		genColumn := 0
		for _, field := range strings.Split(line, ",") {
			if field == "" {
				continue
			}
			vals, err := decodeVLQ(field)
			if err != nil {
				return nil, err
			}
			genColumn += vals[0]
			if len(vals) < 4 {
				continue // a generated column of no source
			}
			source += vals[1]
			origLine += vals[2]
			origColumn += vals[3]
			segs = append(segs, segment{genColumn, origLine, origColumn})
		}
		m.lines = append(m.lines, segs)
	}
	_ = source // one source: code.ts
	return m, nil
}

// lookup is the original position of the segment at or before column on
// generated line (both 0-based).
func (m *sourceMap) lookup(line, column int) (int, int, bool) {
	if line < 0 || line >= len(m.lines) {
		return 0, 0, false
	}
	segs := m.lines[line]
	i := sort.Search(len(segs), func(i int) bool { return segs[i].genColumn > column })
	if i == 0 {
		return 0, 0, false
	}
	s := segs[i-1]
	return s.origLine, s.origColumn + column - s.genColumn, true
}

// dropLine removes generated line i.
func (m *sourceMap) dropLine(i int) {
	if i >= 0 && i < len(m.lines) {
		m.lines = slices.Delete(m.lines, i, i+1)
	}
}

const base64Digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// decodeVLQ decodes one segment's base64 VLQ values.
func decodeVLQ(field string) ([]int, error) {
	var out []int
	value, shift := 0, 0
	for i := 0; i < len(field); i++ {
		d := strings.IndexByte(base64Digits, field[i])
		if d < 0 {
			return nil, errors.New("bad base64 digit in mappings")
		}
		value += (d & 31) << shift
		if d&32 != 0 {
			shift += 5
			if shift > 30 {
				return nil, errors.New("VLQ value too long")
			}
			continue
		}
		if value&1 != 0 {
			out = append(out, -(value >> 1))
		} else {
			out = append(out, value>>1)
		}
		value, shift = 0, 0
	}
	if shift != 0 {
		return nil, errors.New("VLQ value cut short")
	}
	if len(out) == 0 {
		return nil, errors.New("empty segment")
	}
	return out, nil
}
