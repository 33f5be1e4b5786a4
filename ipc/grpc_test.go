package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc/pb"
)

// All tests here run the real adapters over a real gRPC connection made by
// plugin.TestPluginGRPCConn; no process is started.

// prompt bounds how long anything that should be immediate may take.
const prompt = 5 * time.Second

// runnerFunc adapts a function to Runner.
type runnerFunc func(ctx context.Context, req contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result

func (f runnerFunc) Run(ctx context.Context, req contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result {
	return f(ctx, req, emit, request)
}

// connect serves ps in-process and returns a client for the child plugin,
// the go-plugin client and the server.
func connect(t *testing.T, ps map[string]plugin.Plugin) (*Client, *plugin.GRPCClient, *plugin.GRPCServer) {
	t.Helper()
	gc, gs := plugin.TestPluginGRPCConn(t, false, ps)
	// Close asks the server to stop (go-plugin's controller Shutdown);
	// calling gs.Stop as well would race inside go-plugin.
	t.Cleanup(func() { _ = gc.Close() })
	raw, err := gc.Dispense(PluginName)
	if err != nil {
		t.Fatalf("dispense: %v", err)
	}
	c, ok := raw.(*Client)
	if !ok {
		t.Fatalf("dispensed %T, want *Client", raw)
	}
	return c, gc, gs
}

// serve serves r the way a child does.
func serve(t *testing.T, r Runner) (*Client, *plugin.GRPCClient, *plugin.GRPCServer) {
	t.Helper()
	return connect(t, ServerPluginMap(r))
}

// recorder collects the events Execute forwards.
type recorder struct {
	mu     sync.Mutex
	events []contract.Event
}

func (r *recorder) on(e contract.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) get() []contract.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]contract.Event(nil), r.events...)
}

func logEvent(id, level, text string) contract.Event {
	return contract.Event{Type: contract.EventLog, ExecutionID: id, Log: &contract.LogEntry{Level: level, Text: text}}
}

func dataEvent(id string, seq int64, name, args string) contract.Event {
	return contract.Event{Type: contract.EventDataRequest, ExecutionID: id, DataRequest: &contract.DataRequest{Seq: seq, Name: name, Args: json.RawMessage(args)}}
}

func TestExecuteStreamsEventsInOrderAndReturnsResult(t *testing.T) {
	req := full[contract.Request](t)
	req.Limits.DataBytes = 1 << 20 // room for the three requests and answers
	want := full[contract.Result](t)
	want.OK, want.Error, want.Parked = true, nil, nil

	var gotReq contract.Request
	var answers []string
	c, _, _ := serve(t, runnerFunc(func(ctx context.Context, r contract.Request, emit func(contract.Event), request contract.DataHandler) contract.Result {
		gotReq = r
		emit(contract.Event{Type: contract.EventLog, Log: &contract.LogEntry{Level: "info", Text: "start"}})
		emit(contract.Event{Type: contract.EventStarted}) // not the runner's to send: ignored
		for i := 1; i <= 3; i++ {
			v, err := request(ctx, "lookup", json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)))
			if err != nil {
				return contract.Fail(err, r.Limits)
			}
			answers = append(answers, string(v))
			emit(contract.Event{Type: contract.EventLog, Log: &contract.LogEntry{Level: "log", Text: string(v)}})
		}
		return want
	}))

	var rec recorder
	var handled []string
	got, err := c.Execute(context.Background(), req, rec.on, func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		if ctx.Err() != nil {
			t.Errorf("handler ctx already done: %v", ctx.Err())
		}
		handled = append(handled, name+" "+string(args))
		return json.RawMessage(fmt.Sprintf(`{"answer":%d}`, len(handled))), nil
	})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	// The limits travel one way: the envelope has the ones sent, not
	// whatever the runner put in its result.
	wantRes := want
	wantRes.Limits, wantRes.Clamped = req.Limits, nil
	if !reflect.DeepEqual(got, wantRes) {
		t.Errorf("result:\n got %+v\nwant %+v", got, wantRes)
	}
	if !reflect.DeepEqual(gotReq, req) {
		t.Errorf("the runner got a different request:\n got %+v\nwant %+v", gotReq, req)
	}

	id := req.ID
	wantEvents := []contract.Event{
		{Type: contract.EventStarted, ExecutionID: id},
		logEvent(id, "info", "start"),
		dataEvent(id, 1, "lookup", `{"i":1}`),
		logEvent(id, "log", `{"answer":1}`),
		dataEvent(id, 2, "lookup", `{"i":2}`),
		logEvent(id, "log", `{"answer":2}`),
		dataEvent(id, 3, "lookup", `{"i":3}`),
		logEvent(id, "log", `{"answer":3}`),
	}
	if events := rec.get(); !reflect.DeepEqual(events, wantEvents) {
		t.Errorf("events:\n got %+v\nwant %+v", events, wantEvents)
	}
	wantHandled := []string{`lookup {"i":1}`, `lookup {"i":2}`, `lookup {"i":3}`}
	if !reflect.DeepEqual(handled, wantHandled) {
		t.Errorf("handler calls: got %q, want %q", handled, wantHandled)
	}
	wantAnswers := []string{`{"answer":1}`, `{"answer":2}`, `{"answer":3}`}
	if !reflect.DeepEqual(answers, wantAnswers) {
		t.Errorf("runner answers: got %q, want %q", answers, wantAnswers)
	}
}

// TestDataRequestAnswers covers what the runner's request returns for each
// kind of handler answer.
func TestDataRequestAnswers(t *testing.T) {
	handler := func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		switch name {
		case "fail":
			return json.RawMessage(`"ignored"`), errors.New("no such record: 42")
		case "nil":
			return nil, nil
		case "garbage":
			return json.RawMessage(`{not json`), nil
		default: // echo
			return args, nil
		}
	}
	tests := []struct {
		name     string
		handler  contract.DataHandler
		args     json.RawMessage
		expected string // value, or "error: message"
	}{
		{name: "echo", handler: handler, args: json.RawMessage(`[1,2]`), expected: `[1,2]`},
		{name: "echo", handler: handler, args: nil, expected: `null`},
		{name: "fail", handler: handler, expected: "error: no such record: 42"},
		{name: "nil", handler: handler, expected: `null`},
		{name: "garbage", handler: handler, expected: `error: host.request "garbage": the data handler answered with invalid JSON`},
		{name: "any", handler: nil, expected: "error: " + contract.ErrNoDataHandler.Error()},
		{name: "binary error", handler: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("bad \xff byte")
		}, expected: "error: bad \uFFFD byte"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%s/handler=%t", tc.name, tc.args, tc.handler != nil), func(t *testing.T) {
			var got string
			c, _, _ := serve(t, runnerFunc(func(ctx context.Context, r contract.Request, _ func(contract.Event), request contract.DataHandler) contract.Result {
				v, err := request(ctx, tc.name, tc.args)
				if err != nil {
					got = "error: " + err.Error()
				} else {
					got = string(v)
				}
				return contract.Result{OK: true, Value: json.RawMessage(`1`), Limits: r.Limits}
			}))
			if _, err := c.Execute(context.Background(), contract.Request{ID: "x", Limits: contract.DefaultLimits}, nil, tc.handler); err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if got != tc.expected {
				t.Errorf("runner got %q, want %q", got, tc.expected)
			}
		})
	}
}

// blockingRunner blocks until its ctx ends, and reports that it did.
func blockingRunner(running chan<- struct{}, stopped chan<- error) Runner {
	return runnerFunc(func(ctx context.Context, r contract.Request, _ func(contract.Event), _ contract.DataHandler) contract.Result {
		close(running)
		<-ctx.Done()
		stopped <- ctx.Err()
		return contract.Fail(ctx.Err(), r.Limits)
	})
}

// stuckRunner ignores its ctx, as an engine stuck in a slow builtin
// would, until release is closed; it reports when its ctx ends.
func stuckRunner(running chan<- struct{}, ctxEnded chan<- error, release <-chan struct{}) Runner {
	return runnerFunc(func(ctx context.Context, r contract.Request, _ func(contract.Event), _ contract.DataHandler) contract.Result {
		close(running)
		go func() {
			<-ctx.Done()
			ctxEnded <- ctx.Err()
		}()
		<-release
		return contract.Fail(errors.New("released"), r.Limits)
	})
}

func TestExecuteReturnsPromptlyWhenCtxEnds(t *testing.T) {
	tests := []struct {
		name     string
		ctx      func() (context.Context, context.CancelFunc)
		cancelAt bool // cancel once the runner runs
		expected error
	}{
		{
			name:     "cancel",
			ctx:      func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
			cancelAt: true,
			expected: context.Canceled,
		},
		{
			name: "deadline",
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 50*time.Millisecond)
			},
			expected: context.DeadlineExceeded,
		},
	}
	for _, tc := range tests {
		for _, opened := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/opened=%t", tc.name, opened), func(t *testing.T) {
				running, ctxEnded, release := make(chan struct{}), make(chan error, 1), make(chan struct{})
				defer close(release)
				c, _, _ := serve(t, stuckRunner(running, ctxEnded, release))
				if opened {
					// A stream opened ahead of time carries no deadline of
					// its own: Execute must end it with ctx.
					if err := c.Open(context.Background()); err != nil {
						t.Fatalf("Open: %v", err)
					}
				}
				ctx, cancel := tc.ctx()
				defer cancel()
				if tc.cancelAt {
					go func() { <-running; cancel() }()
				}
				start := time.Now()
				_, err := c.Execute(ctx, contract.Request{ID: "x"}, nil, nil)
				if !errors.Is(err, tc.expected) {
					t.Fatalf("Execute: got %v, want it to wrap %v", err, tc.expected)
				}
				var ce *contract.Error
				if errors.As(err, &ce) {
					t.Errorf("a ctx error must not be a *contract.Error, got %v", ce)
				}
				if d := time.Since(start); d > prompt {
					t.Errorf("Execute took %s to notice", d)
				}
				// The cancellation reaches the child: the runner's ctx ends
				// (with DeadlineExceeded when gRPC's propagated deadline fires
				// there first).
				select {
				case err := <-ctxEnded:
					if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
						t.Errorf("runner ctx ended with %v", err)
					}
				case <-time.After(prompt):
					t.Error("the runner's ctx never ended")
				}
			})
		}
	}
}

// openerRunner records when StreamOpened runs, and whether it ran before
// the request did.
type openerRunner struct {
	opened chan struct{}
	mu     sync.Mutex
	order  []string
}

func (r *openerRunner) StreamOpened() {
	r.mu.Lock()
	r.order = append(r.order, "opened")
	r.mu.Unlock()
	close(r.opened)
}

func (r *openerRunner) Run(_ context.Context, req contract.Request, _ func(contract.Event), _ contract.DataHandler) contract.Result {
	r.mu.Lock()
	r.order = append(r.order, "run")
	r.mu.Unlock()
	return contract.Result{OK: true, Value: json.RawMessage(`42`), Logs: []contract.LogEntry{}, Limits: req.Limits}
}

// TestOpenRunsStreamOpenedAheadOfTheRequest: Open reaches the child before
// any request (StreamOpened runs with no Execute in flight), the execution
// then runs on that stream, and a second Open is refused.
func TestOpenRunsStreamOpenedAheadOfTheRequest(t *testing.T) {
	r := &openerRunner{opened: make(chan struct{})}
	c, _, _ := serve(t, r)
	if err := c.Open(context.Background()); err != nil {
		t.Fatalf("Open: %v", err)
	}
	select {
	case <-r.opened:
	case <-time.After(prompt):
		t.Fatal("StreamOpened did not run after Open")
	}
	if err := c.Open(context.Background()); err == nil {
		t.Error("a second Open succeeded")
	}
	res, err := c.Execute(context.Background(), contract.Request{ID: "x"}, nil, nil)
	if err != nil || string(res.Value) != "42" {
		t.Fatalf("Execute on the opened stream = %+v, %v", res, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !reflect.DeepEqual(r.order, []string{"opened", "run"}) {
		t.Errorf("order = %v, want [opened run]", r.order)
	}
}

// TestExecuteCancelDuringDataHandler: the handler gets a ctx that ends
// with the caller's.
func TestExecuteCancelDuringDataHandler(t *testing.T) {
	c, _, _ := serve(t, runnerFunc(func(ctx context.Context, r contract.Request, _ func(contract.Event), request contract.DataHandler) contract.Result {
		_, err := request(ctx, "slow", nil)
		return contract.Fail(err, r.Limits)
	}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := c.Execute(ctx, contract.Request{ID: "x", Limits: contract.DefaultLimits}, nil, func(hctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
		cancel()
		select {
		case <-hctx.Done():
			return nil, hctx.Err()
		case <-time.After(prompt):
			t.Error("the handler's ctx did not end with the caller's")
			return nil, nil
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute: got %v, want it to wrap context.Canceled", err)
	}
}

func TestExecuteServerGoesAway(t *testing.T) {
	t.Run("server stops mid-stream", func(t *testing.T) {
		running, stopped := make(chan struct{}), make(chan error, 1)
		c, _, gs := serve(t, blockingRunner(running, stopped))
		gone := make(chan struct{})
		go func() {
			defer close(gone)
			<-running
			gs.Stop()
		}()
		_, err := c.Execute(context.Background(), contract.Request{ID: "x"}, nil, nil)
		<-gone // go-plugin's Stop is not safe to race with the cleanup's
		requireSandboxError(t, err, "stream broke")
	})
	t.Run("child process exits", func(t *testing.T) {
		running, stopped := make(chan struct{}), make(chan error, 1)
		_, gc, _ := serve(t, blockingRunner(running, stopped))
		// The client go-plugin builds for a real child, whose done ctx ends
		// when the process exits.
		done, exit := context.WithCancel(context.Background())
		defer exit()
		c := newClient(pb.NewChildClient(gc.Conn), done)
		go func() { <-running; exit() }()
		_, err := c.Execute(context.Background(), contract.Request{ID: "x"}, nil, nil)
		requireSandboxError(t, err, "child process exited")
		if _, err := c.Ping(context.Background()); !errors.Is(err, contract.ErrSandbox) {
			t.Errorf("Ping after exit: got %v, want a SandboxError", err)
		}
	})
}

func TestSecondExecuteIsRefused(t *testing.T) {
	ok := contract.Result{OK: true, Value: json.RawMessage(`1`), Logs: []contract.LogEntry{}}
	t.Run("after the first", func(t *testing.T) {
		c, gc, _ := serve(t, runnerFunc(func(context.Context, contract.Request, func(contract.Event), contract.DataHandler) contract.Result {
			return ok
		}))
		if _, err := c.Execute(context.Background(), contract.Request{ID: "1"}, nil, nil); err != nil {
			t.Fatalf("first Execute: %v", err)
		}
		_, err := c.Execute(context.Background(), contract.Request{ID: "2"}, nil, nil)
		requireSandboxError(t, err, "already ran an execution")

		// On the wire it is FailedPrecondition.
		stream, err := pb.NewChildClient(gc.Conn).Execute(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		_ = stream.Send(&pb.ToChild{Msg: &pb.ToChild_Request{Request: &pb.Request{Id: "3"}}})
		if _, err := stream.Recv(); status.Code(err) != codes.FailedPrecondition {
			t.Errorf("third Execute: got %v, want FailedPrecondition", err)
		}
	})
	t.Run("concurrently", func(t *testing.T) {
		release := make(chan struct{})
		c, _, _ := serve(t, runnerFunc(func(context.Context, contract.Request, func(contract.Event), contract.DataHandler) contract.Result {
			<-release
			return ok
		}))
		const n = 8
		errs := make(chan error, n)
		for i := range n {
			go func() {
				_, err := c.Execute(context.Background(), contract.Request{ID: fmt.Sprint(i)}, nil, nil)
				errs <- err
			}()
		}
		var refused int
		for range n - 1 {
			err := <-errs
			requireSandboxError(t, err, "already ran an execution")
			refused++
		}
		close(release)
		if err := <-errs; err != nil {
			t.Errorf("the one served Execute failed: %v", err)
		}
		if refused != n-1 {
			t.Errorf("%d of %d refused, want %d", refused, n, n-1)
		}
	})
}

func TestPing(t *testing.T) {
	c, _, gs := serve(t, runnerFunc(func(context.Context, contract.Request, func(contract.Event), contract.DataHandler) contract.Result {
		t.Error("Ping must not run anything")
		return contract.Result{}
	}))
	if _, err := c.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Ping(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Ping with a cancelled ctx: got %v, want it to wrap context.Canceled", err)
	}
	gs.Stop()
	if _, err := c.Ping(context.Background()); !errors.Is(err, contract.ErrSandbox) {
		t.Errorf("Ping after the server stopped: got %v, want a SandboxError", err)
	}
}

// scriptedChild is a Child server that ignores its request beyond the ID
// and sends what script says, to test the client against a broken child.
type scriptedChild struct {
	pb.UnimplementedChildServer
	script func(id string) []*pb.FromChild
}

func (s *scriptedChild) Execute(stream pb.Child_ExecuteServer) error {
	m, err := stream.Recv()
	if err != nil {
		return err
	}
	for _, out := range s.script(m.GetRequest().GetId()) {
		if err := stream.Send(out); err != nil {
			return err
		}
	}
	return nil
}

// scriptedPlugin serves a scriptedChild behind the real client adapter.
type scriptedPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	srv *scriptedChild
}

func (p *scriptedPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterChildServer(s, p.srv)
	return nil
}

func (p *scriptedPlugin) GRPCClient(ctx context.Context, b *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return (&ChildPlugin{}).GRPCClient(ctx, b, c)
}

func TestExecuteRejectsBrokenChild(t *testing.T) {
	started := func(id string) *pb.FromChild {
		return &pb.FromChild{ExecutionId: id, Event: &pb.FromChild_Started{Started: &pb.Started{}}}
	}
	log := func(id string) *pb.FromChild {
		return &pb.FromChild{ExecutionId: id, Event: &pb.FromChild_Log{Log: &pb.LogEntry{Level: "log", Text: "hi"}}}
	}
	result := func(id string) *pb.FromChild {
		return &pb.FromChild{ExecutionId: id, Event: &pb.FromChild_Result{Result: &pb.Result{Ok: true, Value: []byte(`1`)}}}
	}
	request := func(id string, seq int64, args string) *pb.FromChild {
		return &pb.FromChild{ExecutionId: id, Event: &pb.FromChild_DataRequest{DataRequest: &pb.DataRequest{Seq: seq, Name: "n", Args: []byte(args)}}}
	}
	tests := []struct {
		name     string
		script   func(id string) []*pb.FromChild
		expected string
	}{
		{"eof before result", func(id string) []*pb.FromChild { return []*pb.FromChild{started(id), log(id)} }, "closed the stream before sending a result"},
		{"eof at once", func(string) []*pb.FromChild { return nil }, "closed the stream before sending a result"},
		{"unknown event", func(id string) []*pb.FromChild { return []*pb.FromChild{started(id), {ExecutionId: id}} }, "event of unknown type"},
		{"result twice", func(id string) []*pb.FromChild { return []*pb.FromChild{started(id), result(id), result(id)} }, "second result"},
		{"event after result", func(id string) []*pb.FromChild { return []*pb.FromChild{started(id), result(id), log(id)} }, "log event after its result"},
		{"log before started", func(id string) []*pb.FromChild { return []*pb.FromChild{log(id), started(id), result(id)} }, "log event before started"},
		{"started twice", func(id string) []*pb.FromChild { return []*pb.FromChild{started(id), started(id), result(id)} }, "started twice"},
		{"other execution", func(string) []*pb.FromChild { return []*pb.FromChild{started("other"), result("other")} }, `for execution "other", want "x"`},
		{"seq not increasing", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_DataRequest{DataRequest: &pb.DataRequest{Seq: 0, Name: "n"}}}}
		}, "data_request seq 0, want more than 0"},
		{"park refused unasked", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_DataRequest{DataRequest: &pb.DataRequest{Seq: 1, Name: "n", ParkRefused: "x"}}}}
		}, "refusing to park, but was asked to park 0"},
		{"parked unasked", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_Result{Result: &pb.Result{
				Parked: &pb.Parked{State: []byte("s"), Pending: []*pb.PendingRequest{{Seq: 1, Name: "n"}}}}}}}
		}, "does not allow parking"},
		{"result neither ok nor error", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_Result{Result: &pb.Result{}}}}
		}, "result with ok=false"},
		{"result not JSON", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_Result{Result: &pb.Result{Ok: true, Value: []byte(`{"a":`)}}}}
		}, "result value that is not JSON"},
		{"args not JSON", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), request(id, 1, `{"a":`), result(id)}
		}, "data request 1 with arguments that are not JSON"},
		{"result not UTF-8", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_Result{Result: &pb.Result{Ok: true, Value: []byte("\"\xed\xa0\x80\"")}}}}
		}, "result value that is not JSON: not valid UTF-8"},
		{"result not UTF-8, nested", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_Result{Result: &pb.Result{Ok: true, Value: []byte("{\"a\":[\"\xff\"]}")}}}}
		}, "result value that is not JSON: not valid UTF-8"},
		{"args not UTF-8", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), request(id, 1, "[\"\xed\xa0\x80\"]"), result(id)}
		}, "data request 1 with arguments that are not JSON: not valid UTF-8"},
		{"too many data requests", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), request(id, 1, `1`), request(id, 2, `2`), request(id, 3, `3`), result(id)}
		}, "data request 3, over its limit of 2"},
		{"too many data bytes", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), request(id, 1, `"`+strings.Repeat("x", 100)+`"`), result(id)}
		}, "data requests of 103 bytes, over its data_bytes limit of 100"},
		{"result both ok and error", func(id string) []*pb.FromChild {
			return []*pb.FromChild{started(id), {ExecutionId: id, Event: &pb.FromChild_Result{Result: &pb.Result{Ok: true, Error: &pb.Error{Type: "UserCodeError"}}}}}
		}, "result with ok=true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, _, _ := connect(t, map[string]plugin.Plugin{PluginName: &scriptedPlugin{srv: &scriptedChild{script: tc.script}}})
			limits := contract.Limits{DataRequests: 2, DataBytes: 100}
			handler := func(_ context.Context, _ string, args json.RawMessage) (json.RawMessage, error) {
				if !json.Valid(args) || string(args) == "3" || len(args) > 50 {
					t.Errorf("the handler got a request that broke the protocol: %s", args)
				}
				return nil, nil
			}
			_, err := c.Execute(context.Background(), contract.Request{ID: "x", Limits: limits}, nil, handler)
			requireSandboxError(t, err, tc.expected)
		})
	}
}

// TestRequestThatCannotBeSent: a request protobuf cannot carry (a string
// that is not UTF-8) is the caller's ContractError, not the child's fault.
func TestRequestThatCannotBeSent(t *testing.T) {
	c, _, _ := serve(t, runnerFunc(func(_ context.Context, r contract.Request, _ func(contract.Event), _ contract.DataHandler) contract.Result {
		return contract.Result{OK: true, Value: json.RawMessage(`1`)}
	}))
	_, err := c.Execute(context.Background(), contract.Request{ID: "x", Code: "return '\xff'", Limits: contract.DefaultLimits}, nil, nil)
	if e := contract.AsError(err); e.Type != contract.ContractError || !strings.Contains(e.Message, "UTF-8") {
		t.Fatalf("got %v, want a ContractError about UTF-8", err)
	}
}

// TestDataAnswersCountAgainstDataBytes: an answer that would take the
// execution's data traffic past DataBytes is not sent, and the execution
// ends there with a ResourceError of kind data_bytes, as it does when
// the child's engine finds the limit crossed.
func TestDataAnswersCountAgainstDataBytes(t *testing.T) {
	var got []string
	c, _, _ := serve(t, runnerFunc(func(ctx context.Context, r contract.Request, _ func(contract.Event), request contract.DataHandler) contract.Result {
		for _, size := range []string{"40", "60", "20"} {
			v, err := request(ctx, "n", json.RawMessage(size))
			if err != nil {
				got = append(got, "error")
				break
			}
			got = append(got, fmt.Sprint(len(v)))
		}
		return contract.Result{OK: true, Value: json.RawMessage(`1`)}
	}))
	handler := func(_ context.Context, _ string, args json.RawMessage) (json.RawMessage, error) {
		var n int
		json.Unmarshal(args, &n)
		return json.RawMessage(`"` + strings.Repeat("x", n-2) + `"`), nil
	}
	// Request bytes: 3 each. 3+40 = 43; 43+3 = 46, +60 would be 106 > 100.
	res, err := c.Execute(context.Background(), contract.Request{ID: "x", Limits: contract.Limits{DataRequests: 3, DataBytes: 100}}, nil, handler)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if res.OK || res.Error.Type != contract.ResourceError || res.Error.Kind != contract.KindDataBytes {
		t.Fatalf("want a ResourceError of kind data_bytes, got %+v", res.Error)
	}
	if len(got) == 0 || got[0] != "40" {
		t.Errorf("the first answer should have arrived: %q", got)
	}
}

// TestServerRejectsBrokenSupervisor drives the child adapter with a raw
// stream that breaks the protocol from the supervisor's side.
func TestServerRejectsBrokenSupervisor(t *testing.T) {
	request := &pb.ToChild{Msg: &pb.ToChild_Request{Request: &pb.Request{Id: "x"}}}
	tests := []struct {
		name     string
		send     []*pb.ToChild
		expected string
	}{
		{"no request first", []*pb.ToChild{{Msg: &pb.ToChild_DataResponse{DataResponse: &pb.DataResponse{Seq: 1}}}}, "must be its request"},
		{"second request", []*pb.ToChild{request, request}, "only data responses"},
		{"answer to nothing", []*pb.ToChild{request, {Msg: &pb.ToChild_DataResponse{DataResponse: &pb.DataResponse{Seq: 5}}}}, "data response 5 answers no request"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			running, stopped := make(chan struct{}), make(chan error, 1)
			_, gc, _ := serve(t, blockingRunner(running, stopped))
			ctx, cancel := context.WithTimeout(context.Background(), prompt)
			defer cancel()
			stream, err := pb.NewChildClient(gc.Conn).Execute(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tc.send {
				if err := stream.Send(m); err != nil {
					t.Fatalf("send: %v", err)
				}
			}
			for {
				_, err = stream.Recv()
				if err != nil {
					break
				}
			}
			if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), tc.expected) {
				t.Errorf("got %v, want InvalidArgument containing %q", err, tc.expected)
			}
		})
	}
}

func TestChildPluginWithoutRunnerServesNothing(t *testing.T) {
	if err := clientPluginMap()[PluginName].(*ChildPlugin).GRPCServer(nil, grpc.NewServer()); !errors.Is(err, errNoRunner) {
		t.Errorf("got %v, want errNoRunner", err)
	}
}

func requireSandboxError(t *testing.T, err error, contains string) {
	t.Helper()
	var ce *contract.Error
	if !errors.As(err, &ce) || ce.Type != contract.SandboxError {
		t.Fatalf("got %v (%T), want a *contract.Error of type SandboxError", err, err)
	}
	if !strings.Contains(ce.Message, contains) {
		t.Errorf("SandboxError %q does not say %q", ce.Message, contains)
	}
}
