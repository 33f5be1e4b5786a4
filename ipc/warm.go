package ipc

import (
	"encoding/json"
	"errors"

	"google.golang.org/protobuf/proto"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc/pb"
)

// WarmUp runs every message type of the wire through conversion, encoding
// and decoding once, with every field set. protobuf builds each message's
// coder on first use, and in a fresh process that first use (reflection,
// allocation, code and data paged in) took about a millisecond of the
// execution's path; a child calls WarmUp while it prepares, so that cost
// is paid before it reports ready. It returns an error only if a message
// fails to encode or decode, which would be a bug.
func WarmUp() error {
	req := contract.Request{
		ID: "warm-up", Code: "return 1", Input: json.RawMessage(`{"a":1}`),
		Modules: map[string]string{"m": "export default 1"},
		Limits:  contract.DefaultLimits,
	}
	res := contract.Result{
		OK: false, Value: json.RawMessage(`1`), Logs: []contract.LogEntry{{Level: "log", Text: "x"}},
		Error:   &contract.Error{Type: contract.ResourceError, Kind: contract.KindMemory, Name: "InternalError", Message: "m", Stack: "s"},
		Stats:   contract.Stats{WallMS: 1, CPUMS: 1, HeapBytes: 1, ChildPID: 1},
		Limits:  contract.DefaultLimits,
		Clamped: []string{"memory_bytes"},
	}
	out := []proto.Message{
		&pb.ToChild{Msg: &pb.ToChild_Request{Request: requestToPB(req)}},
		&pb.ToChild{Msg: &pb.ToChild_DataResponse{DataResponse: dataResponseToPB(1, json.RawMessage(`1`), nil)}},
		&pb.ToChild{Msg: &pb.ToChild_DataResponse{DataResponse: dataResponseToPB(2, nil, errors.New("e"))}},
	}
	for _, ev := range []contract.Event{
		{Type: contract.EventStarted, ExecutionID: req.ID},
		{Type: contract.EventLog, ExecutionID: req.ID, Log: &res.Logs[0]},
		{Type: contract.EventDataRequest, ExecutionID: req.ID, DataRequest: &contract.DataRequest{Seq: 1, Name: "n", Args: json.RawMessage(`[1]`)}},
		{Type: contract.EventResult, ExecutionID: req.ID, Result: &res},
	} {
		m, err := eventToPB(ev)
		if err != nil {
			return err
		}
		out = append(out, m)
	}
	for _, m := range out {
		b, err := proto.Marshal(m)
		if err != nil {
			return err
		}
		back := m.ProtoReflect().New().Interface()
		if err := proto.Unmarshal(b, back); err != nil {
			return err
		}
		switch back := back.(type) {
		case *pb.ToChild:
			if r := back.GetRequest(); r != nil {
				requestFromPB(r)
			} else {
				dataResponseFromPB(back.GetDataResponse())
			}
		case *pb.FromChild:
			if _, err := eventFromPB(back); err != nil {
				return err
			}
		}
	}
	return nil
}
