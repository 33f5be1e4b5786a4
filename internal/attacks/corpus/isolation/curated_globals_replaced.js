// expect: ok
// category: isolation
// value: true
// source: original
globalThis.sha256 = () => "forged";
console.log = () => {};
host.request = async () => "forged";
return 1;
//== next
return sha256("abc") === "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
