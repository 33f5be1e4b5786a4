// The console methods beyond log that generated code reaches for:
// table, dir, time/timeEnd, count, assert, group, trace.
const rows = [{ a: 1, b: "x" }, { a: 2, b: "y" }];
console.table(rows);
console.dir({ nested: { deep: true } }, { depth: 0 });
console.time("step");
console.timeEnd("step");
console.count("calls");
console.count("calls");
console.assert(1 === 2, "math is broken");
console.group("section");
console.log("inside");
console.groupEnd();
console.trace("where");
return typeof console.table;
