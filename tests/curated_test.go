package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// The curated registry (`make modules`): each bundle imported by name in
// a supervised child computes what the same bundle computes in Node 20,
// imported by the same name from node_modules.

// curatedDir is where `make modules` writes the bundles.
const curatedDir = "../modules"

// curatedCases call a few functions of each bundle; the outcome is
// compared with Node's, never written here.
var curatedCases = []struct{ name, code string }{
	{"lodash-es", `import _, { chunk, groupBy, debounce } from "lodash-es";
export default [chunk([1, 2, 3, 4, 5], 2), groupBy(["one", "two", "three"], "length"), _.camelCase("Foo Bar-baz"), _.VERSION, typeof debounce, _.template("hi <%= who %>")({ who: "you" }), _.sortBy([{ a: 3 }, { a: 1 }], "a")];`},
	{"date-fns", `import { addDays, format, differenceInCalendarDays, parseISO, formatISO, isValid, addMonths } from "date-fns";
export default [format(addDays(parseISO("2024-02-27T00:00:00Z"), 3), "yyyy-MM-dd EEEE"), differenceInCalendarDays(parseISO("2024-03-01"), parseISO("2024-01-01")), formatISO(addMonths(new Date(Date.UTC(2024, 0, 31)), 1)), isValid(new Date("nope"))];`},
	{"papaparse", `import Papa, { unparse } from "papaparse";
const parsed = Papa.parse("name,age\nada,36\n\"lin, e\",41\n", { header: true, dynamicTyping: true, skipEmptyLines: true });
export default [parsed.data, parsed.errors.length, unparse([{ a: 1, b: "x,y" }])];`},
	{"zod", `import { z } from "zod";
const User = z.object({ name: z.string().min(1), age: z.number().int().nonnegative(), tags: z.array(z.string()).default([]) });
const bad = User.safeParse({ name: "", age: -1.5 });
export default [User.parse({ name: "ada", age: 36 }), bad.success, bad.error.issues.map((i) => [i.path.join("."), i.code]), z.string().email().safeParse("a@b.co").success];`},
	{"dayjs", `import dayjs from "dayjs";
export default [dayjs("2024-01-31T00:00:00Z").add(1, "month").toISOString(), dayjs("2024-03-10T12:00:00Z").diff(dayjs("2024-03-01T00:00:00Z"), "hour"), dayjs(0).format("YYYY-MM-DD"), dayjs("2024-02-29T00:00:00Z").isValid()];`},
}

func requireCurated(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(curatedDir, "lodash-es.js")); err != nil {
		t.Skipf("the curated modules are not built (run make modules; make test does): %v", err)
	}
}

func TestCuratedModulesAsNode(t *testing.T) {
	requireCurated(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("the comparison with Node 20 does not run: %v", err)
	}
	s := newSupervisor(t, func(c *supervisor.Config) { c.ModulesDir = curatedDir })
	nodeDir := t.TempDir()
	for _, c := range curatedCases {
		pkg := filepath.Join(nodeDir, "node_modules", c.name)
		src, err := os.ReadFile(filepath.Join(curatedDir, c.name+".js"))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(pkg, 0o755)
		os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"`+c.name+`","type":"module","main":"index.js"}`), 0o644)
		os.WriteFile(filepath.Join(pkg, "index.js"), src, 0o644)
	}
	for _, c := range curatedCases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := s.Execute(context.Background(), contract.Request{Code: c.code}, nil)
			if !res.OK {
				t.Fatalf("warden: %+v", res.Error)
			}
			main := filepath.Join(nodeDir, c.name+"-main.mjs")
			os.WriteFile(main, []byte(c.code), 0o644)
			runner := filepath.Join(nodeDir, c.name+"-run.mjs")
			os.WriteFile(runner, []byte(`const ns = await import("./`+c.name+`-main.mjs"); process.stdout.write(JSON.stringify(ns.default));`), 0o644)
			cmd := exec.Command(node, runner)
			cmd.Env = []string{"TZ=UTC"}
			cmd.Dir = nodeDir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, stderr.String())
			}
			if !jsonEqual(t, res.Value, out) {
				t.Errorf("differs from Node\nwarden: %s\n  node: %s", res.Value, out)
			}
		})
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}
