// expect: ok
// category: quickjs
// value: ["Invalid Date","RangeError","+275760-09-13T00:00:00.000Z"]
// source: original (Date at and past its range)
const r = [String(new Date(8.64e15 + 1))];
try { new Date(NaN).toISOString(); r.push("printed"); } catch (e) { r.push(e.name); }
r.push(new Date(8.64e15).toISOString());
return r;
