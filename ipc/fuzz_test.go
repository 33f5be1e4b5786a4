package ipc

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc/pb"
)

// Fuzz targets for everything that decodes bytes from the other side of
// the wire. With no -fuzz flag they run their seed corpus (real messages)
// as ordinary tests. Each message a fuzzed stream carries is framed as a
// 2-byte big-endian length and that many bytes of protobuf.

// frames splits data into messages (see above); a short tail is dropped.
func frames(data []byte) [][]byte {
	var out [][]byte
	for len(data) >= 2 {
		n := int(binary.BigEndian.Uint16(data))
		data = data[2:]
		n = min(n, len(data))
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// frame is the inverse of frames, for seeds.
func frame(f *testing.F, msgs ...proto.Message) []byte {
	var out []byte
	for _, m := range msgs {
		b, err := proto.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		out = binary.BigEndian.AppendUint16(out, uint16(len(b)))
		out = append(out, b...)
	}
	return out
}

// seedEvents are the messages of a real execution, child to supervisor.
func seedEvents(f *testing.F, id string) []proto.Message {
	res := contract.Result{OK: true, Value: json.RawMessage(`{"a":[1,2]}`), Logs: []contract.LogEntry{{Level: "log", Text: "hi"}},
		Stats: contract.Stats{WallMS: 1.5, DataRequests: 1}, Limits: contract.DefaultLimits}
	fail := contract.Fail(contract.Errorf(contract.UserCodeError, "boom"), contract.DefaultLimits)
	var out []proto.Message
	for _, e := range []contract.Event{
		{Type: contract.EventStarted},
		{Type: contract.EventLog, Log: &contract.LogEntry{Level: "warn", Text: "careful"}},
		{Type: contract.EventDataRequest, DataRequest: &contract.DataRequest{Seq: 1, Name: "user", Args: json.RawMessage(`{"id":7}`)}},
		{Type: contract.EventResult, Result: &res},
		{Type: contract.EventResult, Result: &fail},
	} {
		e.ExecutionID = id
		m, err := eventToPB(e)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// FuzzEventFromPB: arbitrary bytes as a FromChild never panic the
// conversion, and what converts comes back the same through the other
// direction.
func FuzzEventFromPB(f *testing.F) {
	for _, m := range seedEvents(f, "x") {
		b, _ := proto.Marshal(m)
		f.Add(b)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var m pb.FromChild
		if proto.Unmarshal(data, &m) != nil {
			return
		}
		e, err := eventFromPB(&m)
		if err != nil {
			return
		}
		back, err := eventToPB(e)
		if err != nil {
			t.Fatalf("a decoded event does not encode: %v", err)
		}
		e2, err := eventFromPB(back)
		if err != nil {
			t.Fatalf("a re-encoded event does not decode: %v", err)
		}
		b1, _ := proto.MarshalOptions{Deterministic: true}.Marshal(back)
		back2, _ := eventToPB(e2)
		b2, _ := proto.MarshalOptions{Deterministic: true}.Marshal(back2)
		if string(b1) != string(b2) {
			t.Fatalf("conversion is not stable:\n%+v\n%+v", e, e2)
		}
	})
}

// FuzzRequestFromPB: what the child does with a ToChild's bytes before
// its engine sees them (decode, convert, resolve the limits, answer
// decoding) never panics, and a request converts back the same.
func FuzzRequestFromPB(f *testing.F) {
	req := contract.Request{ID: "x", Code: "return input.a", Input: json.RawMessage(`{"a":1}`), Limits: contract.DefaultLimits,
		Modules: map[string]string{"m": "export default 1"}}
	for _, m := range []proto.Message{
		&pb.ToChild{Msg: &pb.ToChild_Request{Request: requestToPB(req)}},
		&pb.ToChild{Msg: &pb.ToChild_DataResponse{DataResponse: dataResponseToPB(1, json.RawMessage(`{"b":2}`), nil)}},
		&pb.ToChild{Msg: &pb.ToChild_DataResponse{DataResponse: dataResponseToPB(2, nil, errors.New("no such user"))}},
	} {
		b, _ := proto.Marshal(m)
		f.Add(b)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var m pb.ToChild
		if proto.Unmarshal(data, &m) != nil {
			return
		}
		if r := m.GetRequest(); r != nil {
			req := requestFromPB(r)
			_, _, _ = contract.Resolve(req.Limits, contract.DefaultLimits, contract.DefaultCaps)
			b1, _ := proto.MarshalOptions{Deterministic: true}.Marshal(requestToPB(req))
			b2, _ := proto.MarshalOptions{Deterministic: true}.Marshal(requestToPB(requestFromPB(requestToPB(req))))
			if string(b1) != string(b2) {
				t.Fatalf("request conversion is not stable: %+v", req)
			}
		}
		if d := m.GetDataResponse(); d != nil {
			_, _ = decodeAnswer(d)
		}
	})
}

// FuzzContractToPB: contract values built from arbitrary fields survive
// the trip to the wire and back (empty and absent are the same on the
// wire), and fail to encode only for what protobuf cannot carry: strings
// that are not UTF-8.
func FuzzContractToPB(f *testing.F) {
	f.Add("id", "return 1", []byte(`{"a":1}`), int64(1e9), int64(16<<20), int64(1<<20), int64(1000), "m", "export default 1",
		"log", "text", []byte(`"v"`), true, "UserCodeError", "message", 1.5)
	f.Add("", "", []byte{}, int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), "", "", "", "", []byte(nil), false, "", "", math.Inf(1))
	f.Fuzz(func(t *testing.T, id, code string, input []byte, timeout, mem, out, reqs int64, modName, modSrc, level, text string,
		value []byte, ok bool, errType, msg string, ms float64) {
		if math.IsNaN(ms) {
			ms = 0 // NaN is never equal to itself; nothing else to check
		}
		utf := utf8.ValidString(id) && utf8.ValidString(code) && utf8.ValidString(modName) && utf8.ValidString(modSrc) &&
			utf8.ValidString(level) && utf8.ValidString(text) && (ok || utf8.ValidString(errType) && utf8.ValidString(msg))
		l := contract.Limits{Timeout: time.Duration(timeout), MemoryBytes: mem, StackBytes: mem, OutputBytes: out,
			CodeBytes: out, DataRequests: reqs, DataBytes: out, Timers: reqs}
		req := contract.Request{ID: id, Code: code, Input: input, Limits: l, Modules: map[string]string{modName: modSrc}}
		res := contract.Result{OK: ok, Value: value, Logs: []contract.LogEntry{{Level: level, Text: text}},
			Stats: contract.Stats{WallMS: ms, CPUMS: ms, HeapBytes: mem}, Limits: l, Clamped: []string{text}}
		if !ok {
			res.Error = &contract.Error{Type: contract.ErrorType(errType), Message: msg}
		}
		reqB, err1 := proto.Marshal(requestToPB(req))
		resB, err2 := proto.Marshal(resultToPB(res))
		if (err1 == nil && err2 == nil) != utf {
			t.Fatalf("encode errors %v, %v; all strings UTF-8: %t", err1, err2, utf)
		}
		if !utf {
			return
		}
		var rp pb.Request
		var sp pb.Result
		if err := proto.Unmarshal(reqB, &rp); err != nil {
			t.Fatal(err)
		}
		if err := proto.Unmarshal(resB, &sp); err != nil {
			t.Fatal(err)
		}
		if len(req.Input) == 0 {
			req.Input = nil
		}
		if len(res.Value) == 0 {
			res.Value = nil
		}
		if got := requestFromPB(&rp); !reflect.DeepEqual(got, req) {
			t.Fatalf("request round trip:\n got %+v\nwant %+v", got, req)
		}
		if got := resultFromPB(&sp); !reflect.DeepEqual(got, res) {
			t.Fatalf("result round trip:\n got %+v\nwant %+v", got, res)
		}
	})
}

// fakeClientStream is a child as the supervisor's Execute sees it: it
// answers with the messages of a fuzzed stream, then io.EOF.
type fakeClientStream struct {
	grpc.ClientStream
	ctx  context.Context
	msgs [][]byte
}

func (s *fakeClientStream) Context() context.Context { return s.ctx }
func (s *fakeClientStream) CloseSend() error         { return nil }
func (s *fakeClientStream) Header() (metadata.MD, error) {
	return nil, nil
}

func (s *fakeClientStream) Send(m *pb.ToChild) error {
	_, err := proto.Marshal(m) // what gRPC would do with it
	return err
}

func (s *fakeClientStream) Recv() (*pb.FromChild, error) {
	if len(s.msgs) == 0 {
		return nil, io.EOF
	}
	var m pb.FromChild
	err := proto.Unmarshal(s.msgs[0], &m)
	s.msgs = s.msgs[1:]
	if err != nil {
		return nil, errors.New("grpc: failed to unmarshal the received message")
	}
	return &m, nil
}

type fakeChildClient struct{ stream *fakeClientStream }

func (c fakeChildClient) Execute(ctx context.Context, _ ...grpc.CallOption) (grpc.BidiStreamingClient[pb.ToChild, pb.FromChild], error) {
	c.stream.ctx = ctx
	return c.stream, nil
}

func (c fakeChildClient) Ping(context.Context, *pb.PingRequest, ...grpc.CallOption) (*pb.PingResponse, error) {
	return &pb.PingResponse{}, nil
}

// FuzzSupervisorExecute: a child sending any sequence of messages makes
// the supervisor's Execute return, never panic, and whatever it returns
// as a success is a well-formed envelope: the handler and the caller see
// only JSON, within the limits.
func FuzzSupervisorExecute(f *testing.F) {
	ev := seedEvents(f, "x")
	f.Add(frame(f, ev[0], ev[1], ev[2], ev[3]))
	f.Add(frame(f, ev[0], ev[4]))
	f.Add(frame(f, ev[0], ev[2], ev[2], ev[3]))
	f.Add([]byte{})
	limits := contract.Limits{DataRequests: 3, DataBytes: 64}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newClient(fakeChildClient{&fakeClientStream{msgs: frames(data)}}, nil)
		var requests int
		var dataBytes int
		handler := func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
			requests++
			dataBytes += len(name) + len(args)
			if !json.Valid(args) {
				t.Fatalf("the handler got arguments that are not JSON: %q", args)
			}
			return json.RawMessage(`1`), nil
		}
		res, err := c.Execute(context.Background(), contract.Request{ID: "x", Limits: limits}, nil, handler)
		if requests > int(limits.DataRequests) || dataBytes > int(limits.DataBytes) {
			t.Fatalf("the handler answered %d requests of %d bytes, over the limits", requests, dataBytes)
		}
		if err != nil {
			if e := contract.AsError(err); e.Type != contract.SandboxError {
				t.Fatalf("a child's bytes gave a %s: %v", e.Type, err)
			}
			return
		}
		if res.OK == (res.Error != nil) {
			t.Fatalf("envelope with ok=%t and error=%v", res.OK, res.Error)
		}
		if len(res.Value) > 0 && !json.Valid(res.Value) {
			t.Fatalf("the caller got a value that is not JSON: %q", res.Value)
		}
	})
}

// fakeServerStream is a supervisor as the child's Execute sees it.
type fakeServerStream struct {
	grpc.ServerStream
	ctx  context.Context
	msgs [][]byte
}

func (s *fakeServerStream) Context() context.Context { return s.ctx }
func (s *fakeServerStream) Send(m *pb.FromChild) error {
	_, err := proto.Marshal(m)
	return err
}

func (s *fakeServerStream) Recv() (*pb.ToChild, error) {
	if len(s.msgs) == 0 {
		return nil, io.EOF
	}
	var m pb.ToChild
	err := proto.Unmarshal(s.msgs[0], &m)
	s.msgs = s.msgs[1:]
	if err != nil {
		return nil, errors.New("grpc: failed to unmarshal the received message")
	}
	return &m, nil
}

// FuzzChildExecute: a supervisor (or anything on the socket) sending any
// sequence of messages to the child's Execute makes it return, never
// panic; its runner asks for data as a script would.
func FuzzChildExecute(f *testing.F) {
	req := contract.Request{ID: "x", Code: "return 1", Input: json.RawMessage(`2`), Limits: contract.DefaultLimits}
	f.Add(frame(f,
		&pb.ToChild{Msg: &pb.ToChild_Request{Request: requestToPB(req)}},
		&pb.ToChild{Msg: &pb.ToChild_DataResponse{DataResponse: dataResponseToPB(1, json.RawMessage(`3`), nil)}},
		&pb.ToChild{Msg: &pb.ToChild_DataResponse{DataResponse: dataResponseToPB(2, nil, errors.New("no"))}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newGRPCServer(runnerFunc(func(ctx context.Context, r contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result {
			limits, _, err := contract.Resolve(r.Limits, contract.DefaultLimits, contract.DefaultCaps)
			if err != nil {
				return contract.Fail(err, limits)
			}
			emit(contract.Event{Type: contract.EventLog, Log: &contract.LogEntry{Level: "log", Text: r.Code}})
			for range 2 {
				// The engine checks answers itself (the supervisor is
				// trusted); here only their arrival matters.
				_, _ = request(ctx, "n", r.Input)
			}
			return contract.Result{OK: true, Value: json.RawMessage(`1`), Limits: limits}
		}))
		_ = s.Execute(&fakeServerStream{ctx: context.Background(), msgs: frames(data)})
	})
}
