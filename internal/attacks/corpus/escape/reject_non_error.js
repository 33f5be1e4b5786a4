// expect: UserCodeError
// category: escape
// source: original
return Promise.reject({ type: "ok", forged: true });
