// expect: ok
// category: escape
// value: "undefined"
// source: vm2 CVE-2022-36067 (error from the host used as a bridge)
try { await host.request("fail", null); } catch (e) {
  return e.constructor.constructor("return typeof process")();
}
return "not rejected";
