package server

import (
	"net/http"
	"testing"
)

// TestAcceptHonoursQValues: the event stream is chosen by the Accept
// header's q-values, not by text/event-stream appearing in it.
func TestAcceptHonoursQValues(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                  false,
		"text/event-stream": true,
		"TEXT/Event-Stream": true,
		"application/json":  false,
		"*/*":               false,
		"text/event-stream;q=0, application/json":   false,
		"text/event-stream; q=0":                    false,
		"text/event-stream;q=0.5, application/json": false,
		"application/json;q=0.5, text/event-stream": true,
		"text/event-stream, application/json":       true,
		"text/*;q=0.9, application/json;q=0.1":      true,
		"text/*, application/json":                  false,
		"text/event-stream;q=0, text/*":             false,
		"text/event-stream;q=bogus":                 false,
		"text/event-stream;q=0.001, */*;q=0":        true,
	} {
		r, _ := http.NewRequest("POST", "/v1/executions", nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		if got := wantsEventStream(r); got != want {
			t.Errorf("Accept %q: event stream %v, want %v", accept, got, want)
		}
	}
}

// TestAcceptQZeroGetsJSON: a real daemon answers `Accept:
// text/event-stream;q=0, application/json` with the JSON envelope.
func TestAcceptQZeroGetsJSON(t *testing.T) {
	d := startDaemon(t, nil)
	resp, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`, "Accept", "text/event-stream;q=0, application/json")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || !envelope(t, b).OK {
		t.Fatalf("status %d, content type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
}
