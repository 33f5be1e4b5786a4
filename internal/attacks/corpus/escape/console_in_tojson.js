// expect: ok
// category: escape
// value: "done"
// logs: ["inner","1"]
// source: original (a console call made while console formats its argument)
console.log({ toJSON() { console.log("inner"); return 1; } });
return "done";
