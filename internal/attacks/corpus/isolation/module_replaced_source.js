// expect: ok
// category: isolation
// value: "second"
// source: original (a module name reused with another source)
return (await import("m")).v;
//== module m
export const v = "first";
//== next
return (await import("m")).v;
//== module m
export const v = "second";
