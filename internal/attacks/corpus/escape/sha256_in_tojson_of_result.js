// expect: ok
// category: escape
// value: {"h":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}
// source: original (a host function called while the host reads the result)
return { h: { toJSON() { return sha256("abc"); } } };
