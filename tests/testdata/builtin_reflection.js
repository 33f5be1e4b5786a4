// expect: ok
// value: []
// The curated functions are built-ins as far as the guest can tell, and
// no reflective path leads from them, or from an error's stack, to the
// prelude or a host function. Returns the checks that failed.
const failed = [];
const fns = { sha256, log: console.log, request: host.request };
for (const [name, f] of Object.entries(fns)) {
  const must = (what, ok) => { if (!ok) failed.push(name + ": " + what); };
  must("new", (() => { try { new f("a"); return false; } catch (e) { return e instanceof TypeError; } })());
  must("Reflect.construct", (() => { try { Reflect.construct(f, ["a"]); return false; } catch (e) { return e instanceof TypeError; } })());
  must("prototype", !("prototype" in f));
  must("source", Function.prototype.toString.call(f).includes("[native code]"));
  must("own keys", Reflect.ownKeys(f).join() === "length,name");
}
let hooked = false;
Error.prepareStackTrace = () => { hooked = true; return "x"; };
try { sha256(1); } catch (e) { void e.stack; }
try { await import("nope"); } catch (e) { void e.stack; }
void new Error("e").stack;
if (hooked) failed.push("Error.prepareStackTrace ran");
if (typeof Error.captureStackTrace !== "undefined") failed.push("Error.captureStackTrace exists");
return failed;
