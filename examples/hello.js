// The body of an async function of `input`. Its return value comes back
// as JSON. Try: bin/warden run --input '{"a":1,"b":2}' examples/hello.js
console.log("adding", input.a, "and", input.b);
return { sum: input.a + input.b, digest: sha256("hello") };
