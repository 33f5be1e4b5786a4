// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: tests/testdata/loop_in_promise_chain.js (Warden's own)
const spin = () => { Promise.resolve().then(spin); };
spin();
await new Promise(() => {});
