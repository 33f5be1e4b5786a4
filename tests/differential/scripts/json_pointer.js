// RFC 6901 JSON Pointer: get, set and escaped tokens, with errors as values.
const parse = (p) => (p === "" ? [] : p.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")));
function get(doc, ptr) {
  let cur = doc;
  for (const t of parse(ptr)) {
    if (cur === null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, t)) throw new Error(`no such path: ${ptr}`);
    cur = cur[t];
  }
  return cur;
}
function set(doc, ptr, value) {
  const toks = parse(ptr), last = toks.pop();
  const parent = toks.length ? get(doc, "/" + toks.map((t) => t.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")) : doc;
  if (Array.isArray(parent) && last === "-") parent.push(value);
  else parent[last] = value;
  return doc;
}
const doc = input;
const ptrs = ["", "/foo", "/foo/0", "/", "/a~1b", "/c%d", "/m~0n", "/nope/x", "/foo/5"];
const got = ptrs.map((p) => { try { return [p, get(doc, p)]; } catch (e) { return [p, e.message]; } });
set(doc, "/foo/-", "baz");
set(doc, "/new", { x: 1 });
set(doc, "/new/y", [2]);
return { got, after: doc };
