// expect: ok
// category: escape
// value: {"honest":true}
// source: tests/testdata/prototype_pollution.js (Warden's own)
JSON.stringify = () => '{"forged":true}';
JSON.parse = () => ({ forged: true });
Promise.prototype.then = function () { return "forged"; };
return { honest: true };
