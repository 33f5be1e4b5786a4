// Build a Markdown report from test results: a summary, a table and a
// list of failures, escaping pipes in cells.
const { suite, results } = input;
const esc = (s) => String(s).replace(/\|/g, "\\|").replace(/\n/g, " ");
const passed = results.filter((r) => r.status === "pass").length;
const failed = results.filter((r) => r.status === "fail");
const ms = results.reduce((s, r) => s + r.ms, 0);
const md = [
  `# ${suite}`,
  "",
  `**${passed}/${results.length} passed** in ${(ms / 1000).toFixed(2)} s${failed.length ? ` — ${failed.length} failed` : ""}`,
  "",
  "| test | status | time |",
  "|:-----|:------:|-----:|",
  ...results.map((r) => `| ${esc(r.name)} | ${r.status === "pass" ? "✅" : "❌"} | ${r.ms} ms |`),
];
if (failed.length) md.push("", "## Failures", ...failed.map((f, i) => `${i + 1}. \`${f.name}\`: ${esc(f.error)}`));
return md.join("\n");
