// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (a module that never finishes evaluating, synchronously)
return (await import("spin")).x;
//== module spin
for (;;) {}
export const x = 1;
