package engine

import (
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

func TestZZPerf(t *testing.T) {
	for _, code := range []string{
		`const path = "a/".repeat(1 << 16); new URL("http://h/" + path); return 1`,
		`const path = "a/".repeat(1 << 17); new URL("http://h/" + path); return 1`,
		`new URL("http://h/?" + "q".repeat(1 << 20)); return 1`,
		`new URL("http://" + "b".repeat(1 << 16) + ".c/"); return 1`,
		`new URL("http://" + "b".repeat(1 << 17) + ".c/"); return 1`,
		`const parts = []; for (let i = 0; i < 100000; i++) parts.push("k" + (99999 - i) + "=" + i); const p = new URLSearchParams(parts.join("&")); return 1`,
		`const parts = []; for (let i = 0; i < 100000; i++) parts.push("k" + (99999 - i) + "=" + i); const p = new URLSearchParams(parts.join("&")); p.sort(); return 1`,
	} {
		start := time.Now()
		res := run(t, contract.Request{Code: code, Limits: contract.Limits{Timeout: 5e9, MemoryBytes: 256 << 20}}, RunOptions{})
		t.Logf("%v %v %s %+v", time.Since(start), res.OK, res.Value, res.Error)
	}
}
