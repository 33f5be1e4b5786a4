// expect: ok
// category: leak
// value: [0,"1970-01-01T00:00:00.000Z","Thu Jan 01 1970 00:00:00 GMT+0000"]
// source: original (the host's time zone is not the guest's business)
const d = new Date(0);
return [d.getTimezoneOffset(), d.toISOString(), d.toString().slice(0, 33)];
