// expect: UserCodeError
// category: escape
// source: vm2 GHSA-xj72-wvfv-8985 class (a Proxy's trap throwing inside a built-in)
return structuredClone(new Proxy({}, { ownKeys() { throw new Error("trap ran"); } }));
