package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// nodeCase is one case of intl/testdata/node-table.json: an expression
// and what Node 20 made of it.
type nodeCase struct {
	Expr  string          `json:"expr"`
	Value json.RawMessage `json:"value,omitempty"`
	Error *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// intlTableRunner evaluates each expression of its input and reports
// each outcome as the table records it.
const intlTableRunner = `
const out = [];
for (const expr of input) {
  try {
    const v = (0, eval)("(" + expr + ")");
    out.push(v === undefined ? {} : { value: v });
  } catch (e) {
    out.push({ error: { name: e.name, message: e.message } });
  }
}
return out;`

// TestIntlNodeTable holds Intl to the table of cases Node 20 evaluated
// (intl/testdata/gen-table.js): every value and every error's name and
// message, byte for byte.
func TestIntlNodeTable(t *testing.T) {
	b, err := os.ReadFile("intl/testdata/node-table.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Node, ICU, CLDR string
		Cases           []nodeCase
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 500 {
		t.Fatalf("the table has %d cases", len(table.Cases))
	}
	t.Logf("%d cases from Node %s (ICU %s, CLDR %s)", len(table.Cases), table.Node, table.ICU, table.CLDR)
	known := map[string]string{}
	kb, err := os.ReadFile("intl/testdata/known.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(kb), "\n") {
		if expr, reason, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
			known[expr] = reason
		}
	}
	const batch = 1000
	failed, differ := 0, 0
	for start := 0; start < len(table.Cases); start += batch {
		cases := table.Cases[start:min(start+batch, len(table.Cases))]
		exprs := make([]string, len(cases))
		for i, c := range cases {
			exprs[i] = c.Expr
		}
		input, _ := json.Marshal(exprs)
		limits := contract.DefaultLimits
		limits.Timeout = 30 * time.Second
		limits.MemoryBytes = 256 << 20
		res := run(t, contract.Request{Code: intlTableRunner, Input: input, Limits: limits}, RunOptions{})
		if !res.OK {
			t.Fatalf("batch at %d: %+v", start, res.Error)
		}
		var got []nodeCase
		if err := json.Unmarshal(res.Value, &got); err != nil || len(got) != len(cases) {
			t.Fatalf("batch at %d: %d outcomes for %d cases: %v", start, len(got), len(cases), err)
		}
		for i, want := range cases {
			g := got[i]
			same := (want.Error == nil) == (g.Error == nil)
			if same && want.Error != nil {
				same = *want.Error == *g.Error
			} else if same {
				same = compactJSON(want.Value) == compactJSON(g.Value)
			}
			if reason, ok := known[want.Expr]; ok {
				if same {
					t.Errorf("known.txt lists a case that agrees with Node: %s", want.Expr)
				} else {
					differ++
					t.Logf("differs, known: %s (%s)", want.Expr, reason)
				}
				continue
			}
			if !same {
				failed++
				if failed <= 60 {
					wj, _ := json.Marshal(want)
					gj, _ := json.Marshal(g)
					t.Errorf("%s\n  node:   %s\n  warden: %s", want.Expr, bytes.TrimPrefix(wj, []byte(`{"expr":`+string(mustJSON(want.Expr))+`,`)), gj)
				}
			}
		}
	}
	t.Logf("%d of %d cases as Node's, %d listed in known.txt", len(table.Cases)-failed-differ, len(table.Cases), differ)
	if failed > 0 {
		t.Errorf("%d of %d cases differ from Node and are not in known.txt", failed, len(table.Cases))
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
