// The ES2023 array methods Node 20 has, which models now reach for.
const a = [5, 1, 4, 2, 3];
const people = [{ n: "x", age: 30 }, { n: "y", age: 17 }, { n: "z", age: 45 }, { n: "w", age: 17 }];
return {
  sorted: a.toSorted(),
  reversed: a.toReversed(),
  replaced: a.with(1, 99),
  spliced: a.toSpliced(1, 2, "a", "b", "c"),
  untouched: a,
  lastMinor: people.findLast((p) => p.age < 18).n,
  lastMinorIndex: people.findLastIndex((p) => p.age < 18),
  at: [a.at(-1), a.at(0), a.at(10) ?? "none"],
  hasOwn: Object.hasOwn(people[0], "n"),
  flat: [1, [2, [3, [4]]]].flat(Infinity),
};
