"use strict";
// The Node side of the differential suite (differential_test.go): runs
// one script as Warden runs it, the body of an async function of input,
// with Warden's two globals made from Node's own parts, and prints the
// outcome as one line of JSON. Usage: node runner.js CODE INPUT DATA
const fs = require("fs");
const crypto = require("crypto");

const [codeFile, inputFile, dataFile] = process.argv.slice(2);
const code = fs.readFileSync(codeFile, "utf8");
const input = JSON.parse(fs.readFileSync(inputFile, "utf8"));
const answers = JSON.parse(fs.readFileSync(dataFile, "utf8"));

// sha256: hex SHA-256 of the string's UTF-8 bytes; Buffer.from writes a
// lone surrogate as U+FFFD, as Warden does.
function sha256(text) {
  if (typeof text !== "string") {
    throw new TypeError("sha256: argument must be a string, got " + typeof text);
  }
  return crypto.createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
}

// host.request answers from the data file, a deep copy each time (the
// guest may change what it gets). Like Warden's, it returns a promise
// already settled: the caller's callbacks run as microtasks, in the
// same order as in Warden. An unknown name rejects with the message the
// test's Go handler gives.
const host = {
  request(name, args) {
    if (typeof name !== "string") {
      return Promise.reject(new TypeError("host.request: name must be a string, got " + typeof name));
    }
    try {
      JSON.stringify(args === undefined ? null : args);
    } catch (e) {
      return Promise.reject(e);
    }
    if (!Object.prototype.hasOwnProperty.call(answers, name)) {
      return Promise.reject(new Error("no data named " + JSON.stringify(name)));
    }
    return Promise.resolve(JSON.parse(JSON.stringify(answers[name])));
  },
};
// console writes to stderr, never into the outcome on stdout (Warden
// captures it into logs, which the suite does not compare).
const quiet = new console.Console({ stdout: process.stderr, stderr: process.stderr });
for (const [name, value] of Object.entries({ sha256, host, console: quiet })) {
  Object.defineProperty(globalThis, name, { value, writable: true, enumerable: false, configurable: true });
}

// dataOf reads a data property along the prototype chain, as Warden's
// describe does, never calling a getter.
function dataOf(obj, key) {
  for (let o = obj; o !== null; o = Object.getPrototypeOf(o)) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d !== undefined) return "value" in d ? d.value : undefined;
  }
  return undefined;
}

// describe reduces a thrown value to the name and message Warden reports.
function describe(err) {
  if (err !== null && (typeof err === "object" || typeof err === "function")) {
    const n = dataOf(err, "name");
    const m = dataOf(err, "message");
    const name = typeof n === "string" ? n : "";
    let message = typeof m === "string" ? m : "";
    if (name === "" && message === "") message = "thrown value is not an Error";
    return { ok: false, name, message };
  }
  let message = "uncaught " + typeof err + ": ";
  try { message += String(err); } catch (e) { message += "[unprintable]"; }
  return { ok: false, name: "", message };
}

let printed = false;
function printLine(line) {
  if (printed) return;
  printed = true;
  process.stdout.write(line + "\n", () => process.exit(0));
}
function print(outcome) {
  printLine(JSON.stringify(outcome));
}

// An error a timer or microtask callback throws ends the execution, as
// Warden's web.reportUncaught does.
process.on("uncaughtException", (e) => print(describe(e)));
// A rejection nobody handles does not (Node 20 would end the process).
process.on("unhandledRejection", () => {});

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
let fn;
try {
  fn = new AsyncFunction("input", code);
} catch (e) {
  print(describe(e));
}
if (fn) {
  fn(input).then(
    (v) => {
      try {
        const s = JSON.stringify(v);
        printLine('{"ok":true,"value":' + (s === undefined ? "null" : s) + "}");
      } catch (e) {
        print(describe(e));
      }
    },
    (e) => print(describe(e)));
}
