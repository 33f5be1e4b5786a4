// expect: ok
// category: escape
// value: ["http://x/p?q=1","http://h/","TypeError","boom","http://h/p?q=1"]
// source: original (a setter works on the URL as it was before its value was converted, as Node's: what a hostile toString changes is overwritten; one that returns an object or throws leaves the URL as it was)
const out = [];
const u = new URL("http://h/p?q=1");
u.hostname = { toString() { u.href = "http://replaced/"; return "x"; } };
out.push(u.href);
const v = new URL("http://h/");
try { v.pathname = { toString() { return {}; }, valueOf() { return {}; } }; } catch (e) { out.push(v.href, e.name); }
const w = new URL("http://h/p?q=1");
try { w.search = { toString() { throw new Error("boom"); } }; } catch (e) { out.push(e.message); }
out.push(w.href);
return out;
