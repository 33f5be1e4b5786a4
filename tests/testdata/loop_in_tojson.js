// expect: TimeoutError
return { toJSON() { for (;;) {} } };
