package server

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestRegisteredModulesPerTenant: modules_dir registers modules; a
// tenant imports those its allow-list names, another is refused with
// the list of what it may import, and TypeScript and the module form
// come through the API.
func TestRegisteredModulesPerTenant(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"util.js": `export const twice = (n) => n * 2;`, "secret.js": `export default "not for umbrella";`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := startDaemon(t, func(c *Config) {
		c.Supervisor.ModulesDir = dir
		c.Tenants[1].Modules = []string{"util"}
	})
	body := `{"code":"import { twice } from 'util';\nexport default (input: { n: number }) => twice(input.n);","language":"typescript","input":{"n":21}}`
	for _, tok := range []string{acmeToken, umbrellaToken} {
		r, b := d.call(t, "POST", "/v1/executions", tok, body)
		if res := envelope(t, b); r.StatusCode != http.StatusOK || !res.OK || string(res.Value) != "42" {
			t.Fatalf("%d %s", r.StatusCode, b)
		}
	}
	// TypeScript's children are a profile of their own, which the
	// metrics tell apart (two profiles of one bucket once made /metrics
	// a 500).
	if v := d.metric(t, fmt.Sprintf(`warden_profile_children{language="typescript",memory_bytes="%d",state="busy"}`, contract.DefaultLimits.MemoryBytes)); v < 0 {
		t.Fatal("no TypeScript profile in /metrics")
	}
	r, b := d.call(t, "POST", "/v1/executions", umbrellaToken, `{"code":"import s from 'secret'; export default s;"}`)
	res := envelope(t, b)
	if res.OK || !strings.Contains(res.Error.Message, `cannot import module "secret"`) || !strings.Contains(res.Error.Message, "(util)") {
		t.Fatalf("umbrella imported secret: %d %s", r.StatusCode, b)
	}
	r, b = d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"import s from 'secret'; export default s;","format":"module"}`)
	if res := envelope(t, b); !res.OK || string(res.Value) != `"not for umbrella"` {
		t.Fatalf("acme (modules: *): %d %s", r.StatusCode, b)
	}
	r, b = d.call(t, "POST", "/v1/executions", acmeToken, `{"code":"return 1","language":"coffeescript"}`)
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "ContractError") {
		t.Fatalf("an unknown language: %d %s", r.StatusCode, b)
	}
}
