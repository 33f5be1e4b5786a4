package stress

import (
	"encoding/json"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/attacks"
)

// benignTimeout is the benign scripts' deadline: far above what they
// need, so that only a real slowdown, not a loaded machine, fails one.
const benignTimeout = 5 * time.Second

// Benign is the ordinary traffic mixed with the attacks: small scripts
// of the kind Warden exists for, each with the value it must return.
func Benign() []*attacks.Script {
	mk := func(name, code, input, value string, logs string, modules map[string]string) *attacks.Script {
		s := &attacks.Script{
			Name: "benign/" + name, Category: "benign", Source: "warden stress",
			Steps: []attacks.Step{{Request: contract.Request{
				Code: code, Input: json.RawMessage(input), Modules: modules,
				Limits: contract.Limits{Timeout: benignTimeout},
			}}},
			Expect: attacks.Expect{Outcomes: []attacks.Outcome{{}}, Value: json.RawMessage(value)},
		}
		if logs != "" {
			s.Expect.Logs = json.RawMessage(logs)
		}
		return s
	}
	return []*attacks.Script{
		mk("sum", `return input.a + input.b;`, `{"a":1,"b":2}`, `3`, "", nil),
		mk("sha256", `return sha256(input.s);`, `{"s":"abc"}`, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`, "", nil),
		mk("transform", `return input.users.filter((u) => u.age >= 18).map((u) => u.name).sort();`,
			`{"users":[{"name":"zoe","age":30},{"name":"al","age":12},{"name":"bo","age":18}]}`, `["bo","zoe"]`, "", nil),
		mk("data", `const r = await host.request("echo", input); return r.q * 2;`, `{"q":21}`, `42`, "", nil),
		mk("logs", `console.log("hello", input.n); console.warn("careful"); return input.n + 1;`, `{"n":1}`, `2`, `["hello 1","careful"]`, nil),
		mk("module", `const m = await import("math"); return m.square(input.x);`, `{"x":9}`, `81`, "", map[string]string{"math": "export const square = (x) => x * x;"}),
		mk("compute", `const fib = (n) => n < 2 ? n : fib(n - 1) + fib(n - 2); return fib(input.n);`, `{"n":20}`, `6765`, "", nil),
		mk("text", `return input.s.split(/-/).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");`, `{"s":"a-quick-fox"}`, `"A Quick Fox"`, "", nil),
	}
}
