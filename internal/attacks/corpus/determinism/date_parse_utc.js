// expect: ok
// category: determinism
// value: ["2020-01-01T00:00:00.000Z","2020-01-01T00:00:00.000Z",1577836800000]
// source: original (Date runs in UTC)
return [new Date(2020, 0, 1).toISOString(), new Date("2020-01-01T00:00:00").toISOString(), Date.UTC(2020, 0, 1)];
