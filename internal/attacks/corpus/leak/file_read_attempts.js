// expect: ok
// category: leak
// value: []
// source: original (any way to name a host file)
const out = [];
for (const spec of ["/etc/passwd", "file:///etc/passwd", "/proc/self/environ", "/proc/self/maps", "data:text/javascript,export default 1"]) {
  try { const m = await import(spec); out.push("loaded " + spec + " " + JSON.stringify(m)); } catch (e) { if (/root:|PATH=|r-xp/.test(String(e.message))) out.push(e.message); }
}
return out;
