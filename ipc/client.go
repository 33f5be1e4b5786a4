package ipc

// The supervisor's side of a child: the Client that go-plugin dispenses,
// and everything it checks of what the untrusted child sends.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc/pb"
)

// Client is the supervisor's side of one child: the GRPCClient adapter.
// Its calls end when their ctx ends or when the child process exits,
// whichever comes first.
type Client struct {
	client pb.ChildClient
	// done ends when the child process exits (go-plugin's done context).
	done context.Context
	// wire meters the child's connection; nil when no process was
	// started (in-process tests).
	wire *wireMeter

	// dataBytes is the last execution's data traffic (DataBytes).
	dataBytes atomic.Int64

	mu         sync.Mutex
	openCalled bool          // guarded by mu
	opened     *openedStream // guarded by mu: the stream Open made, until Execute takes it
}

// openedStream is an Execute stream opened ahead of its request.
type openedStream struct {
	stream pb.Child_ExecuteClient
	cancel context.CancelFunc
}

// newClient returns a Client on c. done may be nil: then there is no
// process to watch and only the caller's ctx bounds calls.
func newClient(c pb.ChildClient, done context.Context) *Client {
	return &Client{client: c, done: done}
}

// errChildExited is the cancel cause when the child's process ends first.
var errChildExited = errors.New("ipc: child process exited")

// join returns a ctx that ends with ctx or when the child exits.
func (c *Client) join(ctx context.Context) (context.Context, context.CancelFunc) {
	joined, cancel := context.WithCancelCause(ctx)
	if c.done == nil {
		return joined, func() { cancel(nil) }
	}
	stop := context.AfterFunc(c.done, func() { cancel(errChildExited) })
	return joined, func() {
		stop()
		cancel(nil)
	}
}

// classify turns an error from a gRPC call made under ctx into what the
// caller gets: ctx.Err() wrapped when the caller's ctx ended (so it can
// tell an abort from a timeout), otherwise a SandboxError naming op.
func (c *Client) classify(ctx context.Context, op string, err error) error {
	if c.wire != nil {
		if over, budget := c.wire.exceeded(); over {
			return contract.Errorf(contract.SandboxError, "ipc: %s: the child exceeded its wire budget (sent more than %d bytes, more than its limits allow) and was killed", op, budget)
		}
		if refused := c.wire.refusal(); refused != nil {
			return contract.Errorf(contract.SandboxError, "ipc: %s: %v", op, refused)
		}
	}
	if ctx.Err() == nil && status.Code(err) == codes.DeadlineExceeded {
		// The server enforces the deadline too, and its timer can beat
		// ours: then the deadline has passed and ctx ends at any moment.
		if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
			<-ctx.Done()
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("ipc: %s: %w", op, ctx.Err())
	}
	if c.done != nil && c.done.Err() != nil {
		return contract.Errorf(contract.SandboxError, "ipc: %s: child process exited: %s", op, status.Convert(err).Message())
	}
	st := status.Convert(err)
	if st.Code() == codes.FailedPrecondition {
		return contract.Errorf(contract.SandboxError, "ipc: %s: child refused: %s", op, st.Message())
	}
	return contract.Errorf(contract.SandboxError, "ipc: %s: stream broke: %s: %s", op, st.Code(), st.Message())
}

// violation is a SandboxError for a child that broke the protocol.
func violation(format string, args ...any) error {
	return contract.Errorf(contract.SandboxError, "ipc: protocol violation: "+format, args...)
}

// Ping returns once the child serves, with the child's account of its
// start-up (empty when it keeps none). Errors are classified as in
// Execute.
func (c *Client) Ping(ctx context.Context) (Startup, error) {
	jctx, cancel := c.join(ctx)
	defer cancel()
	resp, err := c.client.Ping(jctx, &pb.PingRequest{})
	if err != nil {
		return Startup{}, c.classify(ctx, "ping", err)
	}
	return startupFromPB(resp), nil
}

// Open opens the stream of the child's one execution ahead of time, so
// that the child's handler is already waiting for the request when
// Execute sends it: opening a stream costs a round trip and a new
// goroutine in the child, about a millisecond of a warm execution on the
// machines Warden was measured on. Open is optional (Execute opens a
// stream itself when there is none) and may be called once. The stream
// ends when Execute is done with it or when the child exits.
//
// ctx bounds only the opening: it does not wait for the child to take
// the stream up, but it does wait for stream quota, which a subverted
// child can withhold (an HTTP/2 SETTINGS frame with
// MAX_CONCURRENT_STREAMS 0). If ctx ends first, the stream is cancelled
// and the error wraps ctx.Err().
func (c *Client) Open(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.openCalled {
		return errors.New("ipc: Open called twice")
	}
	c.openCalled = true
	sctx, cancel := c.join(context.Background())
	stop := context.AfterFunc(ctx, cancel)
	stream, err := c.client.Execute(sctx)
	if !stop() {
		cancel()
		return fmt.Errorf("ipc: open execute stream: %w", ctx.Err())
	}
	if err != nil {
		cancel()
		return c.classify(sctx, "open execute stream", err)
	}
	c.opened = &openedStream{stream: stream, cancel: cancel}
	return nil
}

// stream returns the stream for an execution under jctx: the one Open
// made (ended when jctx ends), or a new one. end releases it.
func (c *Client) stream(jctx context.Context) (stream pb.Child_ExecuteClient, end func(), err error) {
	c.mu.Lock()
	o := c.opened
	c.opened = nil
	c.mu.Unlock()
	if o == nil {
		stream, err = c.client.Execute(jctx)
		return stream, func() {}, err
	}
	// The opened stream was not made under jctx: end it when jctx ends,
	// which is what a stream made under jctx would do.
	stop := context.AfterFunc(jctx, o.cancel)
	return o.stream, func() {
		stop()
		o.cancel()
	}, nil
}

// Execute runs req on the child. It forwards the started, log and
// data_request events to onEvent as they arrive (onEvent may be nil),
// answers each data_request by calling handler under the one policy of
// contract.CallDataHandler (a nil handler answers
// contract.ErrNoDataHandler), and returns the child's envelope.
//
// onEvent and handler are called on Execute's goroutine, one at a time, in
// stream order; while one runs, the stream is not read. handler gets a ctx
// that ends with ctx or when the child exits.
//
// req.Limits must be resolved (contract.Resolve): they bound what the
// child may send. Nothing the child sends is trusted: a result value or
// data-request arguments that are not JSON, more data requests than
// Limits.DataRequests, or request names and arguments over
// Limits.DataBytes break the protocol and never reach handler or the
// caller. The envelope's Limits are req.Limits, whatever the child says.
// Answers count against DataBytes too: one that would go over is
// not sent, and the execution ends with a ResourceError of kind
// data_bytes, as it does when the child finds the limit crossed.
//
// The error is ctx.Err() wrapped with %w when ctx ended first, and a
// *contract.Error of type SandboxError when the child exited, refused the
// execution (it already ran one), sent more than its wire budget, or
// broke the protocol (closed the stream before its result, sent an
// unknown event, a result twice, an event out of order or for another
// execution, or anything above).
func (c *Client) Execute(ctx context.Context, req contract.Request, onEvent func(contract.Event), handler contract.DataHandler) (contract.Result, error) {
	return c.run(ctx, &pb.ToChild{Msg: &pb.ToChild_Request{Request: requestToPB(req)}}, &call{req: req}, onEvent, handler)
}

// Resume continues a parked execution on the child, as Execute runs one:
// req is the parked request (its limits resolved; its code and input
// are in state), state the engine's state, answers those given for its
// pending requests, and lastSeq the highest data request seq the child
// sent before it parked (later ones must be higher).
//
// dataBytes is the data traffic the execution caused before it parked,
// which counts against its data_bytes limit here as well.
func (c *Client) Resume(ctx context.Context, req contract.Request, state []byte, answers map[int64]contract.Answer, lastSeq, dataBytes int64,
	onEvent func(contract.Event), handler contract.DataHandler) (contract.Result, error) {
	m := &pb.Resume{Request: requestToPB(req), State: state, LastSeq: lastSeq}
	for seq, a := range answers {
		var err error
		if a.Value == nil {
			err = dataError(a.Error)
		}
		m.Answers = append(m.Answers, dataResponseToPB(seq, a.Value, err))
	}
	return c.run(ctx, &pb.ToChild{Msg: &pb.ToChild_Resume{Resume: m}}, &call{req: req, lastSeq: lastSeq, dataBytes: dataBytes}, onEvent, handler)
}

// DataBytes is the data traffic (request names and arguments, answers)
// of the execution this client ran, as it counted it: what a parked
// state carries on to its resume.
func (c *Client) DataBytes() int64 { return c.dataBytes.Load() }

// run sends first and serves the execution's stream (Execute's loop).
func (c *Client) run(ctx context.Context, first *pb.ToChild, x *call, onEvent func(contract.Event), handler contract.DataHandler) (contract.Result, error) {
	req := x.req
	defer func() { c.dataBytes.Store(x.dataBytes) }()
	jctx, cancel := c.join(ctx)
	defer cancel()
	if c.wire != nil {
		c.wire.allow(req)
	}

	stream, end, err := c.stream(jctx)
	if err != nil {
		return contract.Result{}, c.classify(ctx, "execute", err)
	}
	defer end()
	// A Send that fails with io.EOF means the stream is gone, and Recv
	// reports why; any other error is the request's own (protobuf
	// strings must be UTF-8).
	if err := stream.Send(first); err != nil && !errors.Is(err, io.EOF) {
		return contract.Result{}, contract.Errorf(contract.ContractError, "ipc: the request cannot be sent: %s", status.Convert(err).Message())
	}

	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			if x.result == nil {
				return contract.Result{}, violation("child closed the stream before sending a result")
			}
			return *x.result, nil
		}
		if err != nil {
			return contract.Result{}, c.classify(ctx, "execute", err)
		}
		ev, err := eventFromPB(m)
		if err != nil { // the only error: errUnknownEvent
			return contract.Result{}, violation("child sent an event of unknown type")
		}
		if err := x.admit(int64(proto.Size(m)), ev); err != nil {
			return contract.Result{}, err
		}
		if err := x.record(ev); err != nil {
			return contract.Result{}, err
		}
		if ev.Type == contract.EventResult {
			// Nothing more to say; the child ends the stream next.
			_ = stream.CloseSend()
			continue
		}
		if onEvent != nil {
			onEvent(ev)
		}
		if ev.Type == contract.EventDataRequest {
			resp, over := answer(jctx, handler, *ev.DataRequest, req.Limits.DataBytes-x.dataBytes)
			if over != nil {
				// As in the engine, crossing a data limit ends the
				// execution; the guest does not get to catch it.
				return contract.Fail(over, req.Limits), nil
			}
			x.dataBytes += int64(len(resp.GetValue()) + len(resp.GetError()))
			if resp.GetPark() {
				x.parkSeq = ev.DataRequest.Seq
			}
			// As above: if the stream is gone, the next Recv says why.
			_ = stream.Send(&pb.ToChild{Msg: &pb.ToChild_DataResponse{DataResponse: resp}})
		}
	}
}

// call is what one Execute has seen of the child's stream so far, to
// check each event against the request and the events before it.
type call struct {
	req       contract.Request
	started   bool
	lastSeq   int64
	parkSeq   int64 // the data request last answered with park
	dataBytes int64 // request names and arguments, and answers sent
	result    *contract.Result
}

// admit returns a protocol violation if an event of size bytes may not
// come now: too large for its type under the request's limits, for
// another execution, after the result, or out of order around started.
func (x *call) admit(size int64, ev contract.Event) error {
	if most := eventBytes(ev.Type, x.req); size > most {
		return violation("child sent a %s event of %d bytes, over the %d its limits allow", ev.Type, size, most)
	}
	switch {
	case ev.ExecutionID != x.req.ID:
		return violation("child sent a %s event for execution %q, want %q", ev.Type, ev.ExecutionID, x.req.ID)
	case x.result != nil:
		if ev.Type == contract.EventResult {
			return violation("child sent a second result")
		}
		return violation("child sent a %s event after its result", ev.Type)
	case !x.started && ev.Type != contract.EventStarted:
		return violation("child sent a %s event before started", ev.Type)
	case x.started && ev.Type == contract.EventStarted:
		return violation("child sent started twice")
	}
	return nil
}

// record checks an admitted event's content and takes it into the
// call's state: started, the result (with the request's limits), and the
// data requests' sequence and bytes.
func (x *call) record(ev contract.Event) error {
	switch ev.Type {
	case contract.EventStarted:
		x.started = true
	case contract.EventResult:
		if p := ev.Result.Parked; p != nil {
			if err := x.checkParked(ev.Result); err != nil {
				return err
			}
		} else if ev.Result.OK == (ev.Result.Error != nil) {
			return violation("child sent a result with ok=%t and error=%v", ev.Result.OK, ev.Result.Error)
		}
		if len(ev.Result.Value) > 0 && !contract.ValidJSON(ev.Result.Value) {
			return violation("child sent a result value that is not JSON: %s", contract.WhyNotJSON(ev.Result.Value))
		}
		x.result = ev.Result
		// The limits in force are the ones sent with the request; the
		// child does not send them back (grpcServer.Execute), and
		// which were clamped only the caller knows.
		x.result.Limits, x.result.Clamped = x.req.Limits, nil
	case contract.EventDataRequest:
		d := ev.DataRequest
		switch {
		case d.ParkRefused != "":
			// Asked again after an answer that said park.
			if d.Seq != x.parkSeq {
				return violation("child sent data_request seq %d refusing to park, but was asked to park %d", d.Seq, x.parkSeq)
			}
			x.parkSeq = 0
		case d.Seq <= x.lastSeq:
			return violation("child sent data_request seq %d, want more than %d", d.Seq, x.lastSeq)
		}
		x.lastSeq = d.Seq
		if d.Seq > x.req.Limits.DataRequests {
			return violation("child sent data request %d, over its limit of %d", d.Seq, x.req.Limits.DataRequests)
		}
		if len(d.Args) > 0 && !contract.ValidJSON(d.Args) {
			return violation("child sent data request %d with arguments that are not JSON: %s", d.Seq, contract.WhyNotJSON(d.Args))
		}
		x.dataBytes += int64(len(d.Name) + len(d.Args))
		if x.dataBytes > x.req.Limits.DataBytes {
			return violation("child sent data requests of %d bytes, over its data_bytes limit of %d", x.dataBytes, x.req.Limits.DataBytes)
		}
	}
	return nil
}

// checkParked checks a parked result: the request allowed parking, the
// state fits park_bytes, and the pending requests are ones the child
// may be waiting on (a seq no later than the last, JSON arguments).
func (x *call) checkParked(r *contract.Result) error {
	p := r.Parked
	switch {
	case !x.req.Park:
		return violation("child parked an execution whose request does not allow parking")
	case r.OK || r.Error != nil:
		return violation("child sent a parked result with ok=%t and error=%v", r.OK, r.Error)
	case int64(len(p.State)) > x.req.Limits.ParkBytes:
		return violation("child sent a parked state of %d bytes, over its park_bytes limit of %d", len(p.State), x.req.Limits.ParkBytes)
	case len(p.Pending) == 0:
		return violation("child parked with no pending data request")
	}
	prev := int64(0)
	for _, q := range p.Pending {
		if q.Seq <= prev || q.Seq > x.req.Limits.DataRequests {
			return violation("child parked with pending request %d out of order or over its limit", q.Seq)
		}
		if len(q.Args) > 0 && !contract.ValidJSON(q.Args) {
			return violation("child parked with pending request %d whose arguments are not JSON", q.Seq)
		}
		prev = q.Seq
	}
	return nil
}

// answer calls handler for d under the one data-request policy
// (contract.CallDataHandler: no handler, null, JSON) and encodes what it
// says. A value or error message longer than room bytes is not sent (the
// engine counts both against data_bytes, and the wire's ToChild cap is
// derived from that bound): over is then the ResourceError that ends the
// execution.
func answer(ctx context.Context, handler contract.DataHandler, d contract.DataRequest, room int64) (resp *pb.DataResponse, over *contract.Error) {
	ctx = contract.WithRequestSeq(ctx, d.Seq)
	if d.ParkRefused != "" {
		ctx = contract.WithParkRefused(ctx, errors.New(d.ParkRefused))
	}
	value, err := contract.CallDataHandler(ctx, handler, d.Name, d.Args)
	resp = dataResponseToPB(d.Seq, value, err)
	what := "answer"
	if err != nil {
		what = "error"
	}
	if n := len(resp.GetValue()) + len(resp.GetError()); int64(n) > room {
		return nil, contract.ResourceErrorf(contract.KindDataBytes, "host.request %q: the %s of %d bytes would take the traffic over the data_bytes limit", d.Name, what, n)
	}
	return resp, nil
}
