// expect: ok
// category: escape
// value: {"n":1}
// source: original (pollution of what host.request serialises)
Object.prototype.toJSON = undefined;
Object.prototype.name = "forged";
Object.prototype.args = "forged";
return await host.request("echo", { n: 1 });
