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
