package ipc

// Every conversion between contract and pb types lives in this file, and
// convert_test.go round-trips fully populated values through it. When a
// field is added to either side, add it here and in the other side; the
// test fails until you do.
//
// Empty and absent are the same on the wire (proto3 scalars, bytes and
// repeated fields have no presence), so decoding gives nil for empty
// Input, Value, Args, Modules and Clamped. Result.Logs is the exception: it
// always decodes non-nil, so a decoded envelope prints "logs": [].

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc/pb"
)

func requestToPB(r contract.Request) *pb.Request {
	return &pb.Request{
		Id:             r.ID,
		Code:           r.Code,
		Input:          bytesOrNil(r.Input),
		Limits:         limitsToPB(r.Limits),
		Modules:        mapOrNil(r.Modules),
		Language:       r.Language,
		Format:         r.Format,
		Imports:        r.Imports,
		ImportsLimited: r.Imports != nil,
		Deterministic:  deterministicToPB(r.Deterministic),
		Park:           r.Park,
		ParkScope:      r.ParkScope,
	}
}

func deterministicToPB(d *contract.Deterministic) *pb.Deterministic {
	if d == nil {
		return nil
	}
	return &pb.Deterministic{Seed: d.Seed, NowMs: d.NowMS}
}

func deterministicFromPB(d *pb.Deterministic) *contract.Deterministic {
	if d == nil {
		return nil
	}
	return &contract.Deterministic{Seed: d.GetSeed(), NowMS: d.GetNowMs()}
}

func requestFromPB(r *pb.Request) contract.Request {
	return contract.Request{
		ID:       r.GetId(),
		Code:     r.GetCode(),
		Input:    rawOrNil(r.GetInput()),
		Limits:   limitsFromPB(r.GetLimits()),
		Modules:  mapOrNil(r.GetModules()),
		Language: r.GetLanguage(),
		Format:   r.GetFormat(),
		Imports:  importsFromPB(r),

		Deterministic: deterministicFromPB(r.GetDeterministic()),
		Park:          r.GetPark(),
		ParkScope:     r.GetParkScope(),
	}
}

func limitsToPB(l contract.Limits) *pb.Limits {
	return &pb.Limits{
		TimeoutNanos: int64(l.Timeout),
		MemoryBytes:  l.MemoryBytes,
		StackBytes:   l.StackBytes,
		OutputBytes:  l.OutputBytes,
		CodeBytes:    l.CodeBytes,
		DataRequests: l.DataRequests,
		DataBytes:    l.DataBytes,
		Timers:       l.Timers,
		ParkBytes:    l.ParkBytes,
	}
}

func limitsFromPB(l *pb.Limits) contract.Limits {
	return contract.Limits{
		Timeout:      time.Duration(l.GetTimeoutNanos()),
		MemoryBytes:  l.GetMemoryBytes(),
		StackBytes:   l.GetStackBytes(),
		OutputBytes:  l.GetOutputBytes(),
		CodeBytes:    l.GetCodeBytes(),
		DataRequests: l.GetDataRequests(),
		DataBytes:    l.GetDataBytes(),
		Timers:       l.GetTimers(),
		ParkBytes:    l.GetParkBytes(),
	}
}

func logToPB(l contract.LogEntry) *pb.LogEntry {
	return &pb.LogEntry{Level: l.Level, Text: l.Text}
}

func logFromPB(l *pb.LogEntry) contract.LogEntry {
	return contract.LogEntry{Level: l.GetLevel(), Text: l.GetText()}
}

func dataRequestToPB(d contract.DataRequest) *pb.DataRequest {
	return &pb.DataRequest{Seq: d.Seq, Name: d.Name, Args: bytesOrNil(d.Args), ParkRefused: d.ParkRefused}
}

func dataRequestFromPB(d *pb.DataRequest) contract.DataRequest {
	return contract.DataRequest{Seq: d.GetSeq(), Name: d.GetName(), Args: rawOrNil(d.GetArgs()), ParkRefused: d.GetParkRefused()}
}

// dataResponseToPB encodes a data handler's answer: err wins over value.
func dataResponseToPB(seq int64, value json.RawMessage, err error) *pb.DataResponse {
	if errors.Is(err, contract.ErrPark) {
		return &pb.DataResponse{Seq: seq, Outcome: &pb.DataResponse_Park{Park: true}}
	}
	if err != nil {
		// Protobuf strings must be UTF-8; a handler's message need not be.
		return &pb.DataResponse{Seq: seq, Outcome: &pb.DataResponse_Error{Error: strings.ToValidUTF8(err.Error(), "\uFFFD")}}
	}
	// A set oneof member is sent even when empty, so nil stays a value.
	return &pb.DataResponse{Seq: seq, Outcome: &pb.DataResponse_Value{Value: bytesOrNil(value)}}
}

// dataResponseFromPB decodes an answer. The error, when there is one, has
// exactly the handler's message. A response with neither is an error too.
func dataResponseFromPB(d *pb.DataResponse) (json.RawMessage, error) {
	switch o := d.GetOutcome().(type) {
	case *pb.DataResponse_Value:
		return rawOrNil(o.Value), nil
	case *pb.DataResponse_Error:
		return nil, dataError(o.Error)
	case *pb.DataResponse_Park:
		return nil, contract.ErrPark
	default:
		return nil, dataError("ipc: data response has neither a value nor an error")
	}
}

// dataError is a data handler's error as the child sees it: just the
// message, so the guest's promise rejects with what the host said.
type dataError string

func (e dataError) Error() string { return string(e) }

func errorToPB(e *contract.Error) *pb.Error {
	if e == nil {
		return nil
	}
	return &pb.Error{
		Type:    string(e.Type),
		Kind:    e.Kind,
		Name:    e.Name,
		Message: e.Message,
		Stack:   e.Stack,
	}
}

func errorFromPB(e *pb.Error) *contract.Error {
	if e == nil {
		return nil
	}
	return &contract.Error{
		Type:    contract.ErrorType(e.GetType()),
		Kind:    e.GetKind(),
		Name:    e.GetName(),
		Message: e.GetMessage(),
		Stack:   e.GetStack(),
	}
}

func statsToPB(s contract.Stats) *pb.Stats {
	return &pb.Stats{
		QueueWaitMs:      s.QueueWaitMS,
		WallMs:           s.WallMS,
		CpuMs:            s.CPUMS,
		HeapBytes:        s.HeapBytes,
		PeakMemoryBytes:  s.PeakMemoryBytes,
		PeakStackBytes:   s.PeakStackBytes,
		DataRequests:     int64(s.DataRequests),
		LogBytes:         s.LogBytes,
		ChildPid:         int64(s.ChildPID),
		ChildCpuMs:       s.ChildCPUMS,
		ChildMaxRssBytes: s.ChildMaxRSSBytes,
		CgroupPeakBytes:  s.CgroupPeakBytes,
	}
}

func statsFromPB(s *pb.Stats) contract.Stats {
	return contract.Stats{
		QueueWaitMS:      s.GetQueueWaitMs(),
		WallMS:           s.GetWallMs(),
		CPUMS:            s.GetCpuMs(),
		HeapBytes:        s.GetHeapBytes(),
		PeakMemoryBytes:  s.GetPeakMemoryBytes(),
		PeakStackBytes:   s.GetPeakStackBytes(),
		DataRequests:     int(s.GetDataRequests()),
		LogBytes:         s.GetLogBytes(),
		ChildPID:         int(s.GetChildPid()),
		ChildCPUMS:       s.GetChildCpuMs(),
		ChildMaxRSSBytes: s.GetChildMaxRssBytes(),
		CgroupPeakBytes:  s.GetCgroupPeakBytes(),
	}
}

func resultToPB(r contract.Result) *pb.Result {
	logs := make([]*pb.LogEntry, len(r.Logs))
	for i, l := range r.Logs {
		logs[i] = logToPB(l)
	}
	return &pb.Result{
		Ok:      r.OK,
		Value:   bytesOrNil(r.Value),
		Error:   errorToPB(r.Error),
		Logs:    logs,
		Stats:   statsToPB(r.Stats),
		Limits:  limitsToPB(r.Limits),
		Clamped: sliceOrNil(r.Clamped),
		Parked:  parkedToPB(r.Parked),
	}
}

func parkedToPB(p *contract.Parked) *pb.Parked {
	if p == nil {
		return nil
	}
	pending := make([]*pb.PendingRequest, len(p.Pending))
	for i, r := range p.Pending {
		pending[i] = &pb.PendingRequest{Seq: r.Seq, Name: r.Name, Args: bytesOrNil(r.Args)}
	}
	return &pb.Parked{State: bytesOrNil(p.State), Pending: pending}
}

func parkedFromPB(p *pb.Parked) *contract.Parked {
	if p == nil {
		return nil
	}
	pending := make([]contract.PendingRequest, len(p.GetPending()))
	for i, r := range p.GetPending() {
		pending[i] = contract.PendingRequest{Seq: r.GetSeq(), Name: r.GetName(), Args: rawOrNil(r.GetArgs())}
	}
	return &contract.Parked{State: bytesOrNil(p.GetState()), Pending: pending}
}

func resultFromPB(r *pb.Result) contract.Result {
	logs := make([]contract.LogEntry, len(r.GetLogs()))
	for i, l := range r.GetLogs() {
		logs[i] = logFromPB(l)
	}
	return contract.Result{
		OK:      r.GetOk(),
		Value:   rawOrNil(r.GetValue()),
		Error:   errorFromPB(r.GetError()),
		Logs:    logs,
		Stats:   statsFromPB(r.GetStats()),
		Limits:  limitsFromPB(r.GetLimits()),
		Clamped: sliceOrNil(r.GetClamped()),
		Parked:  parkedFromPB(r.GetParked()),
	}
}

// eventToPB encodes an event. The payload that matches e.Type must be set;
// the others are not sent.
func eventToPB(e contract.Event) (*pb.FromChild, error) {
	m := &pb.FromChild{ExecutionId: e.ExecutionID}
	switch {
	case e.Type == contract.EventStarted:
		m.Event = &pb.FromChild_Started{Started: &pb.Started{}}
	case e.Type == contract.EventLog && e.Log != nil:
		m.Event = &pb.FromChild_Log{Log: logToPB(*e.Log)}
	case e.Type == contract.EventDataRequest && e.DataRequest != nil:
		m.Event = &pb.FromChild_DataRequest{DataRequest: dataRequestToPB(*e.DataRequest)}
	case e.Type == contract.EventResult && e.Result != nil:
		m.Event = &pb.FromChild_Result{Result: resultToPB(*e.Result)}
	default:
		return nil, fmt.Errorf("ipc: cannot encode %q event without its payload", e.Type)
	}
	return m, nil
}

// errUnknownEvent is what eventFromPB says about a FromChild with no event
// this side knows (none set, or one added to the proto but not here).
var errUnknownEvent = fmt.Errorf("ipc: child sent an event of unknown type")

func eventFromPB(m *pb.FromChild) (contract.Event, error) {
	e := contract.Event{ExecutionID: m.GetExecutionId()}
	switch ev := m.GetEvent().(type) {
	case *pb.FromChild_Started:
		e.Type = contract.EventStarted
	case *pb.FromChild_Log:
		l := logFromPB(ev.Log)
		e.Type, e.Log = contract.EventLog, &l
	case *pb.FromChild_DataRequest:
		d := dataRequestFromPB(ev.DataRequest)
		e.Type, e.DataRequest = contract.EventDataRequest, &d
	case *pb.FromChild_Result:
		r := resultFromPB(ev.Result)
		e.Type, e.Result = contract.EventResult, &r
	default:
		return contract.Event{}, errUnknownEvent
	}
	return e, nil
}

func startupToPB(s Startup) *pb.PingResponse {
	out := &pb.PingResponse{}
	if !s.MainAt.IsZero() {
		out.MainUnixNano = s.MainAt.UnixNano()
	}
	for _, p := range s.Phases {
		out.Startup = append(out.Startup, &pb.StartupPhase{Name: p.Name, WallMs: p.WallMS, CpuMs: p.CPUMS, PageFaults: p.PageFaults})
	}
	return out
}

func startupFromPB(m *pb.PingResponse) Startup {
	var s Startup
	if m.GetMainUnixNano() != 0 {
		s.MainAt = time.Unix(0, m.GetMainUnixNano())
	}
	for _, p := range m.GetStartup() {
		s.Phases = append(s.Phases, StartupPhase{Name: p.GetName(), WallMS: p.GetWallMs(), CPUMS: p.GetCpuMs(), PageFaults: p.GetPageFaults()})
	}
	return s
}

func bytesOrNil(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

func rawOrNil(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}

func mapOrNil(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

func sliceOrNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// importsFromPB is a request's allow-list of registered modules: nil
// when it has none, an empty list when it allows none.
func importsFromPB(r *pb.Request) []string {
	if !r.GetImportsLimited() {
		return nil
	}
	if r.GetImports() == nil {
		return []string{}
	}
	return r.GetImports()
}
