package ipc

// The child's side: Serve for the child's main, and the gRPC server that
// runs its one execution on a Runner.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc/pb"
)

// Runner is what a child serves: exactly one execution.
type Runner interface {
	// Run runs req; it calls emit for each log event as it happens and
	// request for each host.request (request blocks until the supervisor
	// answers or ctx ends). It returns the final envelope.
	//
	// ctx ends when the supervisor cancels the stream or goes away. emit
	// forwards only EventLog events with Log set; the adapter sends started
	// and result itself and ignores other types. emit and request are safe
	// to call from several goroutines but do nothing useful after Run
	// returns. An error from request carries the data handler's message
	// verbatim, or says why no answer can come (ctx ended, stream closed).
	Run(ctx context.Context, req contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result
}

// StreamOpener is an optional Runner method: StreamOpened runs when the
// execution's stream opens, before its request is read. A supervisor that
// opens the stream ahead of time (Client.Open) thereby lets the child do
// last set-up, such as locking itself down, off the execution's path.
// Resumer is an optional Runner method: it continues a parked
// execution (ToChild resume) from the engine's state, with the answers
// given for its pending requests, as Run runs one.
type Resumer interface {
	Resume(ctx context.Context, req contract.Request, state []byte, answers map[int64]contract.Answer,
		emit func(contract.Event), request contract.DataHandler) contract.Result
}

// StreamOpener is an optional Runner method, called when the execution's
// stream opens, before its request arrives.
type StreamOpener interface {
	StreamOpened()
}

// StartupReporter is an optional Runner method: a child that keeps an
// account of its start-up returns it, and the first Ping carries it to
// the supervisor (Client.Ping).
type StartupReporter interface {
	Startup() Startup
}

// Serve serves r as a child, with the message caps of wire (its
// ChildConfig's: zero fields mean MaxWireMessageBytes), and returns when the supervisor shuts the
// child down. It must run in a process the supervisor started with Start:
// without the handshake cookie in its environment (IsChild) it prints a
// message and exits with status 1. The process's stdout carries
// go-plugin's handshake, so nothing else may write to it; logger (nil:
// discard) receives go-plugin's own records and should write to stderr,
// which the supervisor reads as bounded text (stderr.go).
func Serve(r Runner, wire WireCaps, logger *slog.Logger) {
	hl := hclog.NewNullLogger()
	if logger != nil {
		hl = slogAdapter(logger)
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: handshake,
		Plugins:         ServerPluginMap(r),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, serverOptions(wire)...)...)
		},
		Logger: hl,
	})
}

// serverOptions are the child's gRPC server options, from the caps its
// supervisor derived (ChildConfig.Wire): it takes the supervisor's
// messages up to wire.ToChild and sends events up to wire.FromChild.
func serverOptions(wire WireCaps) []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(orMax(wire.ToChild)),
		grpc.MaxSendMsgSize(orMax(wire.FromChild)),
	}
}

// grpcServer is the child's side: the GRPCServer adapter around a Runner.
type grpcServer struct {
	pb.UnimplementedChildServer

	runner Runner
	// used is set by the first Execute; a child runs one execution.
	used atomic.Bool
}

func newGRPCServer(r Runner) *grpcServer { return &grpcServer{runner: r} }

// Ping answers at once, with the runner's start-up account if it keeps
// one.
func (s *grpcServer) Ping(context.Context, *pb.PingRequest) (*pb.PingResponse, error) {
	if r, ok := s.runner.(StartupReporter); ok {
		return startupToPB(r.Startup()), nil
	}
	return &pb.PingResponse{}, nil
}

// Execute serves the one execution of this child's life.
func (s *grpcServer) Execute(stream pb.Child_ExecuteServer) error {
	if !s.used.CompareAndSwap(false, true) {
		return status.Error(codes.FailedPrecondition, "this child already ran an execution; a child runs one")
	}
	if o, ok := s.runner.(StreamOpener); ok {
		o.StreamOpened()
	}
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	r, resume := first.GetRequest(), first.GetResume()
	if resume != nil {
		r = resume.GetRequest()
	}
	if r == nil {
		return status.Error(codes.InvalidArgument, "the first message of an execution must be its request, or a resume")
	}
	req := requestFromPB(r)
	resumer, _ := s.runner.(Resumer)
	if resume != nil && resumer == nil {
		return status.Error(codes.Unimplemented, "this child cannot resume a parked execution")
	}

	ctx, cancel := context.WithCancelCause(stream.Context())
	defer cancel(nil)
	x := &execution{
		stream:  stream,
		id:      req.ID,
		ctx:     ctx,
		cancel:  cancel,
		pending: make(map[int64]chan *pb.DataResponse),
		recvEnd: make(chan struct{}),
	}
	if err := x.send(contract.Event{Type: contract.EventStarted}); err != nil {
		return err
	}
	// The receiver ends when the supervisor half-closes, or when the
	// stream ends, which at the latest is when this method returns.
	go x.receive()

	var res contract.Result
	if resume != nil {
		x.issued = resume.GetLastSeq()
		answers := map[int64]contract.Answer{}
		for _, a := range resume.GetAnswers() {
			v, err := dataResponseFromPB(a)
			answers[a.GetSeq()] = contract.Answer{Value: v, Error: errText(err)}
		}
		res = resumer.Resume(ctx, req, resume.GetState(), answers, x.emit, x.request)
	} else {
		res = s.runner.Run(ctx, req, x.emit, x.request)
	}

	x.finish()
	if err := x.violation(); err != nil {
		return err
	}
	// The supervisor sent the limits and knows which it clamped: they
	// travel one way, and the result does not carry them back.
	res.Limits, res.Clamped = contract.Limits{}, nil
	return x.send(contract.Event{Type: contract.EventResult, Result: &res})
}

// execution is the child's state for its one Execute stream.
type execution struct {
	stream pb.Child_ExecuteServer
	id     string
	ctx    context.Context
	cancel context.CancelCauseFunc

	// sendMu serialises Send (gRPC allows one sender at a time) and makes
	// seq order and stream order the same.
	sendMu   sync.Mutex
	finished bool // guarded by sendMu: Run returned, only the result goes out

	mu      sync.Mutex
	pending map[int64]chan *pb.DataResponse // guarded by mu
	issued  int64                           // guarded by mu (and written under sendMu): highest seq sent
	recvErr error                           // guarded by mu: why no answer can come
	broke   error                           // guarded by mu: the supervisor's protocol violation
	recvEnd chan struct{}                   // closed when receive returns
}

// send writes one event. The caller must not hold sendMu.
func (x *execution) send(e contract.Event) error {
	x.sendMu.Lock()
	defer x.sendMu.Unlock()
	return x.sendLocked(e)
}

func (x *execution) sendLocked(e contract.Event) error {
	e.ExecutionID = x.id
	m, err := eventToPB(e)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	return x.stream.Send(m)
}

// violation returns the supervisor's protocol violation, if any.
func (x *execution) violation() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.broke
}

// fail records a protocol violation by the supervisor and stops the run.
func (x *execution) fail(err error) {
	x.mu.Lock()
	x.broke = err
	x.mu.Unlock()
	x.cancel(err)
}

// finish stops emit and request from sending anything more.
func (x *execution) finish() {
	x.sendMu.Lock()
	x.finished = true
	x.sendMu.Unlock()
}

// emit is the Runner's emit: it forwards log events.
func (x *execution) emit(e contract.Event) {
	if e.Type != contract.EventLog || e.Log == nil {
		return
	}
	x.sendMu.Lock()
	defer x.sendMu.Unlock()
	if x.finished {
		return
	}
	// A failed Send means the stream is gone, and then ctx ends too.
	_ = x.sendLocked(contract.Event{Type: contract.EventLog, Log: e.Log})
}

// request is the Runner's DataHandler: it sends a data_request and waits
// for the matching data_response.
func (x *execution) request(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	ch := make(chan *pb.DataResponse, 1)

	x.sendMu.Lock()
	if x.finished {
		x.sendMu.Unlock()
		return nil, errors.New("ipc: data request after the execution finished")
	}
	x.mu.Lock()
	if x.recvErr != nil {
		err := x.recvErr
		x.mu.Unlock()
		x.sendMu.Unlock()
		return nil, err
	}
	// The engine numbers its requests (a resumed execution's go on from
	// where it parked); one asked again after parking was refused keeps
	// its number.
	seq, refused := contract.RequestSeq(ctx), contract.ParkRefused(ctx)
	switch {
	case seq == 0:
		seq = x.issued + 1
	case seq < x.issued || seq == x.issued && refused == nil:
		x.mu.Unlock()
		x.sendMu.Unlock()
		return nil, fmt.Errorf("ipc: data request %d after %d", seq, x.issued)
	}
	x.issued = seq
	x.pending[seq] = ch
	x.mu.Unlock()
	d := &contract.DataRequest{Seq: seq, Name: name, Args: args}
	if refused != nil {
		d.ParkRefused = strings.ToValidUTF8(refused.Error(), "\uFFFD")
		if d.ParkRefused == "" {
			d.ParkRefused = "parking refused"
		}
	}
	err := x.sendLocked(contract.Event{Type: contract.EventDataRequest, DataRequest: d})
	x.sendMu.Unlock()

	forget := func() {
		x.mu.Lock()
		delete(x.pending, seq)
		x.mu.Unlock()
	}
	if err != nil {
		forget()
		return nil, fmt.Errorf("ipc: send data request %d: %w", seq, err)
	}
	select {
	case resp := <-ch:
		return decodeAnswer(resp)
	case <-ctx.Done():
		forget()
		return nil, fmt.Errorf("ipc: data request %d: %w", seq, ctx.Err())
	case <-x.ctx.Done():
		forget()
		return nil, fmt.Errorf("ipc: data request %d: %w", seq, context.Cause(x.ctx))
	case <-x.recvEnd:
		forget()
		select {
		case resp := <-ch: // answered just before the stream ended
			return decodeAnswer(resp)
		default:
		}
		x.mu.Lock()
		err := x.recvErr
		x.mu.Unlock()
		return nil, err
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// decodeAnswer turns a data response into the DataHandler's results. The
// engine applies the data-request policy (contract.CallDataHandler) to
// them, as it does to any handler's.
func decodeAnswer(resp *pb.DataResponse) (json.RawMessage, error) {
	return dataResponseFromPB(resp)
}

// receive reads the supervisor's messages after the request: data
// responses, delivered to the waiting request. Anything else cancels the
// execution with an InvalidArgument cause.
func (x *execution) receive() {
	var err error
	defer func() {
		x.mu.Lock()
		x.recvErr = err
		x.mu.Unlock()
		close(x.recvEnd)
	}()
	for {
		var m *pb.ToChild
		m, err = x.stream.Recv()
		if errors.Is(err, io.EOF) {
			err = errors.New("ipc: the supervisor closed its side of the stream; no answer will come")
			return
		}
		if err != nil {
			err = fmt.Errorf("ipc: execute stream: %w", err)
			return
		}
		resp := m.GetDataResponse()
		if resp == nil {
			err = status.Error(codes.InvalidArgument, "protocol violation: after the request the supervisor may send only data responses")
			x.fail(err)
			return
		}
		x.mu.Lock()
		ch, ok := x.pending[resp.GetSeq()]
		delete(x.pending, resp.GetSeq())
		issued := x.issued
		x.mu.Unlock()
		switch {
		case ok:
			ch <- resp // buffered, and only this goroutine sends on it
		case resp.GetSeq() < 1 || resp.GetSeq() > issued:
			err = status.Errorf(codes.InvalidArgument, "protocol violation: data response %d answers no request", resp.GetSeq())
			x.fail(err)
			return
		default:
			// The request gave up (its ctx ended) before the answer came.
		}
	}
}
