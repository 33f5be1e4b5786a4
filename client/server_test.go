package client

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/daemontest"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/server"
)

// The test binary is also the child the real daemon's supervisor
// re-executes.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

const (
	acmeToken  = "acme-client-test-token"
	smallToken = "small-client-test-token"
)

// startDaemon starts the real daemon (server.Start: a loopback listener,
// the supervisor, real children) with two tenants, acme (no quota) and
// small (one execution at a time), and waits until it is ready.
func startDaemon(t *testing.T) string {
	t.Helper()
	return daemontest.Start(t, cacheDir, []server.TenantConfig{
		{Name: "acme", TokenSHA256: testutil.TokenSHA256(acmeToken), Modules: []string{"*"}},
		{Name: "small", TokenSHA256: testutil.TokenSHA256(smallToken), Concurrency: 1},
	}, func(c *server.Config) { c.DrainTimeout = 5 * time.Second })
}

func newClient(t *testing.T, url, token string) *Client {
	t.Helper()
	c, err := New(url, Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAgainstTheDaemon runs the client against the real daemon on
// loopback, one subtest per part of the surface.
func TestAgainstTheDaemon(t *testing.T) {
	url := startDaemon(t)
	acme := newClient(t, url, acmeToken)
	ctx := context.Background()

	t.Run("execute", func(t *testing.T) {
		res, err := acme.Execute(ctx, contract.Request{Code: `console.log("hi", input.a); return input.a + 1`, Input: json.RawMessage(`{"a":41}`)}, nil)
		if err != nil || !res.OK || string(res.Value) != "42" || len(res.Logs) != 1 || res.Logs[0].Text != "hi 41" || res.Stats.ChildPID == 0 {
			t.Fatalf("%+v, %v", res, err)
		}
	})

	t.Run("user code error", func(t *testing.T) {
		res, err := acme.Execute(ctx, contract.Request{Code: `throw new TypeError("bad " + 1)`}, nil)
		var ce *contract.Error
		if !errors.Is(err, contract.ErrUserCode) || !errors.As(err, &ce) || ce.Name != "TypeError" || res.OK {
			t.Fatalf("%+v, %v", res, err)
		}
		var api *APIError
		if errors.As(err, &api) {
			t.Errorf("an execution that ran is no refusal: %v", api)
		}
	})

	t.Run("stream with data answers", func(t *testing.T) {
		var mu sync.Mutex
		var events []string
		h := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
			if name == "nope" {
				return nil, errors.New("no such data")
			}
			return json.RawMessage(`{"name":"` + name + `","args":` + string(args) + `}`), nil
		}
		code := `console.log("start");
			const a = await host.request("users", {page: 1});
			let b;
			try { await host.request("nope"); } catch (e) { b = String(e.message); }
			return {a, b};`
		res, err := acme.Stream(ctx, contract.Request{Code: code}, h, func(ev contract.Event) {
			mu.Lock()
			events = append(events, string(ev.Type))
			mu.Unlock()
		})
		if err != nil || !res.OK {
			t.Fatalf("%+v, %v", res, err)
		}
		var v struct {
			A struct {
				Name string
				Args struct{ Page int }
			}
			B string
		}
		if json.Unmarshal(res.Value, &v) != nil || v.A.Name != "users" || v.A.Args.Page != 1 || !strings.Contains(v.B, "no such data") {
			t.Errorf("value %s", res.Value)
		}
		if got := strings.Join(events, ","); got != "started,log,data_request,data_request,result" {
			t.Errorf("events %s", got)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		_, err := newClient(t, url, "wrong").Execute(ctx, contract.Request{Code: "return 1"}, nil)
		var api *APIError
		if !errors.As(err, &api) || api.Status != 401 || !errors.Is(err, ErrUnauthenticated) || api.Body == nil || api.Body.Type != server.AuthError {
			t.Errorf("wrong token: %v", err)
		}
		res, err := acme.Execute(ctx, contract.Request{Code: "return 1", Limits: contract.Limits{MemoryBytes: -1}}, nil)
		if !errors.As(err, &api) || api.Status != 400 || !errors.Is(err, contract.ErrContract) || res.Error == nil || res.Error.Type != contract.ContractError {
			t.Errorf("negative limit: %+v, %v", res, err)
		}
		// small may not import modules.
		_, err = newClient(t, url, smallToken).Execute(ctx, contract.Request{Code: `import "m"; return 1`, Modules: map[string]string{"m": "export default 1"}}, nil)
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("a module off the allow-list: %v", err)
		}
	})

	t.Run("concurrency quota", func(t *testing.T) {
		small := newClient(t, url, smallToken)
		hold, cancel := context.WithCancel(ctx)
		held := make(chan error, 1)
		started := make(chan struct{})
		go func() {
			var once sync.Once
			_, err := small.Stream(hold, contract.Request{Code: "while (true) {}", Limits: contract.Limits{Timeout: 20 * time.Second}}, nil,
				func(ev contract.Event) { once.Do(func() { close(started) }) })
			held <- err
		}()
		select {
		case <-started:
		case err := <-held:
			t.Fatalf("the first execution did not start: %v", err)
		}
		var api *APIError
		_, err := small.Execute(ctx, contract.Request{Code: "return 1"}, nil)
		cancel()
		if !errors.As(err, &api) || api.Status != 429 || !errors.Is(err, contract.ErrCapacity) || api.RetryAfter <= 0 || api.Body.Kind != server.KindConcurrency {
			t.Errorf("over the concurrency quota: %v", err)
		}
		if err := <-held; !errors.Is(err, contract.ErrAbort) {
			t.Errorf("the held execution, cancelled: %v", err)
		}
	})

	// Cancelling ctx sends DELETE: the daemon ends the execution with
	// AbortError (its own envelope, with the logs so far), long before
	// its deadline, in both forms.
	t.Run("cancel aborts", func(t *testing.T) {
		for _, stream := range []bool{false, true} {
			cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			req := contract.Request{Code: `console.log("spinning"); while (true) {}`, Limits: contract.Limits{Timeout: 20 * time.Second}}
			var res contract.Result
			var err error
			if stream {
				res, err = acme.Stream(cctx, req, nil, nil)
			} else {
				res, err = acme.Execute(cctx, req, nil)
			}
			cancel()
			if !errors.Is(err, contract.ErrAbort) || res.Error == nil || res.Error.Type != contract.AbortError || strings.Contains(res.Error.Message, "sent no envelope") {
				t.Errorf("stream %v: %+v, %v", stream, res, err)
			}
		}
	})

	// A handler that ignores its ctx does not hold the envelope back past
	// the execution's deadline (a local execution does not wait for it).
	t.Run("handler ignoring ctx", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		h := func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			select { // not ctx
			case <-release:
			case <-time.After(5 * time.Second):
			}
			return json.RawMessage("1"), nil
		}
		start := time.Now()
		res, err := acme.Execute(ctx, contract.Request{Code: `return await host.request("stall")`, Limits: contract.Limits{Timeout: 300 * time.Millisecond}}, h)
		if !errors.Is(err, contract.ErrTimeout) || res.OK || time.Since(start) > 3*time.Second {
			t.Errorf("after %v: %+v, %v; want TimeoutError within 3s", time.Since(start), res, err)
		}
	})

	// CheckToken: nil for a token the daemon takes, ErrUnauthenticated
	// for one it refuses; nothing runs.
	t.Run("check token", func(t *testing.T) {
		if err := acme.CheckToken(ctx); err != nil {
			t.Errorf("good token: %v", err)
		}
		if err := newClient(t, url, "wrong").CheckToken(ctx); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("wrong token: %v, want ErrUnauthenticated", err)
		}
	})
}

// TestParkAndResumeThroughTheClient: a handler that returns
// contract.ErrPark parks the execution (the client answers {"park":
// true}); Resume continues it by id with the answer, and the handler
// answers the request it makes next.
func TestParkAndResumeThroughTheClient(t *testing.T) {
	c := newClient(t, startDaemon(t), acmeToken)
	ctx := context.Background()
	code := `const ok = await host.request("approve", 1); return [ok, await host.request("more", ok)]`
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		if name == "approve" {
			return nil, contract.ErrPark
		}
		return json.RawMessage(`"more"`), nil
	}
	res, err := c.Stream(ctx, contract.Request{ID: "park-1", Code: code, Park: true, Limits: contract.Limits{Timeout: 10 * time.Second}}, handler, nil)
	if err != nil || res.Parked == nil || len(res.Parked.Pending) != 1 {
		t.Fatalf("want parked, got %+v (%v)", res, err)
	}
	got, err := c.Resume(ctx, "park-1", map[int64]contract.Answer{res.Parked.Pending[0].Seq: {Value: json.RawMessage(`"yes"`)}}, false, handler, nil)
	if err != nil || !got.OK || string(got.Value) != `["yes","more"]` {
		t.Fatalf("resume: %+v (%v)", got, err)
	}
	var api *APIError
	if _, err := c.Resume(ctx, "park-1", nil, false, handler, nil); !errors.As(err, &api) || api.Status != 404 {
		t.Errorf("a second resume: %v, want a 404", err)
	}
}
