// structuredClone of the types real data holds: Dates, Maps, Sets,
// RegExps, typed arrays, nested objects; the clone is independent.
const original = {
  when: new Date(Date.UTC(2024, 4, 6, 7, 8, 9)),
  tags: new Set(["a", "b"]),
  index: new Map([["k1", { n: 1 }], [2, [3]]]),
  re: /ab+c/gi,
  bytes: new Uint8Array([1, 2, 3]),
  nested: { deep: { list: [1, { x: null }], undef: undefined } },
  big: 12345678901234567890n,
  neg0: -0, nan: NaN,
};
const c = structuredClone(original);
c.nested.deep.list[1].x = "changed";
c.bytes[0] = 99;
return {
  dateSame: c.when.getTime() === original.when.getTime() && c.when !== original.when,
  set: [...c.tags], map: [...c.index].map(([k, v]) => [k, v]),
  re: [c.re.source, c.re.flags, c.re.lastIndex],
  bytes: [Array.from(c.bytes), Array.from(original.bytes)],
  independent: original.nested.deep.list[1].x,
  hasUndef: "undef" in c.nested.deep,
  big: c.big.toString(), neg0: Object.is(c.neg0, -0), nan: Number.isNaN(c.nan),
  protoPlain: Object.getPrototypeOf(c) === Object.prototype,
};
