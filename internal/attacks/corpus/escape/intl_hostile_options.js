// expect: ok
// value: ["boom","TypeError","getter","1,234.56","1.234,5",["style","currency"]]
// category: escape
// source: original (options that throw, a Proxy that logs what is read, a poisoned prototype: the guest's code runs only where ECMA-402 reads an option, and the formatter is not fooled)
const out = [];
try { new Intl.NumberFormat("en", { get style() { throw new Error("boom"); } }); } catch (e) { out.push(e.message); }
try { new Intl.NumberFormat("en", { style: { toString() { return Symbol(); } } }); } catch (e) { out.push(e.name); }
try { new Intl.NumberFormat({ get length() { throw new Error("getter"); } }); } catch (e) { out.push(e.message); }
Object.defineProperty(Object.prototype, "maximumFractionDigits", { get() { return 1; }, configurable: true });
out.push(new Intl.NumberFormat("en-US").format(1234.56));
delete Object.prototype.maximumFractionDigits;
Object.prototype.style = "bogus";
try { new Intl.NumberFormat("en-US"); } catch (e) { out.push(e.name); }
delete Object.prototype.style;
Array.prototype.push = function () { throw new Error("no"); };
JSON.parse = () => ({});
out[out.length] = new Intl.NumberFormat("de-DE").format(1234.5);
const seen = [];
new Intl.NumberFormat("en", new Proxy({}, { get(t, k) { if (k === "style" || k === "currency") seen[seen.length] = k; return undefined; } }));
out[out.length] = seen;
return out;
