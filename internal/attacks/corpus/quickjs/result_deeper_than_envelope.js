// expect: UserCodeError
// category: quickjs
// timeout: 10s
// source: original (a valid result nested deeper than encoding/json's 10,000 levels, which no envelope can carry)
// Found by this corpus: the supervisor called it a protocol violation by
// the child (SandboxError), and `warden run --in-process` could not write
// the envelope at all.
let a = [];
for (let i = 0; i < 10050; i++) a = [a];
return a;
