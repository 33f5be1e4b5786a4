// expect: ok
// value: ["RangeError","Incorrect locale information provided","no error","RangeError","en-GB",true]
// category: resource
// source: original (a 1 MiB language tag and 10 KB extension subtags are refused as Node refuses them, without the host reading more than it bounds)
const out = [];
try { new Intl.NumberFormat("x".repeat(1 << 20)); } catch (e) { out.push(e.name, e.message); }
try { Intl.getCanonicalLocales("en-u-" + "ca-".repeat(3500) + "gregory"); out.push("no error"); } catch (e) { out.push(e.name); }
try { Intl.getCanonicalLocales("en-x-" + "a".repeat(10000)); } catch (e) { out.push(e.name); }
out.push(new Intl.NumberFormat(["zz-ZZ", "en-GB"]).resolvedOptions().locale);
// A 1 MiB number string: beyond the largest Number it is an infinity,
// and a million fraction digits round as fast as three.
const t = Date.now();
const a = new Intl.NumberFormat("en-US").format("9".repeat(1 << 20));
const b = new Intl.NumberFormat("en-US").format("0." + "4".repeat(1 << 20) + "9");
out.push(a === "∞" && b === "0.444" && Date.now() - t < 5000);
return out;
