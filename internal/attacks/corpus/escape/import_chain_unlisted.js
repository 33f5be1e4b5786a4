// expect: UserCodeError
// category: escape
// source: original (a listed module importing an unlisted one)
const m = await import("a");
return m.x;
//== module a
import { readFile } from "fs";
export const x = typeof readFile;
