// expect: UserCodeError
// category: escape
// format: module
// source: original (a module form's static import of a host module)
import { readFileSync } from "node:fs";
export default readFileSync("/etc/passwd", "utf8");
