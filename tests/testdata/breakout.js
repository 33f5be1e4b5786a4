// expect: UserCodeError
}, host.request("leak"), console.log("leak"), async function (input) {
