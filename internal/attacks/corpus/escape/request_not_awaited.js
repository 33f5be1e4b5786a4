// expect: ok
// category: escape
// value: 1
// source: original (the result settles while a data request is still out)
host.request("echo", 1);
host.request("echo", 2).then(() => { for (;;) {} });
return 1;
