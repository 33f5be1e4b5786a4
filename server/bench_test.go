package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/mcptool"
)

// BenchmarkDaemonOverhead measures the daemon's overhead over
// supervisor.Execute on the trivial script, in the same run on the same
// supervisor, with the modes below: "warm" runs one execution at a time
// with warm children waiting (p50 and p99 latency); "c=N" runs batches
// back to back from N goroutines, the modes taking turns (latency and
// throughput of each).
// "supervisor" is Execute called in process; "json" is POST
// /v1/executions over loopback HTTP; "sse" the same with Accept:
// text/event-stream, read to the result event; "mcp" the run_javascript
// tool over /mcp. No figure is asserted
// (BENCHMARKS.md has them):
//
//	go test -run '^$' -bench DaemonOverhead/warm -benchtime 100x -count 3 ./server/
//	go test -run '^$' -bench 'DaemonOverhead/c=' -benchtime 10x ./server/
func BenchmarkDaemonOverhead(b *testing.B) {
	cfg := testConfig()
	cfg.Supervisor.PoolSize = 4
	d, err := Start(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	if err := d.Server().WaitWarm(ctx); err != nil {
		b.Fatal(err)
	}
	cancel()
	url := "http://" + d.Addr() + "/v1/executions"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	body := []byte(`{"code":"return 1"}`)
	post := func(sse bool) error {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+acmeToken)
		if sse {
			req.Header.Set("Accept", "text/event-stream")
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"ok":true`)) {
			return fmt.Errorf("status %d: %s", resp.StatusCode, b)
		}
		return nil
	}
	execute := func() error {
		_, err := d.sup.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
		return err
	}
	// One MCP session over Streamable HTTP, shared by the goroutines (a
	// session takes concurrent calls).
	mcpSession, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: "http://" + d.Addr() + MCPPath,
			HTTPClient: &http.Client{Transport: bearerTransport{acmeToken, &http.Transport{MaxIdleConnsPerHost: 16}}}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer mcpSession.Close()
	callMCP := func() error {
		res, err := mcpSession.CallTool(context.Background(), &mcp.CallToolParams{Name: mcptool.ToolName, Arguments: map[string]any{"code": "return 1"}})
		if err != nil {
			return err
		}
		if res.IsError {
			return fmt.Errorf("the tool failed: %+v", res.StructuredContent)
		}
		return nil
	}
	modes := []struct {
		name string
		run  func() error
	}{
		{"supervisor", execute},
		// The control: Execute, then one GET /healthz round trip over
		// the same loopback connection pool. Right after an execution the
		// machine is busy removing its child and starting the next one;
		// a round trip then costs what the HTTP path pays on top of the
		// daemon's own work.
		{"supervisor+healthz", func() error {
			if err := execute(); err != nil {
				return err
			}
			resp, err := client.Get("http://" + d.Addr() + "/healthz")
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			return resp.Body.Close()
		}},
		// The daemon's handler called in process: its own work, no
		// network.
		{"handler", func() error {
			req := httptest.NewRequest("POST", "/v1/executions", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+acmeToken)
			w := httptest.NewRecorder()
			d.Server().Handler().ServeHTTP(w, req)
			if w.Code != 200 {
				return fmt.Errorf("status %d: %s", w.Code, w.Body)
			}
			return nil
		}},
		{"json", func() error { return post(false) }},
		{"sse", func() error { return post(true) }},
		// run_javascript over /mcp (Streamable HTTP, one session).
		{"mcp", callMCP},
	}
	// Warm: one execution at a time, each with a warm child waiting for
	// it: the latency of the path itself, spawns off it.
	for _, m := range modes {
		b.Run("warm/"+m.name, func(b *testing.B) {
			lat := make([]time.Duration, b.N)
			for i := range b.N {
				waitIdle(d, cfg.Supervisor.PoolSize)
				t0 := time.Now()
				if err := m.run(); err != nil {
					b.Fatal(err)
				}
				lat[i] = time.Since(t0)
			}
			reportLatency(b, "", lat)
		})
	}
	// Saturated: c goroutines back to back, the pool's spawn rate bounds
	// the throughput. The machine's load varies within a run, so the
	// modes take turns: each of b.N rounds runs a batch of 4c executions
	// of every mode, in an order that rotates, and each mode's figures
	// come from its own batches.
	for _, c := range []int{2, 8} {
		b.Run(fmt.Sprintf("c=%d", c), func(b *testing.B) {
			lat := make([][]time.Duration, len(modes))
			busy := make([]time.Duration, len(modes))
			for round := range b.N {
				for k := range modes {
					mi := (round + k) % len(modes)
					waitIdle(d, cfg.Supervisor.PoolSize)
					l, took, err := batch(c, 4*c, modes[mi].run)
					if err != nil {
						b.Fatal(err)
					}
					lat[mi] = append(lat[mi], l...)
					busy[mi] += took
				}
			}
			for mi, m := range modes {
				reportLatency(b, m.name+"-", lat[mi])
				b.ReportMetric(float64(len(lat[mi]))/busy[mi].Seconds(), m.name+"-exec/s")
			}
		})
	}
}

// batch runs n executions of run from c goroutines and returns their
// latencies and the wall time of the batch.
func batch(c, n int, run func() error) ([]time.Duration, time.Duration, error) {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				t0 := time.Now()
				if err := run(); err != nil {
					failed.Store(err)
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	err, _ := failed.Load().(error)
	return lat, took, err
}

func reportLatency(b *testing.B, prefix string, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, prefix+"p99-ms")
}

// waitIdle waits (up to 10s) for n idle children.
func waitIdle(d *Daemon, n int) {
	deadline := time.Now().Add(10 * time.Second)
	for d.sup.Stats().Pool.Idle < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

// bearerTransport adds a token to every request.
type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
