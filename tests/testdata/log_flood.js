// expect: ok
// value: "done"
// timeout: 10s
// A million empty console.log calls. Each entry costs its JSON envelope,
// so the logs stay within the output limit (and the wire's bound) instead
// of growing to a million entries; once they are cut, logging is free.
for (let i = 0; i < 1e6; i++) console.log();
return "done";
