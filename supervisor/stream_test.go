package supervisor

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Limits are resolved once, here, and the envelope says what was in
// force and what was clamped; data_request events are ipc's, delivered
// as they come, with or without a handler.
func TestStreamLimitsAndDataEvents(t *testing.T) {
	s := newSup(t, nil)
	req := contract.Request{
		Code: `const r = [];
for (const n of ['a', 'b']) {
  try { r.push(await host.request(n, n === 'a' ? {n: 1} : undefined)) } catch (e) { r.push(e.message) }
}
return r`,
		Limits: contract.Limits{Timeout: time.Hour, OutputBytes: 4096},
	}
	want, clamped, err := contract.Resolve(req.Limits, contract.DefaultLimits, contract.DefaultCaps)
	if err != nil {
		t.Fatal(err)
	}
	for _, withHandler := range []bool{true, false} {
		var handler contract.DataHandler
		no, _ := json.Marshal(contract.ErrNoDataHandler.Error())
		wantValue := "[" + string(no) + "," + string(no) + "]"
		if withHandler {
			handler = func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
				if name == "a" {
					return args, nil
				}
				return nil, nil // null
			}
			wantValue = `[{"n":1},null]`
		}
		var events []contract.Event
		res, err := s.Stream(context.Background(), req, handler, func(e contract.Event) { events = append(events, e) })
		if err != nil {
			t.Fatalf("handler %t: %v", withHandler, err)
		}
		if string(res.Value) != wantValue {
			t.Errorf("handler %t: value %s, want %s", withHandler, res.Value, wantValue)
		}
		if res.Limits != want || !slices.Equal(res.Clamped, clamped) {
			t.Errorf("handler %t: limits %+v clamped %v, want %+v %v", withHandler, res.Limits, res.Clamped, want, clamped)
		}
		var types []contract.EventType
		var data []contract.DataRequest
		for _, e := range events {
			types = append(types, e.Type)
			if e.DataRequest != nil {
				data = append(data, *e.DataRequest)
			}
		}
		wantData := []contract.DataRequest{{Seq: 1, Name: "a", Args: json.RawMessage(`{"n":1}`)}, {Seq: 2, Name: "b", Args: json.RawMessage(`null`)}}
		if !reflect.DeepEqual(data, wantData) {
			t.Errorf("handler %t: data_request events %+v, want %+v", withHandler, data, wantData)
		}
		if len(types) == 0 || types[0] != contract.EventStarted || types[len(types)-1] != contract.EventResult {
			t.Errorf("handler %t: events %v", withHandler, types)
		}
		if r := events[len(events)-1].Result; r == nil || r.Limits != want || !slices.Equal(r.Clamped, clamped) {
			t.Errorf("handler %t: the result event's envelope differs from the returned one", withHandler)
		}
	}
}
