// expect: UserCodeError | TimeoutError
// A thrown value whose hooks loop: describing it runs guest code inside the
// sandbox, so the execution may end at its deadline instead; either way
// nothing runs outside it.
// category: escape
// timeout: 500ms
// source: vm2 CVE-2023-37466 (hook run while the host reads the error)
Error.prepareStackTrace = () => { for (;;) {} };
Object.defineProperty(Error.prototype, "stack", { get() { for (;;) {} } });
throw new Error("boom");
