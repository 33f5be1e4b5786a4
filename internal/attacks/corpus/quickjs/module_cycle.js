// expect: ok
// category: quickjs
// value: [1,2]
// source: original (modules importing one another)
const a = await import("a");
return [a.one, a.two()];
//== module a
import { two } from "b";
export const one = 1;
export { two };
//== module b
import { one } from "a";
export const two = () => one + 1;
