// expect: ok
// category: escape
// value: 1
// source: vm2 CVE-2022-36067 class (work scheduled to run after the result)
Promise.resolve().then(() => { for (;;) {} });
return 1;
