// expect: UserCodeError
// category: resource
// source: original (a module whose evaluation never settles)
return (await import("stuck")).x;
//== module stuck
await new Promise(() => {});
export const x = 1;
