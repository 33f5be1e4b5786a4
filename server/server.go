// Package server is Warden's HTTP daemon: the handlers of `warden serve`
// (executions as JSON or server-sent events, interactive data requests
// answered over an endpoint or by a tenant's webhook, abort), tenants with
// bearer tokens, caps and quotas, Prometheus metrics, health, readiness,
// drain, and the daemon's life under systemd (sd_notify, socket
// activation).
//
// The supervisor stays the only way in to executions: every execution is
// one supervisor.Stream call, and the server adds only what a network
// caller needs around it. Status codes say whether a request was
// accepted; the outcome of an execution is always its envelope
// (docs/daemon.md has the one table).
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// Error types the daemon adds to the contract's, for refusals that are
// about the caller rather than an execution.
const (
	AuthError contract.ErrorType = "AuthError"
	NotFound  contract.ErrorType = "NotFound"
)

// Kinds of the daemon's refusals (error.kind).
const (
	KindUnauthenticated = "unauthenticated"
	KindForbidden       = "forbidden"
	KindMalformed       = "malformed"
	KindBodyTooLarge    = "body_too_large"
	KindBodyTimeout     = "body_timeout"
	KindConflict        = "conflict"
	KindRate            = "rate"
	KindConcurrency     = "concurrency"
	KindCapacity        = "capacity"
	KindDraining        = "draining"
	KindMethod          = "method_not_allowed"
)

// ExecutionIDHeader carries an execution's id, both ways.
const ExecutionIDHeader = "Warden-Execution-Id"

// Options configure a Server. Supervisor is required; the zero value of
// every other field takes the documented default.
type Options struct {
	Supervisor *supervisor.Supervisor
	// Defaults and Caps are the supervisor's resolved limits (what its
	// Config had after New); zero: contract.ConfigLimits of nothing.
	Defaults, Caps contract.Limits
	// MaxInputBytes is the supervisor's input cap. Default
	// supervisor.DefaultMaxInputBytes.
	MaxInputBytes int64
	// BodyTimeout bounds reading one request body. Default 10s.
	BodyTimeout time.Duration
	// WriteTimeout bounds each write to a client, so that one that stops
	// reading cannot hold an execution's handler. Default 10s.
	WriteTimeout time.Duration
	// PoolSize is the idle children per profile the pool must reach
	// before the server is ready. Default 2.
	PoolSize int
	// States keeps parked executions' states. Default: in memory, at
	// most 1000 states and 1 GiB per tenant, for a day.
	States StateStore
	Logger *slog.Logger
}

// Server is the HTTP API of one daemon. It is safe for concurrent use.
type Server struct {
	opt      Options
	log      *slog.Logger
	sup      *supervisor.Supervisor
	metrics  *metrics
	cfg      atomic.Pointer[Config] // the tenants' config, swapped by Reload
	tenants  atomic.Pointer[tenantSet]
	execs    registry
	warm     atomic.Bool
	draining atomic.Bool
	mux      *http.ServeMux
	// bodies counts the bytes of request bodies being read (admission.go).
	bodies  byteBudget
	reclaim reclaimer
	states  StateStore
}

// bodyBudget is the daemon's budget of body bytes read at once.
func (s *Server) bodyBudget() int64 { return s.cfg.Load().bodyBudget() }

// New makes a server over opt.Supervisor with the tenants of cfg.
func New(cfg *Config, opt Options) (*Server, error) {
	if opt.Defaults == (contract.Limits{}) || opt.Caps == (contract.Limits{}) {
		d, c, err := contract.ConfigLimits(opt.Defaults, opt.Caps)
		if err != nil {
			return nil, err
		}
		opt.Defaults, opt.Caps = d, c
	}
	if opt.MaxInputBytes == 0 {
		opt.MaxInputBytes = supervisor.DefaultMaxInputBytes
	}
	if opt.BodyTimeout == 0 {
		opt.BodyTimeout = 10 * time.Second
	}
	if opt.WriteTimeout == 0 {
		opt.WriteTimeout = 10 * time.Second
	}
	if opt.PoolSize == 0 {
		opt.PoolSize = 2
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.States == nil {
		opt.States = NewMemStore(DefaultStoreLimits)
	}
	s := &Server{opt: opt, log: opt.Logger, sup: opt.Supervisor, metrics: newMetrics(opt.Supervisor), states: opt.States}
	s.metrics.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "warden_parked_states",
		Help: "Parked executions' states kept, all tenants."}, func() float64 { n, _ := s.states.Stats(); return float64(n) }))
	s.metrics.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "warden_parked_state_bytes",
		Help: "Bytes of parked executions' states kept, all tenants."}, func() float64 { _, b := s.states.Stats(); return float64(b) }))
	s.metrics.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "warden_request_body_bytes_reading",
		Help: "Bytes of request bodies admitted and being read or decoded now (the daemon's body budget in use)."},
		func() float64 { return float64(s.bodies.inUse()) }))
	s.execs.m = map[execKey]*execution{}
	if err := s.Reload(cfg); err != nil {
		return nil, err
	}
	s.mux = http.NewServeMux()
	for _, r := range Routes {
		s.mux.HandleFunc(r.Pattern, s.route(r))
	}
	s.mux.Handle(MCPPath, s.mcpHandler())
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, http.StatusNotFound, &contract.Error{Type: NotFound, Message: "no such route: " + r.URL.Path})
	})
	return s, nil
}

// Reload replaces the tenants, their caps and quotas with cfg's (and its
// tokens file's). On error the old ones stay. Executions in flight keep
// running under what they were admitted with; quota state carries over.
func (s *Server) Reload(cfg *Config) error {
	ts, err := buildTenants(cfg, s.opt.Defaults, s.opt.Caps, s.tenants.Load())
	if err != nil {
		return err
	}
	c := *cfg
	s.cfg.Store(&c)
	s.tenants.Store(ts)
	return nil
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// Route is one route the server registers, with the statuses each method
// can answer (besides 405, which any other method on the path gets);
// api/openapi.yaml and docs/daemon.md are checked against this table.
type Route struct {
	Pattern  string
	Methods  map[string][]int
	handlers map[string]func(*Server, http.ResponseWriter, *http.Request)
}

// NetHTTPRefusals are the statuses net/http answers by itself, before
// any handler of the daemon runs, as plain text without an envelope: a
// request line it cannot parse (400), headers over the daemon's 64 KiB
// (431), a transfer coding other than chunked (501), an HTTP version
// it does not speak (505). docs/daemon.md lists them apart.
var NetHTTPRefusals = []int{400, 431, 501, 505}

// Routes are the server's routes.
var Routes = []Route{
	{Pattern: "/v1/executions", Methods: map[string][]int{
		"POST": {200, 400, 401, 403, 408, 409, 413, 429, 503},
	}, handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"POST": (*Server).handleExecute}},
	{Pattern: "/v1/executions/{id}", Methods: map[string][]int{
		"DELETE": {204, 401, 404},
	}, handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"DELETE": (*Server).handleDelete}},
	{Pattern: "/v1/executions/{id}/data/{seq}", Methods: map[string][]int{
		"POST": {204, 400, 401, 404, 408, 409, 413, 429, 503},
	}, handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"POST": (*Server).handleData}},
	{Pattern: "/v1/executions/{id}/resume", Methods: map[string][]int{
		"POST": {200, 400, 401, 404, 408, 409, 413, 429, 503},
	}, handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"POST": (*Server).handleResume}},
	{Pattern: "/v1/executions/{id}/state", Methods: map[string][]int{
		"GET": {200, 401, 404},
	}, handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"GET": (*Server).handleState}},
	{Pattern: "/v1/resume", Methods: map[string][]int{
		"POST": {200, 400, 401, 403, 408, 409, 413, 429, 503},
	}, handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"POST": (*Server).handleResumeState}},
	{Pattern: "/healthz", Methods: map[string][]int{"GET": {200}},
		handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"GET": (*Server).handleHealth}},
	{Pattern: "/readyz", Methods: map[string][]int{"GET": {200, 503}},
		handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"GET": (*Server).handleReady}},
	{Pattern: "/metrics", Methods: map[string][]int{"GET": {200}},
		handlers: map[string]func(*Server, http.ResponseWriter, *http.Request){"GET": (*Server).handleMetrics}},
}

// route dispatches on the method, answering 405 with Allow for others
// (the mux's own 405 is plain text; every error here is JSON).
func (s *Server) route(rt Route) http.HandlerFunc {
	allow := ""
	for m := range rt.handlers {
		if allow != "" {
			allow += ", "
		}
		allow += m
	}
	return func(w http.ResponseWriter, r *http.Request) {
		h, ok := rt.handlers[r.Method]
		if !ok && r.Method == http.MethodHead {
			h, ok = rt.handlers[http.MethodGet]
		}
		if !ok {
			w.Header().Set("Allow", allow)
			s.fail(w, http.StatusMethodNotAllowed, &contract.Error{Type: NotFound, Kind: KindMethod,
				Message: r.Method + " is not allowed on " + rt.Pattern + " (allowed: " + allow + ")"})
			return
		}
		h(s, w, r)
	}
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}

func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	switch {
	case s.draining.Load():
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("draining\n"))
	case !s.Warm():
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("warming\n"))
	default:
		w.Write([]byte("ready\n"))
	}
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	s.metrics.handler().ServeHTTP(w, r)
}

// Warm reports whether the pool has reached its idle target once since
// start (later, busy children lowering the idle count do not make the
// daemon unready).
func (s *Server) Warm() bool {
	if s.warm.Load() {
		return true
	}
	if s.sup.Stats().Pool.Idle >= s.opt.PoolSize {
		s.warm.Store(true)
		return true
	}
	return false
}

// WaitWarm polls until the pool is warm or ctx ends.
func (s *Server) WaitWarm(ctx context.Context) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for !s.Warm() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// Ready reports whether /readyz says 200.
func (s *Server) Ready() bool { return !s.draining.Load() && s.Warm() }

// StartDrain makes the server refuse new executions (503) and /readyz
// fail; data answers and aborts of executions in flight still work.
func (s *Server) StartDrain() {
	s.draining.Store(true)
	s.execs.startDrain()
}

// Drain calls StartDrain, waits for executions in flight until ctx
// ends, then aborts the rest (AbortError; each envelope still goes to
// its client) and waits for their handlers to finish writing it.
func (s *Server) Drain(ctx context.Context) {
	s.draining.Store(true)
	done := s.execs.startDrain()
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	n := s.execs.abortAll("the daemon is shutting down: drain timeout passed")
	s.log.Warn("drain timeout passed; aborted the executions still running", "aborted", n)
	<-done
}

// fail writes a refusal: a failed envelope with e, and Retry-After for
// 429 and 503.
func (s *Server) fail(w http.ResponseWriter, status int, e *contract.Error) {
	res := contract.Fail(e, contract.Limits{})
	s.writeJSON(w, status, &res)
}

func (s *Server) failRetry(w http.ResponseWriter, status int, e *contract.Error, retry time.Duration) {
	secs := int64((retry + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.FormatInt(max(1, secs), 10))
	s.fail(w, status, e)
}

// writeJSON writes v as one JSON document.
func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"ok":false,"error":{"type":"SandboxError","message":"could not encode the response"}}`)
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	n, _ := w.Write(b)
	s.metrics.bytesOut.Add(float64(n))
}

// authenticate returns the request's tenant, or writes 401 and returns
// nil. The token never reaches a log or a metric.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) *tenant {
	ts := s.tenants.Load()
	h := r.Header.Get("Authorization")
	if h == "" {
		if ts.anonymous != nil && s.anonymousAllowed(r) {
			return ts.anonymous
		}
		s.fail(w, http.StatusUnauthorized, &contract.Error{Type: AuthError, Kind: KindUnauthenticated,
			Message: "missing Authorization: Bearer token"})
		return nil
	}
	const prefix = "Bearer "
	if len(h) <= len(prefix) || !equalFoldASCII(h[:len(prefix)], prefix) {
		s.fail(w, http.StatusUnauthorized, &contract.Error{Type: AuthError, Kind: KindUnauthenticated,
			Message: "Authorization must be a Bearer token"})
		return nil
	}
	t := ts.authenticate(h[len(prefix):])
	if t == nil {
		s.fail(w, http.StatusUnauthorized, &contract.Error{Type: AuthError, Kind: KindUnauthenticated,
			Message: "unknown token"})
		return nil
	}
	return t
}

// anonymousAllowed reports whether the request may act as the anonymous
// tenant: it came over loopback, unless the config allows any address.
func (s *Server) anonymousAllowed(r *http.Request) bool {
	if s.cfg.Load().AnonymousNonLoopback {
		return true
	}
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y {
			return false
		}
	}
	return true
}
