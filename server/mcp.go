package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/mcptool"
)

// The MCP tool over Streamable HTTP at /mcp: the same tenants, tokens,
// quotas, caps, module allow-lists and metrics as /v1/executions. Every
// HTTP request is authenticated; a session is served by a server bound
// to the tenant that opened it, and is the opener's alone: a request
// with another tenant's token is told there is no such session.
// Sessions carry the protocol's cancellation (a client's cancellation
// aborts the execution) and end after mcpSessionTimeout idle.

// MCPPath is where the daemon serves MCP.
const MCPPath = "/mcp"

// mcpSessionHeader is the protocol's session header.
const mcpSessionHeader = "Mcp-Session-Id"

// mcpSessionTimeout ends a session idle that long.
const mcpSessionTimeout = 10 * time.Minute

type mcpTenantKey struct{}

// mcpSessions records which tenant opened each session.
type mcpSessions struct{ m sync.Map }

// sessionWriter records the session a response opens for its tenant,
// and forgets one the SDK no longer knows (it timed out).
type sessionWriter struct {
	http.ResponseWriter
	sessions *mcpSessions
	tenant   string
	asked    string // the request's session, if any
}

func (w *sessionWriter) WriteHeader(code int) {
	if id := w.Header().Get(mcpSessionHeader); id != "" && code < 300 {
		w.sessions.m.Store(id, w.tenant)
	}
	if code == http.StatusNotFound && w.asked != "" {
		w.sessions.m.Delete(w.asked)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *sessionWriter) Write(b []byte) (int, error) {
	if id := w.Header().Get(mcpSessionHeader); id != "" {
		w.sessions.m.LoadOrStore(id, w.tenant)
	}
	return w.ResponseWriter.Write(b)
}

func (w *sessionWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *sessionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// mcpHandler authenticates each request, bounds its body, and hands it
// to the SDK's Streamable HTTP handler with its tenant.
func (s *Server) mcpHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		t, _ := r.Context().Value(mcpTenantKey{}).(*tenant)
		return s.mcpServer(t)
	}, &mcp.StreamableHTTPOptions{SessionTimeout: mcpSessionTimeout})
	sessions := &mcpSessions{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.draining.Load() {
			s.failDraining(w)
			return
		}
		t := s.authenticate(w, r)
		if t == nil {
			return
		}
		if id := r.Header.Get(mcpSessionHeader); id != "" {
			if owner, ok := sessions.m.Load(id); ok && owner != t.name {
				s.fail(w, http.StatusNotFound, &contract.Error{Type: NotFound, Message: "no such MCP session"})
				return
			}
			if r.Method == http.MethodDelete {
				defer sessions.m.Delete(id)
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.maxExecuteBody())
		h.ServeHTTP(&sessionWriter{ResponseWriter: w, sessions: sessions, tenant: t.name, asked: r.Header.Get(mcpSessionHeader)},
			r.WithContext(context.WithValue(r.Context(), mcpTenantKey{}, t)))
	})
}

// mcpServer is the MCP server of one request, for tenant t: the tool's
// limits are t's, its modules those t may import, its data source t's
// webhook.
func (s *Server) mcpServer(t *tenant) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "warden", Title: "Warden"}, nil)
	cfg := mcptool.Config{Defaults: t.defaults, Caps: t.caps, Modules: s.mcpModules(t)}
	if t.webhook != nil {
		// The runner answers with the webhook of each call's own
		// execution (its id, sequence and data limit); this one only
		// tells the tool that a data source exists.
		cfg.Handler = func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("the data webhook answers through the call's execution")
		}
		cfg.HandlerNote = "this tenant's data webhook"
	}
	if err := mcptool.Add(server, &mcpRunner{s: s, t: t}, cfg); err != nil {
		s.log.Error("mcp: the tool", "tenant", t.name, "error", err)
	}
	return server
}

// mcpModules are the registered modules t may import.
func (s *Server) mcpModules(t *tenant) []string {
	var names []string
	allowed := t.imports()
	for _, m := range s.sup.Modules() {
		if allowed == nil || slices.Contains(allowed, m.Name) {
			names = append(names, m.Name)
		}
	}
	return names
}

// mcpRunner runs a call as an execution of t: its quotas, its
// allow-lists, the daemon's metrics, and drain waits for it.
type mcpRunner struct {
	s *Server
	t *tenant
}

func (m *mcpRunner) Execute(ctx context.Context, req contract.Request, handler contract.DataHandler) (contract.Result, error) {
	s, t := m.s, m.t
	if name, bad := t.forbiddenModule(req.Modules); bad {
		return contract.Fail(contract.Errorf(contract.ContractError, "module %q is not in tenant %s's modules allow-list", name, t.name), req.Limits), nil
	}
	release, quota, _ := t.acquire(time.Now())
	if release == nil {
		s.metrics.rejections.WithLabelValues(t.name, quota).Inc()
		return contract.Fail(&contract.Error{Type: contract.CapacityError, Kind: quota,
			Message: fmt.Sprintf("tenant %s is over its %s quota", t.name, quota)}, req.Limits), nil
	}
	defer release()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e := &execution{key: execKey{t.name, newExecutionID()}, cancel: cancel,
		pending: map[int64]chan dataAnswer{}, answered: map[int64]bool{}, claimed: map[int64]bool{}}
	if err := s.execs.add(e); err != nil {
		return contract.Fail(&contract.Error{Type: contract.CapacityError, Kind: KindDraining, Message: "the daemon is draining"}, req.Limits), nil
	}
	defer s.execs.remove(e)
	req.ID, req.Imports = e.key.id, t.imports()
	e.setDataBytes(req.Limits.DataBytes)
	if t.webhook != nil {
		handler = s.webhookHandler(t, e)
	}
	start := time.Now()
	res, err := s.sup.Execute(ctx, req, handler)
	s.metrics.observe(&res, time.Since(start))
	return res, err
}
