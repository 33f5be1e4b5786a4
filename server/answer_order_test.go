package server

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// A client may answer data request seq as soon as its event is out,
// before the supervisor calls the endpoint handler for it: the handler
// still gets that answer. (It used to find the request gone, answered,
// and the script got "no pending request"; warden run --server's data
// test hit it about one run in four.) A second answer is still a
// conflict.
func TestAnswerBeforeTheHandlerAsks(t *testing.T) {
	e := &execution{endpoint: true, pending: map[int64]chan dataAnswer{}, answered: map[int64]bool{}, claimed: map[int64]bool{}}
	e.expect(1, false)
	if err := e.claim(1); err != nil {
		t.Fatal(err)
	}
	if err := e.claim(1); err != errAnswering {
		t.Errorf("a second claim while the first answer is read: %v, want errAnswering", err)
	}
	if err := e.answer(1, dataAnswer{value: json.RawMessage(`42`)}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := e.endpointHandler(newMetrics(nil), 0)(ctx, "n", nil)
	if err != nil || string(v) != "42" {
		t.Fatalf("handler after the answer: %s, %v", v, err)
	}
	if err := e.claim(1); err != errAnswered {
		t.Errorf("a second answer: %v, want errAnswered", err)
	}
	if len(e.pending) != 0 {
		t.Errorf("pending after the handler took its answer: %v", e.pending)
	}
}
