// expect: UserCodeError
// category: escape
// source: vm2 GHSA-xj72-wvfv-8985 (Proxy handed to the host)
return new Proxy({}, { ownKeys() { throw new Error("trap ran"); } });
