package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"reflect"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/regfile"
	"github.com/wardenhq/warden/supervisor"
)

// Config is the daemon's configuration, as `warden serve` reads it from
// a YAML file and its flags. Every scalar key is a flag of the same
// dotted name (SetKey); the tenants list is the file's alone.
type Config struct {
	// Listen is the TCP address served when no socket is passed by
	// systemd (LISTEN_FDS). Default 127.0.0.1:8080.
	Listen string `yaml:"listen"`
	// TokensFile holds "TENANT SHA256-HEX-OF-TOKEN" lines.
	TokensFile string `yaml:"tokens_file"`
	// Anonymous names the tenant a request with no token acts as; "" is
	// off. It is honoured on loopback connections only unless
	// AnonymousNonLoopback.
	Anonymous            string `yaml:"anonymous"`
	AnonymousNonLoopback bool   `yaml:"anonymous_non_loopback"`
	// DrainTimeout is how long in-flight executions may finish after
	// SIGTERM before they are aborted. Default 30s.
	DrainTimeout time.Duration `yaml:"drain_timeout"`
	// HeaderTimeout and BodyTimeout bound reading a request's headers and
	// its body (slow clients). Defaults 5s and 10s.
	HeaderTimeout time.Duration `yaml:"header_timeout"`
	BodyTimeout   time.Duration `yaml:"body_timeout"`
	// WriteTimeout bounds each write to a client (an envelope, one
	// event): a client slower than that loses its connection, never the
	// execution. Default 10s.
	WriteTimeout time.Duration `yaml:"write_timeout"`
	// BodyBudgetBytes bounds the bytes of request bodies the daemon reads
	// at once, all tenants together; a body that does not fit is refused
	// (503) before it is read. A body larger than the budget is read
	// alone. Default DefaultBodyBudgetBytes.
	BodyBudgetBytes int64 `yaml:"body_budget_bytes"`
	// Supervisor maps onto supervisor.Config.
	Supervisor SupervisorConfig `yaml:"supervisor"`
	// Park configures parked executions: their store and their key.
	Park ParkConfig `yaml:"park"`
	// Tenants lists the tenants with their caps and quotas. A tenant that
	// only the tokens file names gets the supervisor's caps, no quota and
	// no module.
	Tenants []TenantConfig `yaml:"tenants"`
}

// SupervisorConfig is the part of supervisor.Config the daemon exposes.
type SupervisorConfig struct {
	PoolSize    int    `yaml:"pool_size"`
	MaxChildren int    `yaml:"max_children"`
	CacheDir    string `yaml:"cache_dir"`
	// WasmFile is the QuickJS module's file, for a binary built
	// without it (supervisor.Config.WasmFile; or `warden setup`).
	WasmFile     string        `yaml:"wasm_file"`
	QueueTimeout time.Duration `yaml:"queue_timeout"`
	Defaults     LimitsConfig  `yaml:"defaults"`
	Caps         LimitsConfig  `yaml:"caps"`
	// ModulesDir is a directory of host-approved modules (.js, .mjs,
	// .ts; `make modules` writes one) registered with the supervisor;
	// MaxModulesBytes caps their size (supervisor.Config's). Tenants
	// import those their modules allow-list names.
	ModulesDir      string `yaml:"modules_dir"`
	MaxModulesBytes int64  `yaml:"max_modules_bytes"`
}

// LimitsConfig is contract.Limits under its JSON names; zero means unset.
type LimitsConfig struct {
	TimeoutMS    int64 `yaml:"timeout_ms"`
	MemoryBytes  int64 `yaml:"memory_bytes"`
	StackBytes   int64 `yaml:"stack_bytes"`
	OutputBytes  int64 `yaml:"output_bytes"`
	CodeBytes    int64 `yaml:"code_bytes"`
	DataRequests int64 `yaml:"data_requests"`
	DataBytes    int64 `yaml:"data_bytes"`
	Timers       int64 `yaml:"timers"`
	ParkBytes    int64 `yaml:"park_bytes"`
}

// maxTimeoutMS is the largest timeout_ms a time.Duration holds.
const maxTimeoutMS = math.MaxInt64 / int64(time.Millisecond)

// check refuses a timeout_ms that would wrap when converted to a
// duration (9223372036854776 ms and more): converted, it could come out
// small and positive, a limit nobody configured. Sizes need no check:
// the YAML decoder and SetKey refuse integers over int64.
func (l LimitsConfig) check(key string) error {
	if l.TimeoutMS > maxTimeoutMS {
		return fmt.Errorf("config: %s.timeout_ms: %d is over the largest timeout, %d ms", key, l.TimeoutMS, maxTimeoutMS)
	}
	return nil
}

// Limits converts l to the contract's type.
func (l LimitsConfig) Limits() contract.Limits {
	return contract.Limits{Timeout: time.Duration(l.TimeoutMS) * time.Millisecond, MemoryBytes: l.MemoryBytes,
		StackBytes: l.StackBytes, OutputBytes: l.OutputBytes, CodeBytes: l.CodeBytes,
		DataRequests: l.DataRequests, DataBytes: l.DataBytes, Timers: l.Timers, ParkBytes: l.ParkBytes}
}

func limitsConfig(l contract.Limits) LimitsConfig {
	return LimitsConfig{TimeoutMS: l.Timeout.Milliseconds(), MemoryBytes: l.MemoryBytes, StackBytes: l.StackBytes,
		OutputBytes: l.OutputBytes, CodeBytes: l.CodeBytes, DataRequests: l.DataRequests, DataBytes: l.DataBytes,
		Timers: l.Timers, ParkBytes: l.ParkBytes}
}

// TenantConfig is one tenant.
type TenantConfig struct {
	Name string `yaml:"name"`
	// TokenSHA256 is the hex SHA-256 of the tenant's bearer token.
	TokenSHA256 string       `yaml:"token_sha256"`
	Caps        LimitsConfig `yaml:"caps"`
	// Concurrency caps its executions in flight; 0 is no quota.
	Concurrency int `yaml:"concurrency"`
	// Rate (executions per second) and Burst are its token bucket; a
	// zero rate is no quota, a zero burst is max(1, rate).
	Rate  float64 `yaml:"rate"`
	Burst int     `yaml:"burst"`
	// Modules is the allow-list of module specifiers: the request's own
	// modules it may send, and the registered modules (modules_dir) it
	// may import; "*" allows any.
	Modules []string       `yaml:"modules"`
	Webhook *WebhookConfig `yaml:"webhook"`
	// BodyBudgetBytes bounds the bytes of the tenant's request bodies
	// read at once (429 past it). Default half of the daemon's.
	BodyBudgetBytes int64 `yaml:"body_budget_bytes"`
	// ParkAfter parks an execution whose request allows it (park: true)
	// when a data request waits longer than this for its answer over the
	// answer endpoint. 0: only when the client answers {"park": true}.
	ParkAfter time.Duration `yaml:"park_after"`
}

// WebhookConfig makes the daemon answer a tenant's data requests by
// POSTing them to URL.
type WebhookConfig struct {
	URL string `yaml:"url"`
	// Timeout bounds each call. Default 2s.
	Timeout time.Duration `yaml:"timeout"`
}

// DefaultConfig is the configuration with no file and no flag.
func DefaultConfig() Config {
	return Config{
		Listen:          "127.0.0.1:8080",
		DrainTimeout:    30 * time.Second,
		HeaderTimeout:   5 * time.Second,
		BodyTimeout:     10 * time.Second,
		WriteTimeout:    10 * time.Second,
		BodyBudgetBytes: DefaultBodyBudgetBytes,
		Supervisor:      SupervisorConfig{PoolSize: 2, QueueTimeout: 5 * time.Second},
	}
}

// maxConfigBytes bounds the configuration file read.
const maxConfigBytes = 1 << 20

// LoadConfigFile reads path over cfg: keys the file sets replace cfg's.
// An unknown key or a value of the wrong type is an error naming it.
func LoadConfigFile(path string, cfg *Config) error {
	// A regular file only: a named pipe without a writer would block
	// the daemon's start for ever (regfile).
	b, err := regfile.ReadFile(path, maxConfigBytes)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return ParseConfig(b, cfg)
}

// ParseConfig decodes YAML text over cfg (see LoadConfigFile): one
// document (or none), held to checkYAML's strictness, then decoded with
// unknown keys refused.
func ParseConfig(b []byte, cfg *Config) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return fmt.Errorf("config: %w", err)
	}
	if err := dec.Decode(new(yaml.Node)); !errors.Is(err, io.EOF) {
		return fmt.Errorf("config: more than one YAML document (a second '---'): the file is one document")
	}
	if err := checkYAML(&doc); err != nil {
		return err
	}
	dec = yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// Marshal returns cfg as the YAML a file would hold (--print-config).
func (cfg Config) Marshal() ([]byte, error) { return yaml.Marshal(cfg) }

// Keys lists every scalar key, dotted (supervisor.defaults.timeout_ms),
// with its value in cfg as text: one flag each.
func (cfg *Config) Keys() []KeyValue {
	var out []KeyValue
	walkKeys(reflect.ValueOf(cfg).Elem(), "", func(key string, v reflect.Value) {
		out = append(out, KeyValue{Key: key, Value: formatValue(v)})
	})
	return out
}

// KeyValue is one configuration key and its value as text.
type KeyValue struct{ Key, Value string }

// SetKey sets the scalar key (as Keys names it) from text; an unknown key
// or a bad value is an error naming the key.
func (cfg *Config) SetKey(key, text string) error {
	var found bool
	var err error
	walkKeys(reflect.ValueOf(cfg).Elem(), "", func(k string, v reflect.Value) {
		if k != key {
			return
		}
		found = true
		err = setValue(v, text)
	})
	switch {
	case !found:
		return fmt.Errorf("config: unknown key %q", key)
	case err != nil:
		return fmt.Errorf("config: %s: %w", key, err)
	}
	return nil
}

var durationType = reflect.TypeOf(time.Duration(0))

// walkKeys calls fn for every scalar field under v, named by its yaml
// path; lists and pointers (tenants, webhooks) are not flags.
func walkKeys(v reflect.Value, prefix string, fn func(string, reflect.Value)) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		key := prefix + name
		fv := v.Field(i)
		switch fv.Kind() {
		case reflect.Struct:
			walkKeys(fv, key+".", fn)
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64:
			fn(key, fv)
		}
	}
}

func formatValue(v reflect.Value) string {
	if v.Type() == durationType {
		return time.Duration(v.Int()).String()
	}
	return fmt.Sprint(v.Interface())
}

func setValue(v reflect.Value, text string) error {
	switch {
	case v.Type() == durationType:
		d, err := time.ParseDuration(text)
		if err != nil {
			return fmt.Errorf("want a duration like 5s: %w", err)
		}
		v.SetInt(int64(d))
	case v.Kind() == reflect.String:
		v.SetString(text)
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", text)
		}
		v.SetBool(b)
	case v.Kind() == reflect.Int || v.Kind() == reflect.Int64:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer, got %q", text)
		}
		v.SetInt(n)
	case v.Kind() == reflect.Float64:
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return fmt.Errorf("want a number, got %q", text)
		}
		v.SetFloat(n)
	}
	return nil
}

// Validate checks every value, naming the key of the first bad one, and
// resolves the supervisor's limits.
func (cfg *Config) Validate() error {
	if cfg.Listen == "" {
		return errors.New("config: listen: empty")
	}
	if _, _, err := net.SplitHostPort(cfg.Listen); err != nil {
		return fmt.Errorf("config: listen: %w", err)
	}
	for _, d := range []struct {
		key string
		v   time.Duration
	}{{"drain_timeout", cfg.DrainTimeout}, {"header_timeout", cfg.HeaderTimeout}, {"body_timeout", cfg.BodyTimeout}, {"write_timeout", cfg.WriteTimeout}, {"supervisor.queue_timeout", cfg.Supervisor.QueueTimeout}} {
		if d.v <= 0 {
			return fmt.Errorf("config: %s: must be positive, got %v", d.key, d.v)
		}
	}
	if cfg.BodyBudgetBytes <= 0 {
		return fmt.Errorf("config: body_budget_bytes: must be positive, got %d", cfg.BodyBudgetBytes)
	}
	if cfg.Supervisor.PoolSize < 0 {
		return fmt.Errorf("config: supervisor.pool_size: negative (%d)", cfg.Supervisor.PoolSize)
	}
	if cfg.Supervisor.MaxChildren < 0 {
		return fmt.Errorf("config: supervisor.max_children: negative (%d)", cfg.Supervisor.MaxChildren)
	}
	if err := cfg.checkTimeouts(); err != nil {
		return err
	}
	defaults, caps, err := contract.ConfigLimits(cfg.Supervisor.Defaults.Limits(), cfg.Supervisor.Caps.Limits())
	if err != nil {
		return fmt.Errorf("config: supervisor.defaults/caps: %w", err)
	}
	// Resolved here, so that --print-config shows the limits in force.
	cfg.Supervisor.Defaults, cfg.Supervisor.Caps = limitsConfig(defaults), limitsConfig(caps)
	if cfg.Anonymous != "" && !cfg.AnonymousNonLoopback && !loopbackAddr(cfg.Listen) {
		return fmt.Errorf("config: anonymous: only allowed with a loopback listen address (listen is %s) unless anonymous_non_loopback is true", cfg.Listen)
	}
	_, err = cfg.tenantPolicies()
	return err
}

// checkTimeouts checks every limits block's timeout_ms (check).
func (cfg *Config) checkTimeouts() error {
	if err := cfg.Supervisor.Defaults.check("supervisor.defaults"); err != nil {
		return err
	}
	if err := cfg.Supervisor.Caps.check("supervisor.caps"); err != nil {
		return err
	}
	for i, t := range cfg.Tenants {
		if err := t.Caps.check(fmt.Sprintf("tenants[%d].caps", i)); err != nil {
			return err
		}
	}
	return nil
}

// SupervisorConfig returns the supervisor's configuration.
func (cfg *Config) supervisorConfig() supervisor.Config {
	s := cfg.Supervisor
	return supervisor.Config{PoolSize: s.PoolSize, MaxChildren: s.MaxChildren, CacheDir: s.CacheDir, WasmFile: s.WasmFile,
		QueueTimeout: s.QueueTimeout, Defaults: s.Defaults.Limits(), Caps: s.Caps.Limits(),
		ModulesDir: s.ModulesDir, MaxModulesBytes: s.MaxModulesBytes}
}

// loopbackAddr reports whether a listen address is on a loopback
// interface (an empty host listens on all of them: not loopback).
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
