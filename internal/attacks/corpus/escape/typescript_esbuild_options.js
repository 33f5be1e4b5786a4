// expect: ok
// category: escape
// language: typescript
// value: {"require":"undefined","dataImport":"rejected","fileImport":"rejected","jsx":"string","process":"undefined"}
// source: original (TypeScript that tries to reach esbuild's options: a reference path, JSX pragmas, require and data: imports)
/// <reference path="/etc/passwd" />
/// <reference types="node" />
/** @jsx h */
// @jsxImportSource /etc
// @ts-nocheck
declare const require: any;
const out: Record<string, string> = {};
out.require = typeof require;
try { await import("data:text/javascript,export default 1"); out.dataImport = "imported"; } catch { out.dataImport = "rejected"; }
try { await import("/etc/passwd"); out.fileImport = "imported"; } catch { out.fileImport = "rejected"; }
// A .ts file cannot hold JSX: this is a type assertion, not an element.
const v = <string>"x";
out.jsx = typeof v;
out.process = typeof (globalThis as any).process;
return out;
