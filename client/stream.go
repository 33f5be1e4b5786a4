package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/wardenhq/warden/contract"
)

// Stream runs req on the server over server-sent events: it calls onEvent
// (when not nil), on the calling goroutine, for every event as it
// arrives (started, log, data_request, result), and answers each
// data_request with handler over POST /v1/executions/{id}/data/{seq}. A
// nil handler answers every data request with contract.ErrNoDataHandler,
// as a local execution without one does. The handler is called on a
// goroutine of its own, one request at a time, with a ctx that ends when
// the execution does. It returns as Execute does.
func (c *Client) Stream(ctx context.Context, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event)) (contract.Result, error) {
	return c.do(ctx, req, "text/event-stream", func(ex *execution, resp *http.Response) (contract.Result, error) {
		return ex.follow(ctx, resp.Body, handler, onEvent)
	})
}

// follow reads the event stream up to its result event.
func (ex *execution) follow(ctx context.Context, body io.Reader, handler contract.DataHandler, onEvent func(contract.Event)) (contract.Result, error) {
	hctx, hcancel := context.WithCancel(ctx)
	ans := &answerer{ex: ex, handler: handler, reqs: make(chan contract.DataRequest, 16)}
	go ans.run(hctx)
	// stop ends the handler's ctx and the answerer. It does not wait for
	// a handler that is still working: one that ignores its ctx would
	// hold the envelope back long past the execution's deadline (a local
	// execution does not wait for it either); once ctx has ended, what
	// it returns is dropped.
	stop := sync.OnceFunc(func() {
		hcancel()
		close(ans.reqs)
	})
	defer stop()

	r := bufio.NewReaderSize(body, 64<<10)
	for {
		ev, err := readEvent(r, ex.c.opts.MaxResponseBytes)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return contract.Result{}, fmt.Errorf("client: the event stream of %s ended without a result: %w", ex.id, err)
		}
		if onEvent != nil {
			onEvent(ev)
		}
		switch ev.Type {
		case contract.EventDataRequest:
			if ev.DataRequest != nil {
				select {
				case ans.reqs <- *ev.DataRequest:
				case <-ctx.Done():
					// Aborted: the server's result event is on its way.
				}
			}
		case contract.EventResult:
			if ev.Result == nil {
				return contract.Result{}, fmt.Errorf("client: the result event of %s holds no envelope", ex.id)
			}
			stop()
			if failed := ans.firstFailure(); failed != nil {
				return *ev.Result, errors.Join(ev.Result.Err(), failed)
			}
			return *ev.Result, nil
		}
	}
}

// readEvent reads one server-sent event ("event:", "data:" and "id:"
// lines up to a blank line; comments and other fields are skipped) and
// decodes its data, a contract.Event. Every line and the event's data
// together are capped at limit bytes.
func readEvent(r *bufio.Reader, limit int64) (contract.Event, error) {
	var name string
	var data []byte
	var seen int64
	for {
		line, err := readLine(r, limit-seen)
		if errors.Is(err, errTooLarge) {
			return contract.Event{}, fmt.Errorf("an event is larger than the cap of %d bytes", limit)
		}
		if err != nil {
			return contract.Event{}, err
		}
		seen += int64(len(line)) + 1
		if len(line) == 0 {
			if data == nil {
				continue // blank lines before an event
			}
			var ev contract.Event
			if err := json.Unmarshal(data, &ev); err != nil {
				return contract.Event{}, fmt.Errorf("event %q: %w", name, err)
			}
			if ev.Type == "" {
				ev.Type = contract.EventType(name)
			}
			if name != "" && string(ev.Type) != name {
				return contract.Event{}, fmt.Errorf("event %q carries data of type %q", name, ev.Type)
			}
			return ev, nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			name = string(value)
		case "data":
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, value...)
		}
	}
}

var errTooLarge = errors.New("line over the cap")

// readLine reads a line without its end (\n or \r\n), refusing one of
// more than limit bytes with errTooLarge.
func readLine(r *bufio.Reader, limit int64) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if int64(len(line)+len(frag)) > limit+1 {
			return nil, errTooLarge
		}
		line = append(line, frag...)
		switch {
		case err == nil:
			line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, err
		}
	}
}

// answerer answers an execution's data requests, in order, on its own
// goroutine, so the stream keeps being read (and an abort or the result
// is seen) while a handler works.
type answerer struct {
	ex      *execution
	handler contract.DataHandler
	reqs    chan contract.DataRequest
	mu      sync.Mutex
	// failed is the first answer the server did not take, set before
	// the answerer aborts the execution, so before its result arrives.
	failed error
}

func (a *answerer) firstFailure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failed
}

func (a *answerer) run(ctx context.Context) {
	for dr := range a.reqs {
		if ctx.Err() != nil || a.firstFailure() != nil {
			continue
		}
		hctx := contract.WithRequestSeq(ctx, dr.Seq)
		if dr.ParkRefused != "" {
			hctx = contract.WithParkRefused(hctx, errors.New(dr.ParkRefused))
		}
		value, err := contract.CallDataHandler(hctx, a.handler, dr.Name, dr.Args)
		if ctx.Err() != nil {
			continue // the execution ended while the handler worked
		}
		// An answer cut short because the execution ended (its result
		// can overtake the answer's response) is no failure.
		if err := a.ex.answer(ctx, dr.Seq, value, err); err != nil && ctx.Err() == nil {
			// The script would wait for this answer until its
			// deadline: end it now, and say why with its envelope.
			a.mu.Lock()
			a.failed = err
			a.mu.Unlock()
			a.ex.abort(context.WithoutCancel(ctx))
		}
	}
}

// answerBody is what POST /v1/executions/{id}/data/{seq} takes.
type answerBody struct {
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
	Park  bool            `json:"park,omitempty"`
}

// answer sends the answer to data request seq. A 404 or 409 is no
// failure: the execution ended, or the request was already answered.
func (ex *execution) answer(ctx context.Context, seq int64, value json.RawMessage, herr error) error {
	b := answerBody{Value: value}
	switch {
	case errors.Is(herr, contract.ErrPark):
		b = answerBody{Park: true}
	case herr != nil:
		b = answerBody{Error: herr.Error()}
	}
	body, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("client: encode the answer to data request %d: %w", seq, err)
	}
	req, err := ex.c.newRequest(ctx, http.MethodPost, "/v1/executions/"+ex.id+"/data/"+strconv.FormatInt(seq, 10), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := ex.c.opts.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("client: answer data request %d: %w", seq, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNoContent, http.StatusOK, http.StatusNotFound, http.StatusConflict:
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return nil
	}
	_, err = refused(resp, ex.c.opts.MaxResponseBytes)
	return fmt.Errorf("client: answer data request %d: %w", seq, err)
}

// resumeBody is what POST /v1/executions/{id}/resume takes.
type resumeBody struct {
	Answers map[string]contract.Answer `json:"answers,omitempty"`
	Fork    bool                       `json:"fork,omitempty"`
}

// Resume continues the parked execution id (its envelope said parked)
// on the daemon, streaming, as Stream runs one: answers settle its
// pending requests by seq, handler answers the ones it asks next, and
// fork resumes a copy, keeping the state. A state the daemon does not
// hold (taken, expired, another tenant's) is an *APIError with status
// 404.
func (c *Client) Resume(ctx context.Context, id string, answers map[int64]contract.Answer, fork bool, handler contract.DataHandler, onEvent func(contract.Event)) (contract.Result, error) {
	if !validID(id) {
		err := contract.Errorf(contract.ContractError, "execution id %q: want 1-64 of [A-Za-z0-9_-]", id)
		return contract.Fail(err, contract.Limits{}), err
	}
	b := resumeBody{Answers: map[string]contract.Answer{}, Fork: fork}
	for seq, a := range answers {
		b.Answers[strconv.FormatInt(seq, 10)] = a
	}
	body, err := json.Marshal(b)
	if err != nil {
		err = contract.Errorf(contract.ContractError, "encode the answers: %v", err)
		return contract.Fail(err, contract.Limits{}), err
	}
	ex := &execution{c: c, id: id}
	return c.post(ctx, ex, "/v1/executions/"+id+"/resume", body, contract.Limits{}, "text/event-stream", func(ex *execution, resp *http.Response) (contract.Result, error) {
		return ex.follow(ctx, resp.Body, handler, onEvent)
	})
}
