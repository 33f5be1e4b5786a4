// expect: ok
// category: escape
// value: ["{\"0\":104,\"1\":195,\"2\":169,\"3\":239,\"4\":191,\"5\":189}","hé","hi","6869","aGk=","hi","{\"type\":\"Buffer\",\"data\":[1,2,3]}",1]
// source: original (the encoding globals captured every intrinsic they use before user code ran: replacing them changes nothing)
const ta = Object.getPrototypeOf(Uint8Array.prototype);
for (const k of ["subarray", "set", "slice", "fill", "toBase64", "toHex"]) {
  Object.defineProperty(k in ta ? ta : Uint8Array.prototype, k, { value: () => { throw new Error("poisoned " + k); } });
}
Object.defineProperty(Uint8Array.prototype, "toBase64", { value: () => "AAAA" });
Uint8Array.fromBase64 = () => new Uint8Array(9);
Uint8Array.fromHex = () => new Uint8Array(9);
for (const k of ["length", "byteLength", "byteOffset", "buffer"]) {
  Object.defineProperty(ta, k, { get() { throw new Error("poisoned " + k); } });
}
String.prototype.slice = () => "";
String.prototype.charCodeAt = () => 0;
String.prototype.toWellFormed = () => "x";
String.prototype.indexOf = () => -1;
String.fromCharCode = () => "";
RegExp.prototype.exec = () => null;
Reflect.apply = () => { throw new Error("poisoned apply"); };
Function.prototype.apply = Function.prototype.call = () => { throw new Error("poisoned"); };
for (const k of ["atob", "btoa", "escape", "unescape", "encodeURIComponent", "decodeURIComponent"]) {
  globalThis["_" + k] = globalThis[k];
}
globalThis.escape = globalThis.unescape = globalThis.encodeURIComponent = globalThis.decodeURIComponent = () => "";
Array.isArray = () => false;
WeakMap.prototype.get = WeakMap.prototype.has = () => undefined;
return [
  JSON.stringify(new TextEncoder().encode("hé\ud800")),
  new TextDecoder().decode(new Uint8Array([104, 195, 169])),
  Buffer.from("aGk=", "base64").toString(),
  Buffer.from("hi").toString("hex"),
  btoa("hi"),
  atob("aGk="),
  JSON.stringify(Buffer.concat([Buffer.from([1]), Buffer.from([2, 3])], 3)),
  new TextEncoder().encodeInto("hé", new Uint8Array(2)).written,
];
