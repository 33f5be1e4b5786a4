package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/contract"
)

// mcpClient connects the Go SDK's client to the daemon's /mcp with
// token.
func mcpClient(t *testing.T, d *testDaemon, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "warden-test", Version: "v0"}, nil)
	s, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: d.url + MCPPath,
		HTTPClient: &http.Client{Transport: bearerTransport{token, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mcpCall(t *testing.T, ctx context.Context, s *mcp.ClientSession, args map[string]any) (*mcp.CallToolResult, contract.Result, error) {
	t.Helper()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "run_javascript", Arguments: args})
	if err != nil {
		return nil, contract.Result{}, err
	}
	var env contract.Result
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &env)
	return res, env, nil
}

// TestMCPOverHTTP: /mcp takes the daemon's tokens (none, or a wrong one,
// is a 401), runs scripts as the token's tenant, under its caps (a
// timeout over them is clamped) and its quotas, counts in the metrics,
// and a client's cancellation aborts the execution.
func TestMCPOverHTTP(t *testing.T) {
	d := startDaemon(t, func(c *Config) {
		c.Tenants[1].Caps = LimitsConfig{TimeoutMS: 2000}
		c.Tenants[1].Modules = nil
	})
	for _, tok := range []string{"", "wrong"} {
		req, _ := http.NewRequest("POST", d.url+MCPPath, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("token %q: %d, want 401", tok, resp.StatusCode)
		}
	}
	ctx := context.Background()
	acme := mcpClient(t, d, acmeToken)
	tools, err := acme.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "run_javascript" {
		t.Fatalf("tools: %+v %v", tools, err)
	}
	res, env, err := mcpCall(t, ctx, acme, map[string]any{"code": "return input.n * 2", "input": map[string]any{"n": 21}})
	if err != nil || res.IsError || string(env.Value) != "42" {
		t.Fatalf("run: %v %+v", err, env)
	}
	res, env, _ = mcpCall(t, ctx, acme, map[string]any{"code": "null.x"})
	if !res.IsError || env.Error == nil || env.Error.Type != contract.UserCodeError {
		t.Fatalf("typed error: %+v", env.Error)
	}
	// A session is its opener's: another tenant's token cannot use it.
	req, _ := http.NewRequest("POST", d.url+MCPPath, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+umbrellaToken)
	req.Header.Set(mcpSessionHeader, acme.ID())
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("another tenant's session: %v %v", resp.StatusCode, err)
	} else {
		resp.Body.Close()
	}
	umbrella := mcpClient(t, d, umbrellaToken)
	res, env, _ = mcpCall(t, ctx, umbrella, map[string]any{"code": "return 1", "timeout_ms": 10000})
	if res.IsError || env.Limits.Timeout != 2*time.Second || len(env.Clamped) != 1 {
		t.Fatalf("tenant caps: %+v", env)
	}
	res, env, _ = mcpCall(t, ctx, umbrella, map[string]any{"code": "return 1", "modules": map[string]any{"m": "export default 1"}})
	if !res.IsError || env.Error == nil || env.Error.Type != contract.ContractError || !strings.Contains(env.Error.Message, "allow-list") {
		t.Fatalf("modules allow-list: %+v", env.Error)
	}
	if n := d.metric(t, `warden_executions_total{error_type="none",outcome="ok"}`); n < 2 {
		t.Fatalf("executions counted: %v", n)
	}
	cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, _, err := mcpCall(t, cctx, acme, map[string]any{"code": "for (;;) {}", "timeout_ms": 20000}); err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("cancel: %v after %v", err, time.Since(start))
	}
	waitFor(t, 5*time.Second, "the cancelled execution to end", func() bool {
		return d.metric(t, `warden_executions_total{error_type="AbortError",outcome="error"}`) >= 1
	})
	// Its child is gone long before the runaway's 20 s deadline.
	waitFor(t, 5*time.Second, "no child busy after the cancel", func() bool {
		return d.metric(t, `warden_children{state="busy"}`) == 0
	})
}
