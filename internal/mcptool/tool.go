// Package mcptool is Warden's Model Context Protocol tool: run_javascript,
// its input schema, the description a model reads (generated from the
// configuration in force), and the rendering of an envelope as a tool
// result. `warden mcp` serves it over stdio; it runs each call through
// a Runner (a supervisor), so every layer of defence applies as for any
// execution.
package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/strictjson"
)

// ToolName is the tool's name. A model chooses a tool by its name first:
// "run_javascript" says what to write, where "run_code" or "execute"
// leave the language to guess (and TypeScript is an argument of it).
const ToolName = "run_javascript"

// Runner runs one execution: supervisor.Supervisor's Execute.
type Runner interface {
	Execute(ctx context.Context, req contract.Request, handler contract.DataHandler) (contract.Result, error)
}

// Config is what the tool offers and in force for its calls.
type Config struct {
	// Defaults and Caps are the limits: a call's timeout_ms and
	// memory_bytes are clamped to Caps (the envelope's clamped says so).
	Defaults, Caps contract.Limits
	// Modules are the registered modules code may import (their names).
	Modules []string
	// Data answers host.request: static JSON per name. Nil (and no
	// Handler): no data source, and every request rejects saying so.
	Data map[string]json.RawMessage
	// Handler, when set, answers host.request instead of Data (a
	// tenant's webhook); HandlerNote says what it is, for the
	// description.
	Handler     contract.DataHandler
	HandlerNote string
	// MaxTextBytes cuts the text content a model reads (the structured
	// content is whole). Default DefaultMaxTextBytes.
	MaxTextBytes int
	// ProgressEvery is how often a call whose client asked for progress
	// gets a notification. Default 1s.
	ProgressEvery time.Duration
}

// DefaultMaxTextBytes is Config.MaxTextBytes's default.
const DefaultMaxTextBytes = 16 << 10

// Add adds the tool to s.
func Add(s *mcp.Server, r Runner, cfg Config) error {
	defaults, caps, err := contract.ConfigLimits(cfg.Defaults, cfg.Caps)
	if err != nil {
		return fmt.Errorf("mcptool: %w", err)
	}
	cfg.Defaults, cfg.Caps = defaults, caps
	if cfg.MaxTextBytes <= 0 {
		cfg.MaxTextBytes = DefaultMaxTextBytes
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = time.Second
	}
	readOnly, closed := true, false
	s.AddTool(&mcp.Tool{
		Name:        ToolName,
		Title:       "Run JavaScript in a sandbox",
		Description: Description(cfg),
		InputSchema: inputSchema(cfg),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: readOnly, OpenWorldHint: &closed, Title: "Run JavaScript in a sandbox"},
	}, (&tool{run: r, cfg: cfg}).call)
	return nil
}

// tool serves the calls.
type tool struct {
	run Runner
	cfg Config
}

// args are a call's arguments.
type args struct {
	Code        string            `json:"code"`
	Input       json.RawMessage   `json:"input,omitempty"`
	Language    string            `json:"language,omitempty"`
	Modules     map[string]string `json:"modules,omitempty"`
	TimeoutMS   int64             `json:"timeout_ms,omitempty"`
	MemoryBytes int64             `json:"memory_bytes,omitempty"`
	// Deterministic asks for a seeded run on a virtual clock, which a
	// model can repeat exactly (contract.Deterministic).
	Deterministic *contract.Deterministic `json:"deterministic,omitempty"`
}

func (t *tool) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a args
	raw := req.Params.Arguments
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := strictjson.Unmarshal(raw, &a); err != nil {
		return t.result(contract.Fail(contract.Errorf(contract.ContractError, "the arguments: %v", err), contract.Limits{})), nil
	}
	if a.Code == "" {
		return t.result(contract.Fail(contract.Errorf(contract.ContractError, "the arguments: code is required"), contract.Limits{})), nil
	}
	asked := contract.Limits{Timeout: time.Duration(a.TimeoutMS) * time.Millisecond, MemoryBytes: a.MemoryBytes}
	limits, clamped, err := contract.Resolve(asked, t.cfg.Defaults, t.cfg.Caps)
	if err != nil {
		return t.result(contract.Fail(err, limits)), nil
	}
	creq := contract.Request{Code: a.Code, Input: a.Input, Language: a.Language, Modules: a.Modules, Limits: limits, Deterministic: a.Deterministic}
	if string(creq.Input) == "null" {
		creq.Input = nil
	}
	stop := t.progress(ctx, req, limits.Timeout)
	res, _ := t.run.Execute(ctx, creq, t.data)
	stop()
	res.Clamped = append(clamped, res.Clamped...)
	return t.result(res), nil
}

// data answers host.request from the configured sources.
func (t *tool) data(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if t.cfg.Handler != nil {
		return t.cfg.Handler(ctx, name, args)
	}
	if t.cfg.Data == nil {
		return nil, fmt.Errorf("no data source is configured on this server: host.request(%q) has nothing to answer it", name)
	}
	v, ok := t.cfg.Data[name]
	if !ok {
		return nil, fmt.Errorf("no data source named %q (the server answers %s)", name, strings.Join(sortedKeys(t.cfg.Data), ", "))
	}
	return v, nil
}

// progress sends a notification every ProgressEvery while the call runs,
// if the client asked for progress (a progress token); stop ends it.
func (t *tool) progress(ctx context.Context, req *mcp.CallToolRequest, timeout time.Duration) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(t.cfg.ProgressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				elapsed := time.Since(start)
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      elapsed.Seconds(),
					Total:         timeout.Seconds(),
					Message:       fmt.Sprintf("running for %v", elapsed.Round(time.Millisecond)),
				})
			}
		}
	}()
	return func() { close(done); <-finished }
}
