// expect: ok
// category: quickjs
// value: ["a:b:A","b:A"]
// source: original (request modules that import each other)
const a = await import("a");
const b = await import("b");
return [a.run(), b.run()];
//== module a
import { run as runB } from "b";
export const name = "A";
export function run() { return "a:" + runB(); }
//== module b
import { name } from "a";
export function run() { return "b:" + name; }
