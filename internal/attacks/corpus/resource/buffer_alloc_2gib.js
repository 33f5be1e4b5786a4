// expect: ok
// category: resource
// value: ["RangeError","invalid array buffer length",true]
// source: original (Buffer.alloc(2 ** 31): QuickJS-NG's largest ArrayBuffer is 2 ** 31 - 1 bytes, so the size is refused with a catchable RangeError before any memory is asked for; Node 20 would allocate it)
try {
  Buffer.alloc(2 ** 31);
  return "allocated";
} catch (e) {
  return [e.name, e.message, e instanceof RangeError];
}
