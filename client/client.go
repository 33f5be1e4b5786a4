// Package client speaks the HTTP API of `warden serve` for Go programs
// that run their scripts on a remote Warden daemon instead of embedding
// the supervisor.
//
// Its calls mirror the supervisor's: Execute(ctx, req, handler) returns
// the envelope and, when it is not ok, an error that errors.Is the
// contract's sentinels (contract.ErrTimeout, ...); Stream also delivers
// the execution's events as they happen. A data handler answers the
// script's host.request calls over the API's answer endpoint, so a
// remote execution asks the caller for data as a local one does.
//
// What the client holds on to is bounded: each response or event it reads
// is capped (Options.MaxResponseBytes) and nothing else accumulates, so a
// broken or hostile server cannot make it allocate without limit.
// Cancelling ctx aborts the execution on the server (DELETE) and returns
// the AbortError envelope the server sends, or one made here when the
// server does not answer within Options.AbortGrace.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/wardenhq/warden/contract"
)

// IDHeader carries the execution id, both ways: the client chooses it
// (so that an abort or a data answer can name the execution before the
// response starts, and so a load balancer can route on it) and the server
// echoes it.
const IDHeader = "Warden-Execution-Id"

// DefaultMaxResponseBytes caps one response body or one streamed event:
// room for the largest the contract's caps allow, an envelope whose
// value and logs are each at the output cap or a data_request event
// whose arguments are at the data_bytes cap (one host.request may carry
// all of them), with 1 MiB for what surrounds them.
var DefaultMaxResponseBytes = max(2*contract.DefaultCaps.OutputBytes, contract.DefaultCaps.DataBytes) + 1<<20

// DefaultAbortGrace is how long, after ctx ends, the client waits for the
// server's AbortError envelope before it gives up on the connection.
const DefaultAbortGrace = 5 * time.Second

// Options configure a Client. The zero value is valid.
type Options struct {
	// Token is the bearer token sent with every request; empty sends none
	// (for a daemon that allows anonymous access on loopback).
	Token string
	// HTTPClient makes the requests. Nil means a client with no overall
	// timeout (an execution's own deadline bounds it) that does not
	// follow redirects.
	HTTPClient *http.Client
	// MaxResponseBytes caps each response body and each streamed event.
	// Zero means DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// AbortGrace is how long to wait for the envelope after an abort.
	// Zero means DefaultAbortGrace.
	AbortGrace time.Duration
}

// Client calls one Warden daemon. It is safe for concurrent use.
type Client struct {
	base *url.URL
	opts Options
}

// New returns a client of the daemon at baseURL (http or https, e.g.
// "http://127.0.0.1:8080"); opts is copied.
func New(baseURL string, opts Options) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("client: server URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: server URL %q: want http://HOST[:PORT] or https://...", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.AbortGrace <= 0 {
		opts.AbortGrace = DefaultAbortGrace
	}
	return &Client{base: u, opts: opts}, nil
}

// requestBody is what POST /v1/executions takes: contract.Request
// without its id, which travels in IDHeader.
type requestBody struct {
	Code     string            `json:"code"`
	Input    json.RawMessage   `json:"input,omitempty"`
	Limits   contract.Limits   `json:"limits"`
	Modules  map[string]string `json:"modules,omitempty"`
	Language string            `json:"language,omitempty"`
	Format   string            `json:"format,omitempty"`

	Deterministic *contract.Deterministic `json:"deterministic,omitempty"`
	Park          bool                    `json:"park,omitempty"`
}

// validID reports whether id is 1-64 of [A-Za-z0-9_-], the ids the
// daemon takes. (Not a regexp: compiling one at package init would cost
// every child process, which runs this binary's package inits.)
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// executionID is req.ID when set (it must be 1-64 of [A-Za-z0-9_-]),
// else an unguessable one.
func executionID(req contract.Request) (string, error) {
	if req.ID != "" {
		if !validID(req.ID) {
			return "", contract.Errorf(contract.ContractError, "execution id %q: want 1-64 of [A-Za-z0-9_-]", req.ID)
		}
		return req.ID, nil
	}
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b), nil
}

// Execute runs req on the server and returns its envelope. The error is
// nil when the envelope is ok; otherwise it is the envelope's
// *contract.Error, or an *APIError when the server refused the request
// (its envelope, if the refusal carried one, is still returned), or a
// transport error. With a nil handler it is one JSON request; with a
// handler it is Stream without an event callback, so the handler can
// answer the script's data requests.
func (c *Client) Execute(ctx context.Context, req contract.Request, handler contract.DataHandler) (contract.Result, error) {
	if handler != nil {
		return c.Stream(ctx, req, handler, nil)
	}
	return c.do(ctx, req, "application/json", func(ex *execution, resp *http.Response) (contract.Result, error) {
		var res contract.Result
		body, err := readCapped(resp.Body, c.opts.MaxResponseBytes)
		if err == nil {
			err = json.Unmarshal(body, &res)
		}
		if err != nil {
			return contract.Result{}, fmt.Errorf("client: read the envelope of %s: %w", ex.id, err)
		}
		return res, nil
	})
}

// execution is one call in flight.
type execution struct {
	c  *Client
	id string
}

// do posts req with the given Accept and hands a 200 response to read.
// The HTTP request does not end with ctx: when ctx ends, do asks the
// server to abort (DELETE) and gives read AbortGrace more to receive the
// server's AbortError envelope.
func (c *Client) do(ctx context.Context, req contract.Request, accept string, read func(*execution, *http.Response) (contract.Result, error)) (contract.Result, error) {
	id, err := executionID(req)
	if err != nil {
		return contract.Fail(err, req.Limits), err
	}
	ex := &execution{c: c, id: id}
	body, err := json.Marshal(requestBody{Code: req.Code, Input: req.Input, Limits: req.Limits, Modules: req.Modules,
		Language: req.Language, Format: req.Format, Deterministic: req.Deterministic, Park: req.Park})
	if err != nil {
		err = contract.Errorf(contract.ContractError, "encode the request: %v", err)
		return contract.Fail(err, req.Limits), err
	}
	return c.post(ctx, ex, "/v1/executions", body, req.Limits, accept, read)
}

// post is do's: it posts body to path for execution ex.
func (c *Client) post(ctx context.Context, ex *execution, path string, body []byte, limits contract.Limits, accept string,
	read func(*execution, *http.Response) (contract.Result, error)) (contract.Result, error) {
	// The request lives until the envelope is read, or until the grace
	// after an abort runs out.
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	hreq, err := c.newRequest(hctx, http.MethodPost, path, bytes.NewReader(body))
	if err != nil {
		return contract.Result{}, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", accept)
	hreq.Header.Set(IDHeader, ex.id)

	done := make(chan struct{})
	aborted := make(chan struct{})
	watcher := make(chan struct{})
	go func() {
		defer close(watcher)
		select {
		case <-done:
		case <-ctx.Done():
			close(aborted)
			ex.abort(hctx)
			select {
			case <-done:
			case <-time.After(c.opts.AbortGrace):
				hcancel()
			}
		}
	}()
	res, err := func() (contract.Result, error) {
		resp, err := c.opts.HTTPClient.Do(hreq)
		if err != nil {
			return contract.Result{}, fmt.Errorf("client: POST %s: %w", path, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return refused(resp, c.opts.MaxResponseBytes)
		}
		return read(ex, resp)
	}()
	close(done)
	hcancel() // ends an abort still in flight
	<-watcher
	select {
	case <-aborted:
		if err == nil {
			// The server's envelope (AbortError, or the outcome the
			// execution reached before the abort).
			return res, res.Err()
		}
		var api *APIError
		if !errors.As(err, &api) {
			res = contract.Fail(contract.Errorf(contract.AbortError, "aborted (%v); the server sent no envelope: %v", context.Cause(ctx), err), limits)
			return res, errors.Join(res.Err(), ctx.Err())
		}
	default:
	}
	if err != nil {
		return res, err
	}
	return res, res.Err()
}

// abort asks the server to end the execution (DELETE). Its answer does
// not matter: the execution may already have ended.
func (ex *execution) abort(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, ex.c.opts.AbortGrace)
	defer cancel()
	req, err := ex.c.newRequest(ctx, http.MethodDelete, "/v1/executions/"+ex.id, nil)
	if err != nil {
		return
	}
	if resp, err := ex.c.opts.HTTPClient.Do(req); err == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
	}
}

// newRequest makes a request to path below the base URL, with the token.
func (c *Client) newRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	u := *c.base
	u.Path += path
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	if c.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.Token)
	}
	return req, nil
}

// readCapped reads r whole, failing when it holds more than limit bytes.
func readCapped(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("the response is larger than the cap of %d bytes", limit)
	}
	return b, nil
}

// CheckToken asks the server whether it takes the client's token,
// without running anything: it aborts an execution id no one uses
// (DELETE), which the server answers 404 for a known token and 401 for
// an unknown one. The error is nil for 404, an *APIError (matching
// ErrUnauthenticated) for a refused token, or a transport error.
func (c *Client) CheckToken(ctx context.Context) error {
	id, _ := executionID(contract.Request{})
	req, err := c.newRequest(ctx, http.MethodDelete, "/v1/executions/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("client: check the token: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return nil
	}
	_, err = refused(resp, c.opts.MaxResponseBytes)
	return fmt.Errorf("client: check the token: %w", err)
}

// CloseIdleConnections closes the kept-alive connections to the server
// (their sockets and the goroutines that read them).
func (c *Client) CloseIdleConnections() { c.opts.HTTPClient.CloseIdleConnections() }
