package contract

import (
	"encoding/json"
	"testing"
)

// FuzzJSONStringLen: the cost a log entry is charged is exactly what
// encoding/json writes for its text.
func FuzzJSONStringLen(f *testing.F) {
	for _, s := range []string{"", "a", "<&>", "\"\\\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029", "\xff\xed\xa0\x80", "héllo 😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonStringLen(s); got != len(b) {
			t.Fatalf("jsonStringLen(%q) = %d, encoding/json writes %d bytes: %s", s, got, len(b), b)
		}
		if got, want := LogEntryCost("log", s), int64(len(mustMarshal(t, LogEntry{Level: "log", Text: s}))+1); got != want {
			t.Fatalf("LogEntryCost = %d, want %d", got, want)
		}
	})
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
