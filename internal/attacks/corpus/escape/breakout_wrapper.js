// expect: UserCodeError
// category: escape
// source: tests/testdata/breakout.js (Warden's own)
}, host.request("leak"), console.log("leak"), async function (input) {
