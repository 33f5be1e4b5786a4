package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/internal/testkit/daemontest"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/server"
)

// The configuration snippets of docs/mcp.md, used as a desktop client
// uses them: each JSON file's servers (a command with its arguments, or
// a URL with headers) and each `claude mcp add` line are read from the
// document, the installed paths, the address and the token replaced by
// the test's, and the server they describe is started or reached with
// the Go SDK's client, which lists the tools and runs a script.

// docServer is one server a snippet describes.
type docServer struct {
	from    string // where in the document
	command []string
	url     string
	headers map[string]string
}

// The stand-ins the snippets use, and what the test puts in their place.
const (
	docBinary  = "/usr/local/bin/warden"
	docModules = "/usr/local/lib/warden/modules"
	docOrigin  = "http://127.0.0.1:8080"
	docToken   = "TOKEN"
)

// mcpDocSnippets reads the fenced blocks of docs/mcp.md's
// "Configuration snippets" section.
func mcpDocSnippets(t *testing.T) []docServer {
	t.Helper()
	b, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "\n## Configuration snippets\n")
	if start < 0 {
		t.Fatal(`docs/mcp.md has no "## Configuration snippets" section`)
	}
	section := doc[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var servers []docServer
	blocks := strings.Split(section, "```")
	for i := 1; i+1 < len(blocks); i += 2 {
		lang, body, _ := strings.Cut(blocks[i], "\n")
		from := fmt.Sprintf("block%d-%s", i/2+1, lang)
		switch lang {
		case "json":
			servers = append(servers, jsonSnippetServers(t, from, body)...)
		case "sh":
			for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
				servers = append(servers, claudeAddServer(t, from, line))
			}
		default:
			t.Fatalf("%s: a block in %q, which this test cannot read", from, lang)
		}
	}
	return servers
}

// jsonSnippetServers reads a client's JSON configuration: Claude
// Desktop's and Cursor's "mcpServers", VS Code's "servers".
func jsonSnippetServers(t *testing.T, from, body string) []docServer {
	t.Helper()
	type entry struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	}
	var file struct {
		MCPServers map[string]entry `json:"mcpServers"`
		Servers    map[string]entry `json:"servers"`
	}
	if err := json.Unmarshal([]byte(body), &file); err != nil {
		t.Fatalf("%s is not JSON: %v", from, err)
	}
	var out []docServer
	for _, m := range []map[string]entry{file.MCPServers, file.Servers} {
		for name, e := range m {
			s := docServer{from: from + "-" + name, url: e.URL, headers: e.Headers}
			if e.Command != "" {
				s.command = append([]string{e.Command}, e.Args...)
			}
			if (s.url == "") == (s.command == nil) {
				t.Fatalf("%s: want a command or a url: %+v", s.from, e)
			}
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s names no server", from)
	}
	return out
}

// claudeAddServer reads a `claude mcp add` line: `NAME -- COMMAND ARGS`
// for stdio, `--transport http NAME URL --header H` for HTTP.
func claudeAddServer(t *testing.T, from, line string) docServer {
	t.Helper()
	words := shellWords(t, line)
	if len(words) < 4 || words[0] != "claude" || words[1] != "mcp" || words[2] != "add" {
		t.Fatalf("%s: not a `claude mcp add` line: %s", from, line)
	}
	s := docServer{from: from + "-claude", headers: map[string]string{}}
	var positional []string
	for i := 3; i < len(words); i++ {
		switch w := words[i]; {
		case w == "--":
			s.command = words[i+1:]
			i = len(words)
		case (w == "--transport" || w == "--header") && i+1 < len(words):
			if w == "--header" {
				k, v, _ := strings.Cut(words[i+1], ":")
				s.headers[k] = strings.TrimSpace(v)
			} else if words[i+1] != "http" {
				t.Fatalf("%s: transport %q", s.from, words[i+1])
			}
			i++
		default:
			positional = append(positional, w)
		}
	}
	if s.command == nil {
		if len(positional) != 2 {
			t.Fatalf("%s: want NAME URL, got %q", s.from, positional)
		}
		s.url = positional[1]
	}
	return s
}

// shellWords splits a line as sh would for the words the snippets use:
// blanks between words, double quotes around one.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quotes: %s", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// TestMCPDocSnippets: every server docs/mcp.md configures works as
// written, over stdio and over HTTP.
func TestMCPDocSnippets(t *testing.T) {
	servers := mcpDocSnippets(t)
	var nStdio, nHTTP int
	for _, s := range servers {
		if s.command != nil {
			nStdio++
		} else {
			nHTTP++
		}
	}
	// Claude Desktop and Cursor (one file), Claude Code and VS Code over
	// stdio; Claude Code, VS Code and Cursor over HTTP.
	if nStdio != 3 || nHTTP != 3 {
		t.Fatalf("docs/mcp.md configures %d stdio and %d HTTP servers, want 3 and 3: %+v", nStdio, nHTTP, servers)
	}
	modules, err := filepath.Abs("../modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "lodash-es.js")); err != nil {
		t.Skipf("the snippets name the registered modules, which are missing (%v): make modules", err)
	}
	bin := testutil.BuildWarden(t, "..", t.TempDir())
	// The stdio servers' own cache: the daemon below sealed the shared
	// one, and a child refuses an entry another binary adds after that.
	stdioCache := testutil.TempPublicDir(t)
	const token = "doc-snippet-token"
	url := daemontest.Start(t, cacheDir, []server.TenantConfig{{Name: "docs", TokenSHA256: testutil.TokenSHA256(token)}})
	for _, s := range servers {
		t.Run(s.from, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "warden-doc-snippets", Version: "v0"}, nil)
			var transport mcp.Transport
			code := "return input.a + input.b"
			if s.command != nil {
				if s.command[0] != docBinary {
					t.Fatalf("the snippet starts %q, not %s", s.command[0], docBinary)
				}
				args := make([]string, 0, len(s.command)+2)
				for _, a := range s.command[1:] {
					if a == docModules {
						a = modules
						code = `const _ = await import("lodash-es"); return _.sum([input.a, input.b])`
					}
					args = append(args, a)
				}
				// The one addition: the test's cache, not /var/cache/warden.
				args = append(args, "--cache-dir", stdioCache)
				transport = &mcp.CommandTransport{Command: exec.CommandContext(ctx, bin, args...)}
			} else {
				if !strings.HasPrefix(s.url, docOrigin) {
					t.Fatalf("the snippet's url %q is not on %s", s.url, docOrigin)
				}
				headers := map[string]string{}
				for k, v := range s.headers {
					v = strings.ReplaceAll(v, docToken, token)
					v = strings.ReplaceAll(v, "${input:warden-token}", token)
					headers[k] = v
				}
				if headers["Authorization"] != "Bearer "+token {
					t.Fatalf("the snippet's headers do not carry the token: %v", s.headers)
				}
				transport = &mcp.StreamableClientTransport{Endpoint: url + strings.TrimPrefix(s.url, docOrigin),
					HTTPClient: &http.Client{Transport: headerTransport(headers)}}
			}
			session, err := client.Connect(ctx, transport, nil)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer session.Close()
			tools, err := session.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "run_javascript" {
				t.Fatalf("tools: %+v, %v", tools, err)
			}
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run_javascript",
				Arguments: map[string]any{"code": code, "input": map[string]any{"a": 40, "b": 2}}})
			if err != nil {
				t.Fatal(err)
			}
			env, _ := json.Marshal(res.StructuredContent)
			if res.IsError || !strings.Contains(string(env), `"value":42`) {
				t.Fatalf("%s: isError %v, %s", code, res.IsError, env)
			}
		})
	}
}

// headerTransport sets the snippet's headers on every request.
type headerTransport map[string]string

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(req)
}
