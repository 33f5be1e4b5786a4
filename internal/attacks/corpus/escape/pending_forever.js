// expect: UserCodeError
// category: escape
// source: original (a promise that can never settle)
await new Promise(() => {});
