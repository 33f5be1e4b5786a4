package server

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/regfile"
)

// tenant is one tenant's policy, as of the last (re)load, and its state,
// which outlives reloads (executions in flight, its token bucket).
type tenant struct {
	name string
	// caps is the most it may ask for of each limit (never above the
	// supervisor's), defaults what it gets for a limit it leaves unset.
	caps, defaults contract.Limits
	concurrency    int
	anyModule      bool
	modules        map[string]bool
	webhook        *WebhookConfig
	// parkAfter parks an execution that may park when a data answer over
	// the endpoint takes longer (0: never by time).
	parkAfter time.Duration
	// bodyBudget bounds the bytes of its bodies being read at once.
	bodyBudget int64
	st         *tenantState
}

// tenantState is what a tenant's quotas count.
type tenantState struct {
	inflight atomic.Int64
	bodies   byteBudget
	mu       sync.Mutex
	limiter  *rate.Limiter // nil: no rate quota
}

// token is one accepted bearer token, kept only as its SHA-256.
type token struct {
	sum    [sha256.Size]byte
	tenant string
}

// tenantSet is the tenants of one (re)load; the server swaps it whole.
type tenantSet struct {
	byName    map[string]*tenant
	tokens    []token
	anonymous *tenant
}

// authenticate returns the tenant whose token is tok, comparing tok's
// hash with every token's in constant time (no early exit), or nil.
func (ts *tenantSet) authenticate(tok string) *tenant {
	sum := sha256.Sum256([]byte(tok))
	var found *tenant
	for i := range ts.tokens {
		if subtle.ConstantTimeCompare(sum[:], ts.tokens[i].sum[:]) == 1 {
			found = ts.byName[ts.tokens[i].tenant]
		}
	}
	return found
}

// imports is t's allow-list of registered modules, for
// contract.Request.Imports: nil when it allows any.
func (t *tenant) imports() []string {
	if t.anyModule {
		return nil
	}
	names := make([]string, 0, len(t.modules))
	for m := range t.modules {
		names = append(names, m)
	}
	slices.Sort(names)
	return names
}

// allowModules reports the first module specifier of mods t may not use.
func (t *tenant) forbiddenModule(mods map[string]string) (string, bool) {
	if t.anyModule {
		return "", false
	}
	for name := range mods {
		if !t.modules[name] {
			return name, true
		}
	}
	return "", false
}

// acquire takes one of t's concurrency slots and one token of its rate
// bucket. On refusal, reason is "concurrency" or "rate" and retry how
// long to wait; release must be called once after a success.
func (t *tenant) acquire(now time.Time) (release func(), reason string, retry time.Duration) {
	if t.concurrency > 0 {
		if t.st.inflight.Add(1) > int64(t.concurrency) {
			t.st.inflight.Add(-1)
			return nil, "concurrency", time.Second
		}
	} else {
		t.st.inflight.Add(1)
	}
	t.st.mu.Lock()
	lim := t.st.limiter
	t.st.mu.Unlock()
	if lim != nil {
		r := lim.ReserveN(now, 1)
		if !r.OK() {
			t.st.inflight.Add(-1)
			return nil, "rate", time.Second
		}
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			t.st.inflight.Add(-1)
			return nil, "rate", d
		}
	}
	var once sync.Once
	return func() { once.Do(func() { t.st.inflight.Add(-1) }) }, "", 0
}

// setRate gives st the rate bucket of policy p (none when the tenant has
// no policy or no rate), keeping the bucket's level across a reload.
func (st *tenantState) setRate(hasPolicy bool, p TenantConfig) {
	var lim *rate.Limiter
	if hasPolicy && p.Rate > 0 {
		burst := p.Burst
		if burst == 0 {
			burst = max(1, int(math.Ceil(p.Rate)))
		}
		lim = rate.NewLimiter(rate.Limit(p.Rate), burst)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case lim == nil:
		st.limiter = nil
	case st.limiter == nil:
		st.limiter = lim
	default:
		st.limiter.SetLimit(lim.Limit())
		st.limiter.SetBurst(lim.Burst())
	}
}

// buildTenants makes the tenant set of cfg and its tokens file, keeping
// the state of tenants old already had (nil at start). supDefaults and
// supCaps are the supervisor's resolved limits.
func buildTenants(cfg *Config, supDefaults, supCaps contract.Limits, old *tenantSet) (*tenantSet, error) {
	pols, err := cfg.tenantPolicies()
	if err != nil {
		return nil, err
	}
	ts := &tenantSet{byName: map[string]*tenant{}}
	get := func(name string) *tenant {
		if t := ts.byName[name]; t != nil {
			return t
		}
		t := &tenant{name: name, caps: supCaps, defaults: supDefaults,
			bodyBudget: max(1, cfg.bodyBudget()/defaultTenantBodyBudgetDivisor)}
		if p, ok := pols[name]; ok {
			if p.BodyBudgetBytes > 0 {
				t.bodyBudget = p.BodyBudgetBytes
			}
			t.caps = p.Caps.Limits().WithDefaults(supCaps)
			t.defaults, _, _ = contract.Resolve(supDefaults, supDefaults, t.caps)
			t.concurrency = p.Concurrency
			t.webhook = p.Webhook
			t.parkAfter = p.ParkAfter
			t.modules = map[string]bool{}
			for _, m := range p.Modules {
				if m == "*" {
					t.anyModule = true
				}
				t.modules[m] = true
			}
		}
		t.st = &tenantState{}
		if old != nil && old.byName[name] != nil {
			t.st = old.byName[name].st
		}
		pol, hasPol := pols[name]
		t.st.setRate(hasPol, pol)
		ts.byName[name] = t
		return t
	}
	for i, p := range cfg.Tenants {
		key := fmt.Sprintf("tenants[%d]", i)
		if err := checkTenantCaps(key, p.Caps.Limits(), supDefaults, supCaps); err != nil {
			return nil, err
		}
		get(p.Name)
		if p.TokenSHA256 != "" {
			sum, err := parseSum(p.TokenSHA256)
			if err != nil {
				return nil, fmt.Errorf("config: %s.token_sha256: %w", key, err)
			}
			ts.tokens = append(ts.tokens, token{sum: sum, tenant: p.Name})
		}
	}
	if cfg.TokensFile != "" {
		toks, err := readTokensFile(cfg.TokensFile)
		if err != nil {
			return nil, err
		}
		for _, tk := range toks {
			get(tk.tenant)
			ts.tokens = append(ts.tokens, tk)
		}
	}
	if cfg.Anonymous != "" {
		ts.anonymous = get(cfg.Anonymous)
	}
	return ts, nil
}

// checkTenantCaps refuses a tenant cap above the supervisor's, negative,
// or one no execution can run under (a memory cap below the minimum).
func checkTenantCaps(key string, caps, supDefaults, supCaps contract.Limits) error {
	if err := contract.CheckCaps(caps, supCaps); err != nil {
		return fmt.Errorf("config: %s.caps: above the supervisor's caps or negative: %w", key, err)
	}
	if _, _, err := contract.Resolve(supDefaults, supDefaults, caps.WithDefaults(supCaps)); err != nil {
		return fmt.Errorf("config: %s.caps: %w", key, err)
	}
	return nil
}

// bodyBudget is the daemon's body budget (a zero Config, as tests make
// it, takes the default).
func (cfg *Config) bodyBudget() int64 {
	if cfg.BodyBudgetBytes > 0 {
		return cfg.BodyBudgetBytes
	}
	return DefaultBodyBudgetBytes
}

// tenantPolicies checks the tenants list and indexes it by name.
func (cfg *Config) tenantPolicies() (map[string]TenantConfig, error) {
	pols := map[string]TenantConfig{}
	for i, p := range cfg.Tenants {
		key := fmt.Sprintf("tenants[%d]", i)
		switch {
		case !validTenantName(p.Name):
			return nil, fmt.Errorf("config: %s.name: want 1-64 of [A-Za-z0-9_.-], got %q", key, p.Name)
		case pols[p.Name].Name != "":
			return nil, fmt.Errorf("config: %s.name: tenant %q listed twice", key, p.Name)
		case p.Concurrency < 0:
			return nil, fmt.Errorf("config: %s.concurrency: negative", key)
		case p.Rate < 0 || math.IsNaN(p.Rate) || math.IsInf(p.Rate, 0):
			return nil, fmt.Errorf("config: %s.rate: want a non-negative number", key)
		case p.Burst < 0:
			return nil, fmt.Errorf("config: %s.burst: negative", key)
		case p.BodyBudgetBytes < 0:
			return nil, fmt.Errorf("config: %s.body_budget_bytes: negative", key)
		}
		if p.TokenSHA256 != "" {
			if _, err := parseSum(p.TokenSHA256); err != nil {
				return nil, fmt.Errorf("config: %s.token_sha256: %w", key, err)
			}
		}
		if w := p.Webhook; w != nil {
			if err := checkWebhookURL(w.URL); err != nil {
				return nil, fmt.Errorf("config: %s.webhook.url: %w", key, err)
			}
			if w.Timeout < 0 {
				return nil, fmt.Errorf("config: %s.webhook.timeout: negative", key)
			}
		}
		pols[p.Name] = p
	}
	return pols, nil
}

func validTenantName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

func parseSum(s string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	b, err := hex.DecodeString(strings.ToLower(s))
	if err != nil || len(b) != sha256.Size {
		return sum, errors.New("want 64 hex digits (the SHA-256 of the token)")
	}
	copy(sum[:], b)
	return sum, nil
}

// maxTokensBytes bounds the tokens file.
const maxTokensBytes = 4 << 20

// readTokensFile reads "TENANT SHA256HEX" lines; '#' starts a comment.
// Errors name the line, never its content (it may hold a secret pasted
// by mistake).
func readTokensFile(path string) ([]token, error) {
	f, err := regfile.Open(path) // not a named pipe: it would block (re)loading
	if err != nil {
		return nil, fmt.Errorf("tokens_file: %w", err)
	}
	defer f.Close()
	var toks []token
	sc := bufio.NewScanner(io.LimitReader(f, maxTokensBytes))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("tokens_file %s line %d: want \"TENANT SHA256-HEX\"", path, n)
		}
		if !validTenantName(fields[0]) {
			return nil, fmt.Errorf("tokens_file %s line %d: bad tenant name", path, n)
		}
		sum, err := parseSum(fields[1])
		if err != nil {
			return nil, fmt.Errorf("tokens_file %s line %d: %w", path, n, err)
		}
		toks = append(toks, token{sum: sum, tenant: fields[0]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tokens_file %s: %w", path, err)
	}
	return toks, nil
}
