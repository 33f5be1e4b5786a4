// expect: ok
// value: {"honest":true}
// Pollution and intrinsic replacement cannot forge the envelope.
Object.prototype.ok = false;
Object.prototype.error = { type: "forged" };
JSON.stringify = () => '{"forged":true}';
Promise.prototype.then = function () { return "forged"; };
Array.prototype.toJSON = () => "forged";
return { honest: true };
