package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/testkit/daemontest"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/server"
)

// The official TypeScript SDK (`@modelcontextprotocol/sdk`, pinned by
// tests/mcp-ts/package-lock.json) as an MCP client of Warden, over stdio
// (`warden mcp`) and over Streamable HTTP (`warden serve`'s /mcp):
// tests/mcp-ts/client.mjs lists the tools, runs a script with input,
// gets a typed error, is clamped by the caps and cancels a runaway, and
// over HTTP is refused (401) without a token and with a wrong one.

// tsClientDir installs the pinned SDK (npm ci) in a scratch copy of
// tests/mcp-ts and returns it.
func tsClientDir(t *testing.T) (node, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the TypeScript SDK's client runs in the full pass (the wazero build does not change what it sees)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("the TypeScript SDK's client does not run: %v", err)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("the TypeScript SDK's client cannot be installed: %v", err)
	}
	dir = t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", "client.mjs"} {
		b, err := os.ReadFile(filepath.Join("mcp-ts", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(dir, ".npm"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	return node, dir
}

type tsClientReport struct {
	Tools []struct {
		Name      string `json:"name"`
		ReadOnly  bool   `json:"readOnly"`
		OpenWorld *bool  `json:"openWorld"`
	} `json:"tools"`
	OK struct {
		IsError bool            `json:"isError"`
		Value   json.RawMessage `json:"value"`
		Text    string          `json:"text"`
	} `json:"ok"`
	Failed struct {
		IsError bool   `json:"isError"`
		Type    string `json:"type"`
		Name    string `json:"name"`
	} `json:"failed"`
	Clamped []string `json:"clamped"`
	Cancel  struct {
		Error *string `json:"error"`
		MS    int     `json:"ms"`
	} `json:"cancel"`
	After   json.RawMessage `json:"after"`
	Refused *struct {
		None, Wrong *struct {
			Code    *int   `json:"code"`
			Message string `json:"message"`
		}
	} `json:"refused"`
	Fatal string `json:"fatal"`
}

func runTSClient(t *testing.T, node, dir string, args ...string) tsClientReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(dir, "client.mjs")}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.mjs: %v\n%s", err, stderr.String())
	}
	var r tsClientReport
	if err := json.Unmarshal(out, &r); err != nil || r.Fatal != "" {
		t.Fatalf("client.mjs printed %s (%v)\nstderr: %s", out, err, stderr.String())
	}
	return r
}

func checkTSClient(t *testing.T, r tsClientReport) {
	t.Helper()
	if len(r.Tools) != 1 || r.Tools[0].Name != "run_javascript" || !r.Tools[0].ReadOnly || r.Tools[0].OpenWorld == nil || *r.Tools[0].OpenWorld {
		t.Errorf("tools: %+v", r.Tools)
	}
	if r.OK.IsError || string(r.OK.Value) != "42" || r.OK.Text != "value: 42\n" {
		t.Errorf("a script with input: %+v", r.OK)
	}
	if !r.Failed.IsError || r.Failed.Type != "UserCodeError" {
		t.Errorf("a typed error: %+v", r.Failed)
	}
	if !slices.Equal(r.Clamped, []string{"timeout_ms"}) {
		t.Errorf("clamped: %v", r.Clamped)
	}
	if r.Cancel.Error == nil || r.Cancel.MS > 5000 {
		t.Errorf("the runaway was not cancelled: %+v", r.Cancel)
	}
	if string(r.After) != `"after"` {
		t.Errorf("after the cancel: %s", r.After)
	}
}

// TestMCPTypeScriptClientStdio: the TypeScript SDK starts `warden mcp`.
func TestMCPTypeScriptClientStdio(t *testing.T) {
	node, dir := tsClientDir(t)
	bin := testutil.BuildWarden(t, "..", t.TempDir())
	checkTSClient(t, runTSClient(t, node, dir, "stdio", bin, "--cache-dir", cacheDir))
}

// TestMCPTypeScriptClientHTTP: the TypeScript SDK against a daemon's
// /mcp with a tenant's token (and refused without one).
func TestMCPTypeScriptClientHTTP(t *testing.T) {
	node, dir := tsClientDir(t)
	const token = "ts-client-token"
	url := daemontest.Start(t, cacheDir, []server.TenantConfig{{Name: "ts", TokenSHA256: testutil.TokenSHA256(token), Modules: []string{"*"}}})
	r := runTSClient(t, node, dir, "http", url+server.MCPPath, token)
	checkTSClient(t, r)
	if r.Refused == nil {
		t.Fatal("the client did not try without a token")
	}
	for name, got := range map[string]*struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	}{"no token": r.Refused.None, "a wrong token": r.Refused.Wrong} {
		if got == nil || got.Code == nil || *got.Code != 401 {
			t.Errorf("with %s: want the connection refused with 401, got %+v", name, got)
		} else {
			t.Logf("with %s: %d %s", name, *got.Code, got.Message)
		}
	}
}
