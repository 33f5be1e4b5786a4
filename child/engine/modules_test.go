package engine

import (
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestModuleSpecifierHasALength: QuickJS hands the loader a specifier as
// a C string, so "m\0zzz" arrives as "m"; the loader reads its real
// length and never takes it for module m.
func TestModuleSpecifierHasALength(t *testing.T) {
	mods := map[string]string{"m": "export default 'loaded m'", "é": "export default 'loaded é'"}
	tests := []struct{ name, code string }{
		{"dynamic", `return (await import("m\0zzz")).default`},
		{"dynamic, other control character", `return (await import("m\x7f")).default`},
		{"dynamic, NUL at the end", `return (await import("m\0")).default`},
		{"dynamic, non-ASCII", `return (await import("é\0zzz")).default`},
		{"dynamic, wide", `return (await import("é\0\u4e2d")).default`},
		{"static", `const {default: d} = await import("data"); return d`},
	}
	mods["data"] = `import d from "m\0zzz"; export default d`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, run(t, contract.Request{Code: tt.code, Modules: mods}, RunOptions{}),
				want{errType: contract.UserCodeError, msg: "cannot find module"})
		})
	}
	res := run(t, contract.Request{Code: `return (await import("m\0zzz")).default`, Modules: mods}, RunOptions{})
	if want := `cannot find module "m\x00zzz"`; !strings.Contains(res.Error.Message, want) {
		t.Fatalf("message %q does not name the specifier as %s", res.Error.Message, want)
	}
	// The names without the NUL still load.
	check(t, run(t, contract.Request{Code: `return (await import("m")).default + (await import("é")).default`, Modules: mods}, RunOptions{}),
		want{value: `"loaded mloaded é"`})
}
