package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// approvalJS waits on a human's approval, then asks for one more thing.
const approvalJS = `console.log("asking");
const ok = await host.request("approve", {amount: 42});
const more = await host.request("more", ok);
return {ok, more}`

// parkOver streams req and answers its first data request {"park":
// true}; it returns the parked envelope.
func parkOver(t *testing.T, d *testDaemon, token string, body map[string]any) (string, contract.Result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.stream(t, ctx, token, body)
	id := resp.Header.Get(ExecutionIDHeader)
	for {
		e, ok := next()
		if !ok {
			t.Fatal("the stream ended without a result")
		}
		switch e.typ {
		case "data_request":
			path := fmt.Sprintf("/v1/executions/%s/data/%d", id, e.ev.DataRequest.Seq)
			if r, b := d.call(t, "POST", path, token, `{"park": true}`); r.StatusCode != 204 {
				t.Fatalf("answer park: %d %s", r.StatusCode, b)
			}
		case "result":
			return id, *e.ev.Result
		}
	}
}

// TestParkResumeOverHTTP: a streaming client answers a data request with
// {"park": true}; the envelope says parked and its child is gone; the
// state is exported, and resumed by id with the answer (the next data
// request answered over the endpoint as usual), once; another tenant
// finds nothing; an exported state resumes through POST /v1/resume on a
// second daemon with the same key and store.
func TestParkResumeOverHTTP(t *testing.T) {
	key := filepath.Join(t.TempDir(), "park.key")
	os.WriteFile(key, []byte(strings.Repeat("ab", 32)+"\n"), 0o600)
	store := t.TempDir()
	withPark := func(c *Config) { c.Park.KeyFile, c.Park.KeyID, c.Park.Dir = key, "k1", store }
	d := startDaemon(t, withPark)
	id, res := parkOver(t, d, acmeToken, map[string]any{"code": approvalJS, "park": true, "limits": map[string]any{"timeout_ms": 10000}})
	if res.Parked == nil || res.Parked.State != nil || len(res.Parked.Pending) != 1 || res.Parked.Pending[0].Name != "approve" {
		t.Fatalf("want parked with its state kept, got %+v", res)
	}
	if n := d.metric(t, `warden_parked_states`); n != 1 {
		t.Errorf("warden_parked_states %v, want 1", n)
	}
	r, state := d.call(t, "GET", "/v1/executions/"+id+"/state", acmeToken, nil)
	if r.StatusCode != 200 || len(state) == 0 {
		t.Fatalf("export: %d (%d bytes)", r.StatusCode, len(state))
	}
	if r, _ := d.call(t, "GET", "/v1/executions/"+id+"/state", umbrellaToken, nil); r.StatusCode != 404 {
		t.Errorf("another tenant's export: %d", r.StatusCode)
	}
	if r, b := d.call(t, "POST", "/v1/executions/"+id+"/resume", umbrellaToken, `{"answers": {"1": {"value": "yes"}}}`); r.StatusCode != 404 {
		t.Errorf("another tenant's resume: %d %s", r.StatusCode, b)
	}

	// Resume by id, streaming: the second data request is a data_request
	// event, answered over the endpoint.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, next := d.streamTo(t, ctx, "/v1/executions/"+id+"/resume", acmeToken, map[string]any{"answers": map[string]any{"1": map[string]any{"value": "yes"}}})
	if resp.StatusCode != 200 {
		t.Fatalf("resume: %d", resp.StatusCode)
	}
	var got *contract.Result
	for got == nil {
		e, ok := next()
		if !ok {
			t.Fatal("the resumed stream ended without a result")
		}
		switch e.typ {
		case "data_request":
			if e.ev.DataRequest.Seq != 2 || e.ev.DataRequest.Name != "more" {
				t.Fatalf("data request %+v, want seq 2 named more", e.ev.DataRequest)
			}
			d.call(t, "POST", fmt.Sprintf("/v1/executions/%s/data/2", id), acmeToken, `{"value": "more!"}`)
		case "result":
			got = e.ev.Result
		}
	}
	if !got.OK || string(got.Value) != `{"ok":"yes","more":"more!"}` || len(got.Logs) != 1 {
		t.Fatalf("resumed: %+v", got)
	}
	if r, _ := d.call(t, "POST", "/v1/executions/"+id+"/resume", acmeToken, `{}`); r.StatusCode != 404 {
		t.Errorf("a second resume: %d, want 404 (the state was taken)", r.StatusCode)
	}

	// The exported state resumes on another daemon with the key.
	other := startDaemon(t, func(c *Config) { withPark(c); c.Park.Dir = t.TempDir() })
	body := fmt.Sprintf(`{"state": %q, "answers": {"1": {"error": "denied"}}}`, base64.StdEncoding.EncodeToString(state))
	r, b := other.call(t, "POST", "/v1/resume", acmeToken, body)
	if env := envelope(t, b); r.StatusCode != 200 || env.OK || env.Error == nil || !strings.Contains(env.Error.Message, "denied") {
		t.Fatalf("resume of the exported state elsewhere: %d %+v", r.StatusCode, env)
	}
	// Under another tenant it does not open.
	r, b = other.call(t, "POST", "/v1/resume", umbrellaToken, body)
	if env := envelope(t, b); r.StatusCode != 400 || env.Error == nil || !strings.Contains(env.Error.Message, "another scope") {
		t.Errorf("another tenant resuming the state: %d %+v", r.StatusCode, env.Error)
	}
}

// TestParkAfterAndStoreCaps: a tenant's park_after parks an execution
// whose answer is slow; at the tenant's cap of kept states the next
// parked envelope carries its state itself, and nothing is lost.
func TestParkAfterAndStoreCaps(t *testing.T) {
	d := startDaemon(t, func(c *Config) {
		c.Park.MaxStates = 1
		c.Tenants[0].ParkAfter = 50 * time.Millisecond
	})
	for i, wantInline := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		resp, next := d.stream(t, ctx, acmeToken, map[string]any{"code": approvalJS, "park": true, "limits": map[string]any{"timeout_ms": 10000}})
		var res *contract.Result
		for res == nil {
			e, ok := next()
			if !ok {
				t.Fatal("no result")
			}
			if e.typ == "result" {
				res = e.ev.Result
			}
		}
		cancel()
		if res.Parked == nil || (res.Parked.State != nil) != wantInline {
			t.Fatalf("execution %d (%s): parked=%v inline state=%v, want inline %v", i, resp.Header.Get(ExecutionIDHeader), res.Parked != nil, res.Parked != nil && res.Parked.State != nil, wantInline)
		}
	}
}

// TestReplicasShareTheStore: two daemons on one park.dir and no
// key_file share the key the first one made in it: an execution parked
// on one resumes by id on the other.
func TestReplicasShareTheStore(t *testing.T) {
	store := t.TempDir()
	a := startDaemon(t, func(c *Config) { c.Park.Dir = store })
	b := startDaemon(t, func(c *Config) { c.Park.Dir = store })
	id, res := parkOver(t, a, acmeToken, map[string]any{"code": `return await host.request("approve", 1)`, "park": true})
	if res.Parked == nil {
		t.Fatalf("want parked, got %+v", res)
	}
	if fi, err := os.Stat(filepath.Join(store, ".park-key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the store's key: %v %v", fi, err)
	}
	r, body := b.call(t, "POST", "/v1/executions/"+id+"/resume", acmeToken, `{"answers": {"1": {"value": "from b"}}}`)
	if env := envelope(t, body); r.StatusCode != 200 || !env.OK || string(env.Value) != `"from b"` {
		t.Fatalf("resume on the other replica: %d %+v", r.StatusCode, env)
	}
}
