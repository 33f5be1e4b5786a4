package ipc

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc/pb"
)

// These tests fill every field of the contract types with distinct
// non-zero values by reflection, so a field added to a contract type is
// filled without anyone touching the test; if convert.go drops it, the
// round trip is not equal. The protoreflect check catches the other
// direction: a field added to the proto that convert.go never sets.

// filler hands out distinct non-zero values.
type filler struct{ n int }

func (f *filler) fill(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	f.n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%s-%d", path, f.n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.n) + 0.25)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(t, v.Elem(), path)
	case reflect.Struct:
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if !sf.IsExported() {
				t.Fatalf("%s.%s: unexported field; teach the filler about it", path, sf.Name)
			}
			f.fill(t, v.Field(i), path+"."+sf.Name)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			// []byte and json.RawMessage: JSON text, as on the wire.
			v.SetBytes(fmt.Appendf(nil, `{"%s":%d}`, path, f.n))
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			f.fill(t, s.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			f.fill(t, k, fmt.Sprintf("%s.key%d", path, i))
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(t, e, fmt.Sprintf("%s.val%d", path, i))
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	default:
		t.Fatalf("%s: cannot fill a %s; teach the filler about it", path, v.Type())
	}
}

// full returns a T with every field non-zero.
func full[T any](t *testing.T) T {
	t.Helper()
	var v T
	(&filler{}).fill(t, reflect.ValueOf(&v).Elem(), reflect.TypeFor[T]().Name())
	return v
}

// wire marshals m and unmarshals it into a fresh message, as the stream
// does, so nothing is shared with the caller's value.
func wire[M proto.Message](t *testing.T, m M) M {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatalf("marshal %T: %v", m, err)
	}
	out := m.ProtoReflect().New().Interface().(M)
	if err := proto.Unmarshal(b, out); err != nil {
		t.Fatalf("unmarshal %T: %v", m, err)
	}
	return out
}

// populated fails unless every field of m is set (non-zero, non-empty),
// recursively. In a oneof, the member that is set is checked; which
// members a set of values covers is checked by the callers.
func populated(t *testing.T, path string, m protoreflect.Message) {
	t.Helper()
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		name := path + "." + string(fd.Name())
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			set := m.WhichOneof(od)
			if set == nil {
				t.Errorf("%s: oneof %s has no member set", path, od.Name())
			}
			if set == nil || set.Number() != fd.Number() {
				continue
			}
			if fd.Message() != nil && fd.Message().Fields().Len() == 0 {
				continue // an empty message (Started) is its own value
			}
		}
		if !m.Has(fd) {
			t.Errorf("%s is zero after converting a fully populated Go value", name)
			continue
		}
		v := m.Get(fd)
		switch {
		case fd.IsList() && fd.Message() != nil:
			for j := range v.List().Len() {
				populated(t, fmt.Sprintf("%s[%d]", name, j), v.List().Get(j).Message())
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				populated(t, fmt.Sprintf("%s[%v]", name, k), mv.Message())
				return true
			})
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			populated(t, name, v.Message())
		}
	}
}

func TestConvertRequestRoundTrip(t *testing.T) {
	in := full[contract.Request](t)
	m := wire(t, requestToPB(in))
	populated(t, "Request", m.ProtoReflect())
	if out := requestFromPB(m); !reflect.DeepEqual(in, out) {
		t.Errorf("round trip changed the request:\n in: %+v\nout: %+v", in, out)
	}
}

func TestConvertResultRoundTrip(t *testing.T) {
	in := full[contract.Result](t)
	m := wire(t, resultToPB(in))
	populated(t, "Result", m.ProtoReflect())
	if out := resultFromPB(m); !reflect.DeepEqual(in, out) {
		t.Errorf("round trip changed the result:\n in: %+v\nout: %+v", in, out)
	}
}

// TestConvertStartupRoundTrip: a child's start-up account crosses intact.
func TestConvertStartupRoundTrip(t *testing.T) {
	in := Startup{
		MainAt: time.Unix(1700000000, 123456789),
		Phases: []StartupPhase{full[StartupPhase](t), full[StartupPhase](t)},
	}
	m := wire(t, startupToPB(in))
	populated(t, "PingResponse", m.ProtoReflect())
	for _, p := range m.GetStartup() {
		populated(t, "StartupPhase", p.ProtoReflect())
	}
	if out := startupFromPB(m); !out.MainAt.Equal(in.MainAt) || !reflect.DeepEqual(in.Phases, out.Phases) {
		t.Errorf("round trip changed the start-up account:\n in: %+v\nout: %+v", in, out)
	}
	if out := startupFromPB(&pb.PingResponse{}); !out.MainAt.IsZero() || out.Phases != nil {
		t.Errorf("an empty ping response decoded to %+v", out)
	}
}

// TestConvertEventRoundTrip fills a whole Event, then for each type keeps
// only that type's payload. A payload field added to Event is not cleared
// here, so it stays filled and the round trip fails until convert.go and
// this test learn about it.
func TestConvertEventRoundTrip(t *testing.T) {
	tests := []struct {
		typ  contract.EventType
		keep func(all contract.Event) contract.Event
	}{
		{contract.EventStarted, func(e contract.Event) contract.Event {
			e.Log, e.DataRequest, e.Result = nil, nil, nil
			return e
		}},
		{contract.EventLog, func(e contract.Event) contract.Event {
			e.DataRequest, e.Result = nil, nil
			return e
		}},
		{contract.EventDataRequest, func(e contract.Event) contract.Event {
			e.Log, e.Result = nil, nil
			return e
		}},
		{contract.EventResult, func(e contract.Event) contract.Event {
			e.Log, e.DataRequest = nil, nil
			return e
		}},
	}
	all := full[contract.Event](t)
	goSeen := reflect.New(reflect.TypeFor[contract.Event]()).Elem() // union of fields sent
	pbSeen := map[protoreflect.Name]bool{}                          // oneof members produced
	for _, tc := range tests {
		t.Run(string(tc.typ), func(t *testing.T) {
			in := tc.keep(all)
			in.Type = tc.typ
			m, err := eventToPB(in)
			if err != nil {
				t.Fatal(err)
			}
			m = wire(t, m)
			populated(t, "FromChild", m.ProtoReflect())
			od := m.ProtoReflect().Descriptor().Oneofs().ByName("event")
			pbSeen[m.ProtoReflect().WhichOneof(od).Name()] = true
			out, err := eventFromPB(m)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(in, out) {
				t.Errorf("round trip changed the event:\n in: %+v\nout: %+v", in, out)
			}
			iv := reflect.ValueOf(in)
			for i := range iv.NumField() {
				if !iv.Field(i).IsZero() {
					goSeen.Field(i).Set(iv.Field(i))
				}
			}
		})
	}
	for i := range goSeen.NumField() {
		if goSeen.Field(i).IsZero() {
			t.Errorf("Event.%s is carried by no event type", goSeen.Type().Field(i).Name)
		}
	}
	od := (&pb.FromChild{}).ProtoReflect().Descriptor().Oneofs().ByName("event")
	for i := range od.Fields().Len() {
		if name := od.Fields().Get(i).Name(); !pbSeen[name] {
			t.Errorf("FromChild.%s is produced by no contract event", name)
		}
	}
}

func TestConvertDataResponse(t *testing.T) {
	value, err := dataResponseFromPB(wire(t, dataResponseToPB(7, json.RawMessage(`{"a":1}`), nil)))
	if err != nil || string(value) != `{"a":1}` {
		t.Errorf("value response: got %s, %v", value, err)
	}
	m := wire(t, dataResponseToPB(8, json.RawMessage(`1`), errors.New("nope")))
	populated(t, "DataResponse", m.ProtoReflect())
	value, err = dataResponseFromPB(m)
	if err == nil || err.Error() != "nope" || value != nil {
		t.Errorf("error response: got %s, %v; want the handler's message verbatim", value, err)
	}
	m = wire(t, dataResponseToPB(9, nil, nil))
	if _, ok := m.GetOutcome().(*pb.DataResponse_Value); !ok {
		t.Errorf("a nil answer must still be a value on the wire, got %T", m.GetOutcome())
	}
	if _, err := dataResponseFromPB(&pb.DataResponse{Seq: 1}); err == nil {
		t.Error("a response with no outcome must decode as an error")
	}
}

// TestConvertEmpty pins the empty-value rules documented in convert.go.
func TestConvertEmpty(t *testing.T) {
	if got := requestFromPB(wire(t, requestToPB(contract.Request{}))); !reflect.DeepEqual(got, contract.Request{}) {
		t.Errorf("zero request: got %+v", got)
	}
	got := resultFromPB(wire(t, resultToPB(contract.Result{})))
	want := contract.Result{Logs: []contract.LogEntry{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("zero result: got %#v, want %#v", got, want)
	}
	if _, err := eventToPB(contract.Event{Type: contract.EventLog}); err == nil {
		t.Error("a log event without its payload must not encode")
	}
	if _, err := eventFromPB(&pb.FromChild{ExecutionId: "x"}); !errors.Is(err, errUnknownEvent) {
		t.Errorf("empty FromChild: got %v, want errUnknownEvent", err)
	}
}

// TestWarmUp: every message type of the wire encodes and decodes with
// every field set (a child runs WarmUp at start-up and would fail to
// start if this broke).
func TestWarmUp(t *testing.T) {
	if err := WarmUp(); err != nil {
		t.Fatal(err)
	}
}
