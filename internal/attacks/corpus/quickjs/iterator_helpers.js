// expect: ok
// category: quickjs
// value: [0,2,4]
// source: original (Iterator helpers over an endless generator)
function* nat() { for (let i = 0; ; i++) yield i; }
return nat().filter((x) => x % 2 === 0).take(3).toArray();
