package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/daemontest"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/server"
)

// `warden run --server` prints the daemon's envelope as a local run
// prints its own, with the same exit status, sends the token from
// --token-file, and answers data requests from --data.
func TestRunServerFlags(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return 1"), 0o600)
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("tok\n"), 0o600)

	var gotAuth, gotAnswer string
	answered := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/data/1") {
			var b struct{ Value json.RawMessage }
			json.NewDecoder(r.Body).Decode(&b)
			gotAnswer = string(b.Value)
			w.WriteHeader(http.StatusNoContent)
			close(answered)
			return
		}
		gotAuth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "id: 1\nevent: data_request\ndata: {\"type\":\"data_request\",\"data_request\":{\"seq\":1,\"name\":\"k\",\"args\":null}}\n\n")
		w.(http.Flusher).Flush()
		<-answered // the CLI answers on another connection
		res := contract.Fail(contract.Errorf(contract.UserCodeError, "Error: boom"), contract.DefaultLimits)
		b, _ := json.Marshal(contract.Event{Type: contract.EventResult, Result: &res})
		fmt.Fprintf(w, "id: 2\nevent: result\ndata: %s\n\n", b)
	}))
	defer srv.Close()
	data := filepath.Join(dir, "data.json")
	os.WriteFile(data, []byte(`{"k":[7]}`), 0o600)

	code, out, errOut := runCLI(t, "", "run", "--server", srv.URL, "--token-file", tokenFile, "--data", data, script)
	res := envelope(t, out)
	if code != exitFailed || res.OK || res.Error.Type != contract.UserCodeError || errOut != "" {
		t.Errorf("got %d %q %q", code, out, errOut)
	}
	if gotAuth != "Bearer tok" || gotAnswer != "[7]" {
		t.Errorf("auth %q, answer %q", gotAuth, gotAnswer)
	}

	for _, args := range [][]string{
		{"run", "--token-file", tokenFile, script},
		{"run", "--in-process", "--server", srv.URL, script},
		{"run", "--server", "localhost:1", script},
	} {
		if code, out, errOut := runCLI(t, "", args...); code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%v: %d %q %q", args, code, out, errOut)
		}
	}
}

// startDaemon starts the real daemon on loopback (server.Start: the
// supervisor, real children of this test binary) with one tenant whose
// token is in the returned file.
func startDaemon(t *testing.T) (url, tokenFile string) {
	t.Helper()
	const token = "cli-test-token"
	url = daemontest.Start(t, cacheDir, []server.TenantConfig{{Name: "cli", TokenSHA256: testutil.TokenSHA256(token), Modules: []string{"*"}}})
	tokenFile = filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	return url, tokenFile
}

// withoutStats is an envelope's JSON without its stats (times, pids and
// sizes differ between any two runs).
func withoutStats(t *testing.T, out string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not an envelope: %v\n%s", err, out)
	}
	delete(m, "stats")
	b, _ := json.Marshal(m)
	return string(b)
}

// `warden run --server` against the real daemon prints what a local
// `warden run` prints, but for stats, with the same exit status: for a
// script that logs and returns, one that asks for data (answered from
// --data over the stream, or refused without it), one that throws, and
// one whose limit is clamped to its cap.
func TestRunServerEqualsLocal(t *testing.T) {
	url, tokenFile := startDaemon(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "d.json")
	os.WriteFile(data, []byte(`{"n": 41}`), 0o600)
	for _, c := range []struct {
		name, code string
		args       []string
	}{
		{"logs and returns", `console.log("hi", input.n); console.warn("careful"); return {twice: input.n * 2, sum: sha256("x")}`, []string{"--input", `{"n": 21}`}},
		{"data", `const v = await host.request("n"); let e; try { await host.request("missing") } catch (x) { e = x.message } return [v + 1, e]`, []string{"--data", data}},
		{"no data handler", `return await host.request("n")`, nil},
		{"throws", `console.log("before"); null.x`, nil},
		{"clamped", `return 1`, []string{"--timeout", "10m"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"run"}, c.args...), "-")
			lcode, lout, lerr := runCLI(t, c.code, append([]string{args[0], "--cache-dir=" + cacheDir}, args[1:]...)...)
			rcode, rout, rerr := runCLI(t, c.code, append([]string{args[0], "--server", url, "--token-file", tokenFile}, args[1:]...)...)
			if lerr != "" || rerr != "" {
				t.Fatalf("stderr: local %q, remote %q", lerr, rerr)
			}
			if l, r := withoutStats(t, lout), withoutStats(t, rout); lcode != rcode || l != r {
				t.Errorf("local (exit %d):\n%s\nremote (exit %d):\n%s", lcode, l, rcode, r)
			}
		})
	}
}
