// expect: ok
// category: determinism
// value: "05087813392efc16fe8ff448920c6328e53af865df39419436659d9ffda90f7b"
// source: WHATWG TextEncoder (a lone surrogate encodes as U+FFFD)
return sha256("a\ud800b");
