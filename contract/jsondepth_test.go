package contract

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWhyNotJSON(t *testing.T) {
	deep := strings.Repeat("[", MaxJSONDepth+1) + strings.Repeat("]", MaxJSONDepth+1)
	atLimit := strings.Repeat("[", MaxJSONDepth) + strings.Repeat("]", MaxJSONDepth)
	if !json.Valid([]byte(atLimit)) {
		t.Fatalf("encoding/json refuses %d levels: MaxJSONDepth is wrong", MaxJSONDepth)
	}
	if json.Valid([]byte(deep)) {
		t.Fatalf("encoding/json takes %d levels: MaxJSONDepth is wrong", MaxJSONDepth+1)
	}
	for in, want := range map[string]string{
		deep: "nested deeper than the 10000 levels",
		// Brackets inside strings do not nest.
		`{"a": "` + strings.Repeat(`[\"`, MaxJSONDepth+1) + `"`: "not valid JSON",
		`{"a":`: "not valid JSON",
	} {
		if got := WhyNotJSON([]byte(in)); !strings.Contains(got, want) {
			t.Errorf("WhyNotJSON(%.20q...) = %q, want it to say %q", in, got, want)
		}
	}
}
