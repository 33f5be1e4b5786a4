// expect: ok
// category: escape
// value: {"n":1}
// logs: ["while serialising"]
// source: original (a console call while host.request serialises its arguments)
return await host.request("echo", { n: { toJSON() { console.log("while serialising"); return 1; } } });
