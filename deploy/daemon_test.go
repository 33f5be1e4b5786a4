package deploy

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/server"
)

// daemonConfig reads a config file the way `warden serve --config FILE
// ARGS...` does (the file over the defaults, then each --KEY VALUE flag;
// --tokens is --tokens_file) and validates it: an unknown key or a bad
// value fails here as it would fail the daemon's start.
func daemonConfig(t *testing.T, file string, args []string) server.Config {
	t.Helper()
	cfg := server.DefaultConfig()
	if err := server.LoadConfigFile(file, &cfg); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for i := 0; i < len(args); i++ {
		key, ok := strings.CutPrefix(args[i], "--")
		if !ok {
			t.Fatalf("argument %q is not a flag", args[i])
		}
		value := ""
		if k, v, eq := strings.Cut(key, "="); eq {
			key, value = k, v
		} else if i+1 < len(args) {
			i++
			value = args[i]
		}
		switch key {
		case "config":
			continue
		case "tokens":
			key = "tokens_file"
		}
		if err := cfg.SetKey(key, value); err != nil {
			t.Fatalf("flag --%s: %v", key, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("%s %v: %v", file, args, err)
	}
	return cfg
}

// TestManifestsRunTheDaemon starts the real daemon (a loopback listener,
// the supervisor, real children) on the ConfigMap's config with the
// Deployment's arguments and the Secret's tokens file, and asks it the
// liveness and readiness probes' paths: 200 each once the pool is warm.
// Only the listen address (a free loopback port instead of 0.0.0.0:8080),
// the pool size and the cache directory are changed for the test.
func TestManifestsRunTheDaemon(t *testing.T) {
	m := readManifests(t)
	dep := decodeSpec[deploymentSpec](t, m["Deployment"])
	c := dep.Template.Spec.Containers[0]
	dir := t.TempDir()
	cfgPath := flagValue(c.Args, "--config")
	file := filepath.Join(dir, "config.yaml")
	os.WriteFile(file, []byte(m["ConfigMap"].Data[filepath.Base(cfgPath)]), 0o600)
	cfg := daemonConfig(t, file, c.Args)

	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte(m["Secret"].StringData[filepath.Base(cfg.TokensFile)]), 0o600)
	cfg.TokensFile = tokens
	cfg.Listen = "127.0.0.1:0"
	cfg.Supervisor.PoolSize = 1
	cfg.Supervisor.CacheDir = cacheDir
	d, err := server.Start(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	if err != nil {
		t.Fatalf("the daemon refused the manifests' config: %v", err)
	}
	defer func() {
		if err := d.Shutdown(); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}()
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + d.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return resp.StatusCode, string(b)
	}
	if code, body := get(c.LivenessProbe.HTTPGet.Path); code != 200 {
		t.Errorf("liveness probe %s: %d %s", c.LivenessProbe.HTTPGet.Path, code, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.Server().WaitWarm(ctx); err != nil {
		t.Fatalf("the pool did not warm: %v", err)
	}
	if code, body := get(c.ReadinessProbe.HTTPGet.Path); code != 200 {
		t.Errorf("readiness probe %s: %d %s", c.ReadinessProbe.HTTPGet.Path, code, body)
	}
}

// The config the systemd unit points at is one the daemon takes, with
// the unit's ExecStart arguments, and its drain ends before the unit's
// stop timeout.
func TestSystemdConfig(t *testing.T) {
	unit, err := os.ReadFile("systemd/warden.service")
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(unitDirective(t, unit, "ExecStart"))
	if len(args) < 2 || args[1] != "serve" || flagValue(args, "--config") != "/etc/warden/config.yaml" {
		t.Fatalf("ExecStart %v", args)
	}
	cfg := daemonConfig(t, "systemd/config.yaml", args[2:])
	stop, err := time.ParseDuration(unitDirective(t, unit, "TimeoutStopSec"))
	if err != nil || cfg.DrainTimeout >= stop {
		t.Errorf("drain_timeout %v must be shorter than TimeoutStopSec %v (%v)", cfg.DrainTimeout, stop, err)
	}
	if cfg.Supervisor.CacheDir != "" {
		t.Errorf("supervisor.cache_dir %q: the unit's CacheDirectory= makes the root default, /var/cache/warden/wazero", cfg.Supervisor.CacheDir)
	}
	if state := "/var/lib/" + unitDirective(t, unit, "StateDirectory"); !strings.HasPrefix(cfg.Park.Dir, state+"/") {
		t.Errorf("park.dir %q is not in the unit's StateDirectory %s: ProtectSystem=strict leaves it read-only", cfg.Park.Dir, state)
	}
}
