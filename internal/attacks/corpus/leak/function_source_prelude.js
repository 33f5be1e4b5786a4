// expect: ok
// category: leak
// value: []
// source: original (toString of anything reachable showing the prelude)
const texts = [sha256, console.log, console.error, host.request, Object.getPrototypeOf(host)].map((f) => { try { return Function.prototype.toString.call(f); } catch (e) { return ""; } });
return texts.filter((t) => /prelude|finish|describe|__|qjs/.test(t));
