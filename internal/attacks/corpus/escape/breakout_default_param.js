// expect: UserCodeError
// category: escape
// source: original (closing the body from a default parameter's expression)
}) (async function (input = host.request("leak")) {
