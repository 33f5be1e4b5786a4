// expect: UserCodeError
// category: escape
// source: original
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
return proxy;
