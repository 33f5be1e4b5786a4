package engine

import (
	"os"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

func TestZZAttacks(t *testing.T) {
	for _, f := range []string{"resource/url_one_mebibyte.js", "resource/url_search_params_100k.js", "escape/url_search_params_proxy.js",
		"escape/url_search_params_throwing_getter.js", "escape/url_setter_hostile_tostring.js", "escape/url_poisoned_intrinsics.js", "determinism/url_parse_repeatable.js"} {
		src, err := os.ReadFile("../../internal/attacks/corpus/" + f)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res := run(t, contract.Request{Code: string(src)}, RunOptions{})
		t.Logf("%s %v ok=%v value=%s err=%+v stats=%+v", f, time.Since(start), res.OK, res.Value, res.Error, res.Stats)
	}
}
