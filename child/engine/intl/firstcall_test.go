package intl

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// firstCalls are the first calls BenchmarkFirstCall times, each as the
// prelude makes it: canonicalize the locales, resolve, format.
var firstCalls = map[string][][3]string{
	"NumberFormat": {{"canonicalize", `["de-DE"]`, ""}, {"nf.resolve", `["de-DE"]`, `{"style":"currency","currency":"EUR"}`}, {"nf.format", "", "n:1234.5"}},
	"DateTimeFormat": {{"canonicalize", `["en-US"]`, ""}, {"dtf.resolve", `["en-US"]`, `{"required":"any","defaults":"all","timeZone":"America/New_York"}`},
		{"dtf.format", "", "1700000000000"}},
	"Collator": {{"canonicalize", `["de"]`, ""}, {"co.resolve", `["de"]`, `{}`}, {"co.compare", "", `["a","B"]`}},
}

// TestMain runs one first call and prints its duration when
// BenchmarkFirstCall starts this binary for it.
func TestMain(m *testing.M) {
	if kind := os.Getenv("WARDEN_INTL_FIRST_CALL"); kind != "" {
		start := time.Now()
		handle := ""
		for _, c := range firstCalls[kind] {
			if c[1] == "" {
				c[1] = handle
			}
			out, err := Call(c[0], c[1], c[2])
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			handle = out
		}
		fmt.Println(time.Since(start).Nanoseconds())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkFirstCall times the first call of each kind in a fresh
// process (what an execution's first Intl call costs the child: the
// data it reads and decodes, the JSON codecs it builds), reported as
// the median of b.N processes in ms/first-call. The process start is
// not in it.
func BenchmarkFirstCall(b *testing.B) {
	kinds := make([]string, 0, len(firstCalls))
	for k := range firstCalls {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		b.Run(kind, func(b *testing.B) {
			var ns []float64
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), "WARDEN_INTL_FIRST_CALL="+kind)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%s: %v", kind, err)
				}
				v, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
				if err != nil {
					b.Fatalf("%s: %q", kind, out)
				}
				ns = append(ns, v)
			}
			sort.Float64s(ns)
			b.ReportMetric(ns[len(ns)/2]/1e6, "ms/first-call")
		})
	}
}
