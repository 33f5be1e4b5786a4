// expect: UserCodeError
// category: escape
// source: original (a throwing getter during the result's stringify)
return { get boom() { throw new Error("getter"); } };
