// expect: UserCodeError
// category: escape
// timeout: 500ms
// source: vm2 GHSA-p5gc-c584-jj6v (host stringifies a thrown object)
throw { toString() { for (;;) {} }, valueOf() { for (;;) {} }, get message() { for (;;) {} } };
