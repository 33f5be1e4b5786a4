package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// rssBytes is VmRSS of pid, in bytes.
func rssBytes(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// postBodies POSTs body to url n times at once and returns each status
// (0 when the transport failed: a daemon that answers before reading
// may close the connection while the body is still going out).
func postBodies(t *testing.T, url, token string, body []byte, n int) []int {
	t.Helper()
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	return codes
}

// bigAnswer is a data answer of about n bytes: {"value":"aaa..."}.
func bigAnswer(n int) []byte {
	return []byte(`{"value":"` + strings.Repeat("a", n) + `"}`)
}

// TestServeRefusesBeforeReading attacks the daemon's memory with bodies
// it must refuse before reading a byte of them: data answers to a seq
// that was never asked, and executions of a tenant at its concurrency
// quota. The daemon's RSS, measured before and after each burst, must
// not grow by more than a fraction of what was sent (before the fix,
// four 60 MiB answers took it from 22 MiB to 926 MiB and eight 16 MiB
// executions over quota cost 463 MiB).
func TestServeRefusesBeforeReading(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	config := filepath.Join(dir, "config.yaml")
	os.WriteFile(tokens, []byte("acme "+testutil.TokenSHA256("acme-token")+"\n"), 0o600)
	os.WriteFile(config, []byte("tenants:\n  - name: acme\n    concurrency: 1\n"), 0o600)
	p := startServe(t, nil, nil, nil, "--config", config, "--listen", "127.0.0.1:0", "--tokens", tokens)
	pid := p.cmd.Process.Pid

	// One execution in flight, waiting on data request 1: the tenant is
	// at its quota, and the execution is live for data answers.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", p.url+"/v1/executions",
		strings.NewReader(`{"code":"return await host.request('x', {})","limits":{"timeout_ms":20000,"data_bytes":67108864}}`))
	req.Header.Set("Authorization", "Bearer acme-token")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Warden-Execution-Id", "held")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "event: data_request") {
	}
	if sc.Err() != nil {
		t.Fatal(sc.Err())
	}

	before := rssBytes(t, pid)
	answer := bigAnswer(60 << 20)
	codes := postBodies(t, p.url+"/v1/executions/held/data/2", "acme-token", answer, 4)
	afterAnswers := rssBytes(t, pid)
	t.Logf("4 x 60 MiB answers to a seq never asked: %v; RSS %d MiB -> %d MiB", codes, before>>20, afterAnswers>>20)
	for _, c := range codes {
		if c != 0 && c != http.StatusNotFound {
			t.Errorf("an answer to a seq never asked got %d, want 404", c)
		}
	}

	exec := []byte(`{"code":"return 1","input":"` + strings.Repeat("a", 16<<20-100) + `"}`)
	codes = postBodies(t, p.url+"/v1/executions", "acme-token", exec, 8)
	afterExecs := rssBytes(t, pid)
	t.Logf("8 x 16 MiB executions over the concurrency quota: %v; RSS %d MiB -> %d MiB", codes, afterAnswers>>20, afterExecs>>20)
	for _, c := range codes {
		if c != 0 && c != http.StatusTooManyRequests {
			t.Errorf("an execution over quota got %d, want 429", c)
		}
	}
	// 240 MiB and 128 MiB were sent; reading any of it would show.
	if grew := afterExecs - before; grew > 48<<20 {
		t.Errorf("the daemon's RSS grew by %d MiB over bursts it should have refused unread", grew>>20)
	}

	// The held execution still takes its answer and ends ok.
	if codes := postBodies(t, p.url+"/v1/executions/held/data/1", "acme-token", []byte(`{"value":7}`), 1); codes[0] != http.StatusNoContent {
		t.Fatalf("the real answer got %d, want 204", codes[0])
	}
	var last string
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			last = sc.Text()
		}
	}
	if !strings.Contains(last, `"ok":true,"value":7`) {
		t.Fatalf("the held execution's last event is %s, want ok with 7", last)
	}
}

// TestServeBoundsBodiesInFlight: four executions each wait on a data
// request and get a 60 MiB answer, all four sent at once and resent
// when refused. The daemon reads them within its body budget (64 MiB:
// one such answer at a time), so its RSS peaks near one answer's worth,
// not four, and returns to the OS once the answers are through.
func TestServeBoundsBodiesInFlight(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte("acme "+testutil.TokenSHA256("acme-token")+"\n"), 0o600)
	p := startServe(t, nil, nil, nil, "--listen", "127.0.0.1:0", "--tokens", tokens)
	pid := p.cmd.Process.Pid
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 4
	streams := make([]*bufio.Scanner, n)
	for i := range n {
		req, _ := http.NewRequestWithContext(ctx, "POST", p.url+"/v1/executions",
			strings.NewReader(`{"code":"const a = await host.request('x', {}); return a.length","limits":{"timeout_ms":30000,"data_bytes":67108864,"memory_bytes":268435456}}`))
		req.Header.Set("Authorization", "Bearer acme-token")
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Warden-Execution-Id", fmt.Sprintf("e%d", i))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		streams[i] = bufio.NewScanner(resp.Body)
		streams[i].Buffer(nil, 1<<20)
		for streams[i].Scan() && !strings.HasPrefix(streams[i].Text(), "event: data_request") {
		}
	}
	before := rssBytes(t, pid)
	var peak atomic.Int64
	sampling := make(chan struct{})
	go func() {
		defer close(sampling)
		for ctx.Err() == nil {
			peak.Store(max(peak.Load(), rssBytes(t, pid)))
			time.Sleep(5 * time.Millisecond)
		}
	}()
	answer := bigAnswer(40 << 20)
	refusals := atomic.Int64{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for {
				code := postBodies(t, fmt.Sprintf("%s/v1/executions/e%d/data/1", p.url, i), "acme-token", answer, 1)[0]
				if code == http.StatusNoContent {
					return
				}
				if code != http.StatusTooManyRequests && code != http.StatusServiceUnavailable && code != 0 {
					t.Errorf("answer %d: status %d", i, code)
					return
				}
				refusals.Add(1)
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	for i, sc := range streams {
		var last string
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				last = sc.Text()
			}
		}
		if !strings.Contains(last, `"ok":true,"value":41943040`) {
			t.Errorf("execution %d ended %.200s, want ok with the answer's length", i, last)
		}
	}
	// The memory goes back to the OS within seconds of the last
	// execution's end (a debounced FreeOSMemory a second after it).
	ended := time.Now()
	after := rssBytes(t, pid)
	for after-before > 64<<20 && time.Since(ended) < 10*time.Second {
		time.Sleep(100 * time.Millisecond)
		after = rssBytes(t, pid)
	}
	cancel()
	<-sampling
	t.Logf("4 x 40 MiB answers, %d refusals resent: RSS %d MiB before, peak %d MiB, %d MiB %.1f s after the last ended",
		refusals.Load(), before>>20, peak.Load()>>20, after>>20, time.Since(ended).Seconds())
	// One answer in flight costs its body and its decoded copy, and the
	// copy on its way to the child: about 3 x 60 MiB. Four at once would
	// be 720 MiB.
	if grew := peak.Load() - before; grew > 300<<20 {
		t.Errorf("the daemon's RSS peaked %d MiB over its start: more than one answer read at a time", grew>>20)
	}
	if kept := after - before; kept > 64<<20 {
		t.Errorf("the daemon kept %d MiB of RSS 10 s after the burst", kept>>20)
	}
}
