// expect: ok
// category: leak
// value: []
// source: original (the prelude's frames, its wrappers' natives and the engine's file names in the stacks a guest reads)
const stacks = [];
const catching = async (f) => { try { await f(); } catch (e) { stacks.push(String(e.stack)); } };
await catching(() => null.x);
await catching(() => sha256(1));
await catching(() => host.request(1));
await catching(() => host.request("fail"));
await catching(() => host.request("echo", { get a() { throw new Error("getter"); } }));
await catching(() => host.request("echo", { toJSON() { return null.x; } }));
await catching(() => host.request("echo", { toJSON() { return host.request("echo"); } }));
await catching(() => console.log({ toJSON() { throw new Error("tj"); } }));
await catching(() => JSON.parse("{"));
await catching(() => [1].map(() => { throw new Error("map"); }));
await catching(() => eval("1 +"));
await catching(() => new Function("a", "return a.b")());
await catching(() => Promise.resolve().then(() => { throw new Error("then"); }));
await catching(() => import("broken"));
await catching(() => import("throws"));
await catching(() => import("missing"));
const bad = /warden-prelude|apply \(native\)|at run \(|<input>/;
return stacks.filter((s) => bad.test(s) || !/^\w*Error: /.test(s));
//== module broken
export const x = ;
//== module throws
export const y = 1;
null.y;
