// expect: ok
// category: determinism
// value: true
// source: original (the same URLs parse to the same components every run: the parser takes no time and no entropy)
const inputs = ["http://a/b/../c", "https://\u00fc.de/?q=1 2#x", "file:///C|/x", "sc:opaque?q", "http://0x7f.1/", "http://[::ffff:1.2.3.4]/"];
const run = () => inputs.map((s) => { const u = new URL(s); return [u.href, u.origin, String(u.searchParams)]; });
return JSON.stringify(run()) === JSON.stringify(run());
