package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/contract"
)

// mcpSession starts `warden mcp ARGS` in this process (its children are
// real, as the test binary is a child too) on pipes, and connects the Go
// SDK's client to it over stdio. progress counts the progress
// notifications the client gets.
func mcpSession(t *testing.T, progress *atomic.Int32, args ...string) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		code := doMain(append([]string{"mcp", "--cache-dir", cacheDir}, args...), inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	opts := &mcp.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) }
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "warden-test", Version: "v0"}, opts)
	session, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr: %s", err, stderr.String())
	}
	t.Cleanup(func() {
		session.Close()
		inW.Close()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("warden mcp exited %d: %s", code, stderr.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("warden mcp did not exit when its client went away")
		}
	})
	return session
}

// callTool calls run_javascript and decodes its structured content.
func callTool(t *testing.T, ctx context.Context, s *mcp.ClientSession, args map[string]any) (*mcp.CallToolResult, contract.Result, error) {
	t.Helper()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "run_javascript", Arguments: args})
	if err != nil {
		return nil, contract.Result{}, err
	}
	var env contract.Result
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return res, env, nil
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// TestMCPStdio: the Go SDK's client lists the tool, runs scripts with
// input (JavaScript, TypeScript, a module), gets a typed error, is
// clamped by the caps, has its malformed arguments refused, and a data
// request without a data source rejects saying so.
func TestMCPStdio(t *testing.T) {
	s := mcpSession(t, nil)
	ctx := context.Background()
	tools, err := s.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 {
		t.Fatalf("tools: %+v %v", tools, err)
	}
	tool := tools.Tools[0]
	if tool.Name != "run_javascript" || !tool.Annotations.ReadOnlyHint || tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint ||
		!strings.Contains(tool.Description, "`return` the result") || !strings.Contains(tool.Description, "No data source is configured") {
		t.Fatalf("tool: %+v %+v", tool, tool.Annotations)
	}
	res, env, err := callTool(t, ctx, s, map[string]any{"code": "console.log('hi'); return input.a + input.b", "input": map[string]any{"a": 1, "b": 2}})
	if err != nil || res.IsError || !env.OK || string(env.Value) != "3" || !strings.HasPrefix(text(res), "value: 3\nlogs:\n[log] hi\n") {
		t.Fatalf("run: %v %+v %s %q", err, env.Error, env.Value, text(res))
	}
	res, env, _ = callTool(t, ctx, s, map[string]any{"code": "const twice = (n: number): number => n * 2;\nexport default (input: { n: number }) => twice(input.n);", "language": "typescript", "input": map[string]any{"n": 21}})
	if res.IsError || string(env.Value) != "42" {
		t.Fatalf("TypeScript module: %+v %s", env.Error, env.Value)
	}
	res, env, _ = callTool(t, ctx, s, map[string]any{"code": "throw new TypeError('nope')"})
	if !res.IsError || env.Error == nil || env.Error.Type != contract.UserCodeError || !strings.Contains(text(res), "error: UserCodeError\nTypeError: nope\n    at <code>:1:") {
		t.Fatalf("typed error: %+v %q", env.Error, text(res))
	}
	res, env, _ = callTool(t, ctx, s, map[string]any{"code": "return 1", "timeout_ms": 3_600_000})
	if res.IsError || len(env.Clamped) != 1 || env.Clamped[0] != "timeout_ms" || !strings.Contains(text(res), "clamped to the caps: timeout_ms") {
		t.Fatalf("clamped: %+v %q", env, text(res))
	}
	res, env, _ = callTool(t, ctx, s, map[string]any{"code": "return 1", "limits": map[string]any{}})
	if !res.IsError || env.Error == nil || env.Error.Type != contract.ContractError {
		t.Fatalf("an unknown argument: %+v", env.Error)
	}
	res, env, _ = callTool(t, ctx, s, map[string]any{"code": "return await host.request('x', {})"})
	if !res.IsError || env.Error == nil || !strings.Contains(env.Error.Message, "no data source is configured") {
		t.Fatalf("no data source: %+v", env.Error)
	}
}

// TestMCPStdioDataAndCut: --data answers host.request, and a result
// longer than --max-text is cut in the text, whole in the structure.
func TestMCPStdioDataAndCut(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data.json")
	os.WriteFile(data, []byte(`{"user": {"name": "ada"}}`), 0o600)
	s := mcpSession(t, nil, "--data", data, "--max-text", "100")
	ctx := context.Background()
	res, env, _ := callTool(t, ctx, s, map[string]any{"code": "const u = await host.request('user', {}); return u.name + 'x'.repeat(500)"})
	if res.IsError || len(env.Value) != 505 {
		t.Fatalf("data: %+v %d", env.Error, len(env.Value))
	}
	if txt := text(res); len(txt) > 200 || !strings.Contains(txt, "more bytes cut; structuredContent has the whole envelope") {
		t.Fatalf("not cut: %d bytes %q", len(txt), txt)
	}
}

// TestMCPStdioDeterministic: a call with deterministic gives the same
// value twice (random values, a clock that timers move), another seed
// another value, and a seed past MaxSafeSeed a ContractError.
func TestMCPStdioDeterministic(t *testing.T) {
	s := mcpSession(t, nil)
	ctx := context.Background()
	code := `const t0 = Date.now(); await new Promise((r) => setTimeout(r, 5000));
		return [Math.random(), crypto.randomUUID(), t0, Date.now() - t0, new Date().toISOString()]`
	run := func(det map[string]any) (contract.Result, bool) {
		res, env, err := callTool(t, ctx, s, map[string]any{"code": code, "timeout_ms": 2000, "deterministic": det})
		if err != nil {
			t.Fatal(err)
		}
		return env, res.IsError
	}
	det := map[string]any{"seed": 7, "now_ms": 1_700_000_000_000}
	a, _ := run(det)
	b, _ := run(det)
	if !a.OK || string(a.Value) != string(b.Value) {
		t.Fatalf("two runs: %s (%+v) and %s", a.Value, a.Error, b.Value)
	}
	var v []any
	json.Unmarshal(a.Value, &v)
	if len(v) != 5 || v[2] != float64(1_700_000_000_000) || v[3] != float64(5000) {
		t.Fatalf("the virtual clock: %s", a.Value)
	}
	if c, _ := run(map[string]any{"seed": 8, "now_ms": 1_700_000_000_000}); !c.OK || string(c.Value) == string(a.Value) {
		t.Fatalf("another seed: %s", c.Value)
	}
	if bad, isErr := run(map[string]any{"seed": contract.MaxSafeSeed + 1}); !isErr || bad.Error == nil || bad.Error.Type != contract.ContractError {
		t.Fatalf("a seed past MaxSafeSeed: %+v", bad.Error)
	}
}

// TestMCPStdioProgressAndCancel: a client that asks for progress gets
// notifications while a long script runs; a client's cancellation of a
// runaway ends it (the child is killed: the next call is served).
func TestMCPStdioProgressAndCancel(t *testing.T) {
	var progress atomic.Int32
	s := mcpSession(t, &progress)
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "run_javascript", Arguments: map[string]any{"code": "await new Promise((r) => setTimeout(r, 2300)); return 'slow'", "timeout_ms": 5000}}
	params.SetProgressToken("p1")
	res, err := s.CallTool(ctx, params)
	if err != nil || res.IsError || progress.Load() < 1 {
		t.Fatalf("progress: %v %+v, %d notifications", err, res, progress.Load())
	}
	cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = callTool(t, cctx, s, map[string]any{"code": "for (;;) {}", "timeout_ms": 20000})
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("cancel: %v after %v", err, time.Since(start))
	}
	res, env, err := callTool(t, ctx, s, map[string]any{"code": "return 'after'"})
	if err != nil || res.IsError || string(env.Value) != `"after"` {
		t.Fatalf("after the cancel: %v %+v", err, env.Error)
	}
}
