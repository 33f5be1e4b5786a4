package server

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestQuotasIsolateTenants: acme at its concurrency quota and then at its
// rate quota is refused at once with 429, while umbrella, running at the
// same moment, is served every time.
func TestQuotasIsolateTenants(t *testing.T) {
	d := startDaemon(t, func(c *Config) {
		c.Supervisor.PoolSize = 2
		c.Tenants[0].Concurrency = 1
		c.Tenants[0].Rate = 0.01
		c.Tenants[0].Burst = 3
	})
	// Concurrency: acme's one slot is held.
	d.hold(t, acmeToken)
	var wg sync.WaitGroup
	errs := make(chan string, 40)
	for range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			r, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`)
			if r.StatusCode != 429 || envelope(t, b).Error.Kind != KindConcurrency {
				errs <- fmt.Sprintf("acme over its concurrency: %d %s", r.StatusCode, b)
			}
		}()
		go func() {
			defer wg.Done()
			r, b := d.call(t, "POST", "/v1/executions", umbrellaToken, `{"code":"return 2"}`)
			if res := envelope(t, b); r.StatusCode != 200 || !res.OK {
				errs <- fmt.Sprintf("umbrella while acme is at its quota: %d %s", r.StatusCode, b)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if v := d.metric(t, `warden_quota_rejections_total{quota="concurrency",tenant="acme"}`); v != 4 {
		t.Errorf("concurrency rejections metric %v, want 4", v)
	}
	// Rate: the hold took one token of acme's burst of 3; two more pass
	// (one at a time), then the bucket is empty for ~100s.
	for i := range 3 {
		r, b := d.call(t, "POST", "/v1/executions", umbrellaToken, `{"code":"return 2"}`)
		if r.StatusCode != 200 {
			t.Fatalf("umbrella %d: %d %s", i, r.StatusCode, b)
		}
	}
	d.srv.execs.abortAll("test")
	waitFor(t, 5*time.Second, "acme's held execution to end", func() bool { return d.srv.execs.live() == 0 })
	for i := range 2 {
		if r, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`); r.StatusCode != 200 {
			t.Fatalf("acme's request %d within its burst: %d %s", i, r.StatusCode, b)
		}
	}
	r, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`)
	if r.StatusCode != 429 || envelope(t, b).Error.Kind != KindRate || r.Header.Get("Retry-After") == "" {
		t.Fatalf("acme past its burst: %d %q %s", r.StatusCode, r.Header.Get("Retry-After"), b)
	}
	if r, b := d.call(t, "POST", "/v1/executions", umbrellaToken, `{"code":"return 2"}`); r.StatusCode != 200 {
		t.Fatalf("umbrella while acme is over its rate: %d %s", r.StatusCode, b)
	}
}

// TestTenantCapsClamp: a limit over the tenant's cap is clamped to it and
// named in clamped; a tenant cap over the supervisor's is refused.
func TestTenantCapsClamp(t *testing.T) {
	d := startDaemon(t, func(c *Config) { c.Tenants[0].Caps = LimitsConfig{TimeoutMS: 200} })
	_, b := d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1","limits":{"timeout_ms":5000}}`)
	res := envelope(t, b)
	if !res.OK || res.Limits.Timeout != 200*time.Millisecond || fmt.Sprint(res.Clamped) != "[timeout_ms]" {
		t.Fatalf("%s", b)
	}
	cfg := testConfig()
	cfg.Tenants[0].Caps = LimitsConfig{TimeoutMS: 31000}
	if err := d.Reload(cfg); err == nil || !strings.Contains(err.Error(), "tenants[0].caps") {
		t.Fatalf("a tenant cap above the supervisor's: %v", err)
	}
}

// TestReload: a good reload adds a tenant from the tokens file without
// touching an execution in flight; a bad one is refused and the old
// tenants stay.
func TestReload(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte("# tenants\nacme "+testutil.TokenSHA256(acmeToken)+"\n"), 0o600)
	base := func() Config {
		c := testConfig()
		c.Tenants = nil
		c.TokensFile = tokens
		return c
	}
	d := startDaemon(t, func(c *Config) { *c = base() })
	id := d.hold(t, acmeToken)
	if r, _ := d.call(t, "POST", "/v1/executions", umbrellaToken, `{"code":"return 1"}`); r.StatusCode != 401 {
		t.Fatalf("umbrella before reload: %d", r.StatusCode)
	}
	os.WriteFile(tokens, []byte("acme "+testutil.TokenSHA256(acmeToken)+"\numbrella "+testutil.TokenSHA256(umbrellaToken)+"\n"), 0o600)
	if err := d.Reload(base()); err != nil {
		t.Fatal(err)
	}
	if r, b := d.call(t, "POST", "/v1/executions", umbrellaToken, `{"code":"return 1"}`); r.StatusCode != 200 {
		t.Fatalf("umbrella after reload: %d %s", r.StatusCode, b)
	}
	os.WriteFile(tokens, []byte("umbrella not-a-hash\n"), 0o600)
	err := d.Reload(base())
	if err == nil || !strings.Contains(err.Error(), "line 1") || strings.Contains(err.Error(), "not-a-hash") {
		t.Fatalf("a bad tokens file: %v (want the line named, not its content)", err)
	}
	if r, _ := d.call(t, "POST", "/v1/executions", umbrellaToken, `{"code":"return 1"}`); r.StatusCode != 200 {
		t.Fatalf("umbrella after a refused reload: %d", r.StatusCode)
	}
	// The held execution lived through both reloads.
	if r, b := d.call(t, "POST", "/v1/executions/"+id+"/data/1", acmeToken, `{"value":1}`); r.StatusCode != 204 {
		t.Fatalf("answer after reloads: %d %s", r.StatusCode, b)
	}
}

// TestAnonymous: with anonymous set, a request without a token acts as
// that tenant on loopback; without it, it is 401.
func TestAnonymous(t *testing.T) {
	d := startDaemon(t, func(c *Config) { c.Anonymous = "guest" })
	r, b := d.call(t, "POST", "/v1/executions", "", `{"code":"return 7"}`)
	if res := envelope(t, b); r.StatusCode != 200 || string(res.Value) != "7" {
		t.Fatalf("anonymous: %d %s", r.StatusCode, b)
	}
	if r, _ := d.call(t, "POST", "/v1/executions", "wrong", `{"code":"return 7"}`); r.StatusCode != 401 {
		t.Fatalf("a wrong token is not anonymous: %d", r.StatusCode)
	}
}

func TestConfigRejectsNamingTheKey(t *testing.T) {
	tests := []struct {
		name, yaml, key string
	}{
		{"unknown key", "listen: 127.0.0.1:1\nlisten_addr: x\n", "listen_addr"},
		{"unknown nested key", "supervisor:\n  pool: 3\n", "pool"},
		{"wrong type", "supervisor:\n  pool_size: many\n", "many"},
		{"bad duration", "drain_timeout: soon\n", "soon"},
		{"negative", "supervisor:\n  pool_size: -1\n", "supervisor.pool_size"},
		{"zero timeout", "body_timeout: 0s\n", "body_timeout"},
		{"default over cap", "supervisor:\n  defaults: {timeout_ms: 5000}\n  caps: {timeout_ms: 1000}\n", "timeout_ms"},
		{"tenant cap over supervisor cap", "tenants:\n  - name: a\n    caps: {memory_bytes: 1073741824}\n", "tenants[0].caps"},
		{"tenant memory cap below the minimum", "tenants:\n  - name: a\n    caps: {memory_bytes: 1000}\n", "tenants[0].caps"},
		{"bad tenant hash", "tenants:\n  - name: a\n    token_sha256: abc\n", "tenants[0].token_sha256"},
		{"bad webhook", "tenants:\n  - name: a\n    webhook: {url: ftp://x}\n", "tenants[0].webhook.url"},
		{"duplicate tenant", "tenants:\n  - name: a\n  - name: a\n", "tenants[1].name"},
		{"anonymous off loopback", "listen: 0.0.0.0:8080\nanonymous: guest\n", "anonymous"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			err := ParseConfig([]byte(tt.yaml), &cfg)
			if err == nil {
				err = cfg.Validate()
				if err == nil {
					_, err = buildTenants(&cfg, contract.DefaultLimits, contract.DefaultCaps, nil)
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("error %v, want one naming %q", err, tt.key)
			}
		})
	}
	cfg := DefaultConfig()
	if err := cfg.SetKey("supervisor.defaults.timeout_ms", "x"); err == nil || !strings.Contains(err.Error(), "supervisor.defaults.timeout_ms") {
		t.Fatalf("SetKey: %v", err)
	}
	if err := cfg.SetKey("nope", "1"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("SetKey unknown: %v", err)
	}
	if err := cfg.SetKey("supervisor.queue_timeout", "2s"); err != nil || cfg.Supervisor.QueueTimeout != 2*time.Second {
		t.Fatalf("SetKey: %v %v", err, cfg.Supervisor.QueueTimeout)
	}
}

// TestTokensNeverLogged: the daemon's logs (at debug level) and metrics
// never carry a token or its hash, even a wrong token.
func TestTokensNeverLogged(t *testing.T) {
	var logs testutil.SyncBuffer
	d := startDaemonLog(t, nil, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	d.call(t, "POST", "/v1/executions", "wrong-secret-token", `{"code":"return 1"}`)
	d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1"}`)
	_, b := d.call(t, "GET", "/metrics", "", nil)
	for _, tok := range []string{"wrong-secret-token", acmeToken, testutil.TokenSHA256(acmeToken)} {
		if strings.Contains(string(b), tok) {
			t.Fatalf("the metrics hold a token or its hash")
		}
		if strings.Contains(logs.String(), tok) {
			t.Fatalf("the logs hold a token or its hash")
		}
	}
}
