// A script that throws a plain object and a string inside, and finally a
// string that escapes: the outcome of a thrown non-Error.
const caught = [];
for (const v of [{ code: 42 }, "text", 7, null]) {
  try { throw v; } catch (e) { caught.push(e === null ? "null" : typeof e === "object" ? JSON.stringify(e) : `${typeof e}:${e}`); }
}
if (caught.length === 4) throw `gave up after ${caught.join(",")}`;
