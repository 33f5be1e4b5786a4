package engine

import (
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestWarmTypeScript: the warm-up source transforms, and runs as the
// TypeScript it is (so that it keeps exercising the syntax it names).
func TestWarmTypeScript(t *testing.T) {
	if err := WarmTypeScript(); err != nil {
		t.Fatal(err)
	}
	check(t, run(t, contract.Request{Code: warmUpTypeScript, Language: contract.LanguageTypeScript}, RunOptions{}),
		want{value: `{"n":1,"first":"1","picked":{"x":1},"kinds":["a","b"],"size":0}`})
}
