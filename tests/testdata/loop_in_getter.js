// expect: TimeoutError
const o = { get x() { while (true) {} } };
return o.x;
