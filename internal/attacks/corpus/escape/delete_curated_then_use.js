// expect: ok
// category: escape
// value: "gone"
// source: original (the guest removing what the host handed it)
delete globalThis.host;
delete globalThis.sha256;
globalThis.console = undefined;
return typeof host === "undefined" && typeof sha256 === "undefined" ? "gone" : "kept";
