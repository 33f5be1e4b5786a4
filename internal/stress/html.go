package stress

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"time"
)

// WriteHTML writes the report as one self-contained page: the summary,
// the categories, the failures with their envelopes, and inline SVG
// plots of benign latency and of the supervisor's RSS over the run. It
// loads nothing from anywhere (no scripts, styles or images by URL), and
// its markup is well-formed XML, so any XML parser reads it.
func (rep *Report) WriteHTML(w io.Writer) error {
	rep.mu.Lock()
	defer rep.mu.Unlock()
	var latMax, latMean []xy
	for _, w := range rep.Latency {
		mid := ((w.From + w.To) / 2).Seconds()
		latMax = append(latMax, xy{mid, w.MaxMS})
		latMean = append(latMean, xy{mid, w.MeanMS})
	}
	rss := make([]xy, len(rep.Samples))
	procs := make([]xy, len(rep.Samples))
	for i, s := range rep.Samples {
		rss[i] = xy{s.At.Seconds(), mib(s.RSSBytes)}
		procs[i] = xy{s.At.Seconds(), float64(s.Processes)}
	}
	var text strings.Builder
	rep.writeText(&text)
	return page().Execute(w, map[string]any{
		"R":    rep,
		"Text": text.String(),
		"Latency": template.HTML(plot("latency", "benign latency (ms) over the run (s): maximum (dots) and mean (line) of each window",
			curve{pts: latMax, dots: true, color: "#d0702a"}, curve{pts: latMean, color: "#2a6fdb"})),
		"RSS":   template.HTML(plot("rss", "supervisor RSS (MiB) over the run (s)", curve{pts: rss, color: "#2a6fdb"})),
		"Procs": template.HTML(plot("processes", "children alive over the run (s)", curve{pts: procs, color: "#2a6fdb"})),
		"Now":   time.Now().UTC().Format(time.RFC3339),
	})
}

type xy struct{ x, y float64 }

// curve is one data series of a plot: a line, or dots.
type curve struct {
	pts   []xy
	dots  bool
	color string
}

// plot draws curves as one SVG chart with axes and their ranges, scaled
// to the highest of them.
func plot(id, title string, curves ...curve) string {
	const w, h, pad = 760.0, 220.0, 40.0
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`, id, int(w), int(h), int(w), int(h))
	fmt.Fprintf(&b, `<text x="%d" y="14" font-size="12">%s</text>`, int(pad), template.HTMLEscapeString(title))
	fmt.Fprintf(&b, `<line x1="%v" y1="%v" x2="%v" y2="%v" stroke="#888"/><line x1="%v" y1="%v" x2="%v" y2="%v" stroke="#888"/>`, pad, h-pad, w-10, h-pad, pad, 20, pad, h-pad)
	maxX, maxY, n := 0.0, 0.0, 0
	for _, c := range curves {
		for _, p := range c.pts {
			maxX, maxY = max(maxX, p.x), max(maxY, p.y)
		}
		n += len(c.pts)
	}
	if n == 0 {
		b.WriteString(`<text x="60" y="100" font-size="12">no data</text></svg>`)
		return b.String()
	}
	maxX, maxY = max(maxX, 1e-9), max(maxY*1.05, 1e-9)
	sx := func(x float64) float64 { return pad + x/maxX*(w-10-pad) }
	sy := func(y float64) float64 { return h - pad - y/maxY*(h-pad-20) }
	fmt.Fprintf(&b, `<text x="%v" y="%v" font-size="10" text-anchor="end">%.1f</text>`, pad-4, 24, maxY/1.05)
	fmt.Fprintf(&b, `<text x="%v" y="%v" font-size="10" text-anchor="end">0</text>`, pad-4, h-pad)
	fmt.Fprintf(&b, `<text x="%v" y="%v" font-size="10" text-anchor="end">%.0f s</text>`, w-10, h-pad+14, maxX)
	for _, c := range curves {
		if c.dots {
			for _, p := range c.pts {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="1.5" fill="%s"/>`, sx(p.x), sy(p.y), c.color)
			}
			continue
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="`, c.color)
		for _, p := range c.pts {
			fmt.Fprintf(&b, "%.1f,%.1f ", sx(p.x), sy(p.y))
		}
		b.WriteString(`"/>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// page is parsed on first use: every child runs this binary's package
// inits.
var page = sync.OnceValue(func() *template.Template { return template.Must(template.New("report").Parse(pageText)) })

const pageText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<title>warden stress: {{if .R.OK}}PASS{{else}}FAIL{{end}}</title>
<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.fail { color: #b00; } .pass { color: #070; }
pre { background: #f6f6f6; padding: 8px; white-space: pre-wrap; word-break: break-all; }
</style>
</head>
<body>
<h1>warden stress: <span class="{{if .R.OK}}pass{{else}}fail{{end}}">{{if .R.OK}}PASS{{else}}FAIL{{end}}</span></h1>
<p>{{.R.Executions}} executions, {{.R.Failures}} failed, {{.R.Known}} known failures, {{.R.Skipped}} faults skipped;
{{printf "%.1f" .R.Rate}} executions/s at concurrency {{.R.Concurrency}}; {{printf "%.1f" .R.WallSeconds}} s; seed {{.R.Seed}}; written {{.Now}}.</p>
<h2>Summary</h2>
<table id="summary">
<tr><th>category</th><th>passed</th><th>failed</th><th>known</th><th>skipped</th></tr>
{{range .R.Categories}}<tr><td>{{.Name}}</td><td>{{.Passed}}</td><td{{if .Failed}} class="fail"{{end}}>{{.Failed}}</td><td>{{.Known}}</td><td>{{.Skipped}}</td></tr>
{{end}}</table>
<h2>Benign latency</h2>
<p>alone: p50 {{printf "%.1f" .R.Baseline.P50}} ms, p99 {{printf "%.1f" .R.Baseline.P99}} ms;
during the attacks: p50 {{printf "%.1f" .R.During.P50}} ms, p99 {{printf "%.1f" .R.During.P99}} ms;
slowdown p50 x{{printf "%.2f" .R.SlowdownP50}} (stated limit x{{printf "%.1f" .R.MaxSlowdown}}), p99 x{{printf "%.2f" .R.SlowdownP99}}.</p>
{{.Latency}}
<h2>Supervisor</h2>
{{.RSS}}
{{.Procs}}
<h2>Leak audit</h2>
{{if .R.Leaks}}<ul class="fail">{{range .R.Leaks}}<li>{{.}}</li>{{end}}</ul>{{else}}<p class="pass">nothing left behind</p>{{end}}
<h2>Failures</h2>
{{range .R.Scripts}}{{if .Failed}}<h3 id="{{.Name}}">{{.Name}}{{if .Known}} (known: {{.Known}}){{end}}</h3>
<p>{{.Failed}} of {{.Passed}}+{{.Failed}} runs failed; expects {{.Expect}}; source {{.Source}}</p>
{{range .Failures}}<pre>{{.Error}}
envelope: {{.EnvelopeJSON}}</pre>
{{end}}{{end}}{{end}}
<h2>Full report</h2>
<pre>{{.Text}}</pre>
</body>
</html>
`
