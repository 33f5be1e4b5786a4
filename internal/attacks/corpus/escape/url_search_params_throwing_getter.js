// expect: UserCodeError
// category: escape
// source: original (an uncaught error from a getter URLSearchParams reads is the user's own error)
new URLSearchParams({ get a() { throw new RangeError("from the getter"); } });
