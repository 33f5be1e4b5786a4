// expect: ok
// category: escape
// value: ["undefined","function get stack() {\n    [native code]\n}","TypeError","undefined"]
// source: original (the stack getter applied to what is not an engine Error; its source text)
const get = Object.getOwnPropertyDescriptor(Error.prototype, "stack").get;
const out = [];
out.push(String(get.call({})));
out.push(Function.prototype.toString.call(get));
try { get.call(1); out.push("no throw"); } catch (e) { out.push(e.name); }
out.push(String(get.call(Object.create(Error.prototype))));
return out;
