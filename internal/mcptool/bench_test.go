package mcptool

import (
	"context"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/median"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

var cacheDir string

// stdioPair serves the tool over a pair of pipes, as `warden mcp` does
// over stdin and stdout, and connects the Go SDK's client to it.
func stdioPair(tb testing.TB, sup *supervisor.Supervisor) *mcp.ClientSession {
	tb.Helper()
	ctx := context.Background()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	server := mcp.NewServer(&mcp.Implementation{Name: "warden", Version: "test"}, nil)
	defaults, caps := sup.Limits()
	if err := Add(server, sup, Config{Defaults: defaults, Caps: caps}); err != nil {
		tb.Fatal(err)
	}
	go server.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW})
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	session, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { session.Close(); inW.Close(); outW.Close() })
	return session
}

// BenchmarkMCPStdio: what the MCP path adds to an execution, a trivial
// script through the tool over stdio pipes against the same script
// through Supervisor.Execute, interleaved one for one on a warm pool
// (paced, so that each takes an idle child): the medians of each, and
// of their difference (mcp-extra-ms).
func BenchmarkMCPStdio(b *testing.B) {
	sup, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, PoolSize: 1, QueueTimeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer sup.Close(context.Background())
	session := stdioPair(b, sup)
	ctx := context.Background()
	direct := func() time.Duration {
		start := time.Now()
		res, _ := sup.Execute(ctx, contract.Request{Code: "return input.a + input.b", Input: []byte(`{"a":1,"b":2}`)}, nil)
		if !res.OK {
			b.Fatalf("%+v", res.Error)
		}
		return time.Since(start)
	}
	viaMCP := func() time.Duration {
		start := time.Now()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"code": "return input.a + input.b", "input": map[string]any{"a": 1, "b": 2}}})
		if err != nil || res.IsError {
			b.Fatalf("%v %+v", err, res)
		}
		return time.Since(start)
	}
	direct()
	viaMCP()
	var d, m []float64
	for b.Loop() {
		time.Sleep(50 * time.Millisecond) // the pool refills: each call takes an idle child
		d = append(d, float64(direct())/1e6)
		time.Sleep(50 * time.Millisecond)
		m = append(m, float64(viaMCP())/1e6)
	}
	diff := make([]float64, len(d))
	for i := range d {
		diff[i] = m[i] - d[i]
	}
	slices.Sort(diff)
	b.ReportMetric(median.Of(d), "execute-p50-ms")
	b.ReportMetric(median.Of(m), "mcp-p50-ms")
	b.ReportMetric(median.Of(diff), "mcp-extra-ms")
}

// cannedRunner answers every execution at once with a fixed envelope
// like a trivial script's, so that what is timed is the tool and the
// protocol without a child.
type cannedRunner struct{ limits contract.Limits }

func (c cannedRunner) Execute(_ context.Context, req contract.Request, _ contract.DataHandler) (contract.Result, error) {
	return contract.Result{OK: true, Value: []byte("3"), Logs: []contract.LogEntry{}, Limits: c.limits}, nil
}

// BenchmarkMCPStdioParts breaks BenchmarkMCPStdio's mcp-extra-ms down,
// the three calls interleaved over the same stdio pipes: a tool that
// returns a fixed text result (protocol-ms: the SDK's framing, schema
// checks and goroutines on both ends), run_javascript over an executor
// that answers at once (tool-ms: that plus our decoding, clamping and
// the envelope rendered twice), and the difference (tool-own-ms). Back
// to back ("hot") and after BenchmarkMCPStdio's 50 ms pause ("paced"),
// which is what an execution on a warm pool meets: an idle process whose
// goroutines must be woken at every hand-off.
func BenchmarkMCPStdioParts(b *testing.B) {
	b.Run("hot", func(b *testing.B) { benchmarkMCPStdioParts(b, 0) })
	b.Run("paced", func(b *testing.B) { benchmarkMCPStdioParts(b, 50*time.Millisecond) })
}

func benchmarkMCPStdioParts(b *testing.B, pause time.Duration) {
	ctx := context.Background()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	server := mcp.NewServer(&mcp.Implementation{Name: "warden", Version: "test"}, nil)
	defaults, caps, err := contract.ConfigLimits(contract.Limits{}, contract.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	if err := Add(server, cannedRunner{defaults}, Config{Defaults: defaults, Caps: caps}); err != nil {
		b.Fatal(err)
	}
	server.AddTool(&mcp.Tool{Name: "fixed", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "value: 3\n"}}}, nil
		})
	go server.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW})
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	session, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { session.Close(); inW.Close(); outW.Close() }()
	call := func(name string, args map[string]any) float64 {
		time.Sleep(pause)
		start := time.Now()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %+v", name, err, res)
		}
		return float64(time.Since(start)) / 1e6
	}
	script := map[string]any{"code": "return input.a + input.b", "input": map[string]any{"a": 1, "b": 2}}
	var fixed, tool, own []float64
	for b.Loop() {
		f := call("fixed", script)
		t := call(ToolName, script)
		fixed, tool, own = append(fixed, f), append(tool, t), append(own, t-f)
	}
	b.ReportMetric(median.Of(fixed), "protocol-ms")
	b.ReportMetric(median.Of(tool), "tool-ms")
	b.ReportMetric(median.Of(own), "tool-own-ms")
}
