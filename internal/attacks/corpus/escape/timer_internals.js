// expect: ok
// value: [true, true, true, true, true]
// category: escape
// source: original (a Timeout's state and the prelude's timer queue are out of reach: no own properties, no constructor to call, methods refuse other receivers, the callback's this is only the Timeout)
const t = setTimeout(function () {}, 1000);
const out = [Reflect.ownKeys(t).length === 0];
try { new t.constructor({}, {}); out.push(false); } catch (e) { out.push(e instanceof TypeError); }
try { t.refresh.call({ list: null }); out.push(false); } catch (e) { out.push(e instanceof TypeError); }
const seen = await new Promise((r) => setTimeout(function () { r(Object.getOwnPropertyNames(this).length); }, 1));
out.push(seen === 0);
out.push(String(setTimeout).includes("[native code]"));
clearTimeout(t);
return out;
