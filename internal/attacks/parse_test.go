package attacks

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/wardenhq/warden/contract"
)

func TestParseRefusesBadHeaders(t *testing.T) {
	for name, src := range map[string]string{
		"escape/noexpect":   "// category: escape\n// source: original\nreturn 1",
		"escape/nosource":   "// expect: ok\n// value: 1\n// category: escape\nreturn 1",
		"escape/wrongdir":   "// expect: TimeoutError\n// category: leak\n// source: original\nfor(;;){}",
		"escape/badtype":    "// expect: OopsError\n// category: escape\n// source: original\n",
		"escape/oknovalue":  "// expect: ok\n// category: escape\n// source: original\nreturn 1",
		"escape/badtimeout": "// expect: TimeoutError\n// timeout: soon\n// category: escape\n// source: original\n",
	} {
		var he *HeaderError
		if _, err := Parse(name, src); !errors.As(err, &he) {
			t.Errorf("%s: Parse = %v, want a *HeaderError", name, err)
		}
	}
}

func TestParseStepsAndModules(t *testing.T) {
	src := "// expect: ok\n// value: true\n// category: isolation\n// source: original\n// memory: 8MiB\n" +
		"return 1\n//== module m\nexport const x = 1;\n//== next\nreturn input === 1"
	s, err := Parse("isolation/pair", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Steps) != 2 || s.Steps[0].Request.Modules["m"] != "export const x = 1;" || !s.Steps[1].InputFromPrevious {
		t.Fatalf("steps %+v", s.Steps)
	}
	if s.Steps[1].Request.Limits.MemoryBytes != 8<<20 {
		t.Errorf("second step's limits %+v", s.Steps[1].Request.Limits)
	}
}

func TestCheck(t *testing.T) {
	e := Expect{Outcomes: []Outcome{{contract.ResourceError, "memory"}, {contract.TimeoutError, ""}}}
	if err := e.Check(contract.Result{Error: &contract.Error{Type: contract.TimeoutError}}); err != nil {
		t.Error(err)
	}
	if err := e.Check(contract.Result{Error: &contract.Error{Type: contract.ResourceError, Kind: "stack"}}); err == nil {
		t.Error("ResourceError/stack passed an expectation of memory or timeout")
	}
	ok := Expect{Outcomes: []Outcome{{}}, Value: json.RawMessage(`{"a":[1, 2]}`)}
	if err := ok.Check(contract.Result{OK: true, Value: json.RawMessage(`{"a":[1,2]}`)}); err != nil {
		t.Error(err)
	}
	if err := ok.Check(contract.Result{OK: true, Value: json.RawMessage(`{"a":[2,1]}`)}); err == nil {
		t.Error("a different value passed")
	}
}

func TestCheckStack(t *testing.T) {
	if err := checkStack(contract.Result{Error: &contract.Error{Stack: "Error: x\n    at f (<code>:1:2)\n    at parse (native)\n    at m:3:4"}}); err != nil {
		t.Error(err)
	}
	for _, stack := range []string{"at f (/work/main/child/engine/prelude.js:3:1)", "engine.go:123", "at quickjs.c:4000",
		"Error: x\n    at f (<code>:1:2)\n    at run (<warden-prelude>:187:61)", "Error: x\n    at <code>:1:2\n    at apply (native)"} {
		if checkStack(contract.Result{Error: &contract.Error{Stack: stack}}) == nil {
			t.Errorf("stack %q passed", stack)
		}
	}
}
