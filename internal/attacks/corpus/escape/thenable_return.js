// expect: ok
// category: escape
// value: "resolved by guest"
// source: original (a thenable result is the guest's own business)
return { then(resolve) { resolve("resolved by guest"); } };
