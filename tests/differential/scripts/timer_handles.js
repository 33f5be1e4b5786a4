// What setTimeout returns and how code uses it: a handle that can be
// cleared, compared and converted to a number (Node's Timeout object).
const t = setTimeout(() => {}, 10);
const i = setInterval(() => {}, 10);
const kinds = [typeof t, typeof i, typeof t.ref, typeof t.unref, typeof t.hasRef, typeof t[Symbol.toPrimitive]];
const asNumber = Number.isInteger(+t);
clearTimeout(t);
clearInterval(i);
clearTimeout(undefined);
clearTimeout(12345);
return { kinds, asNumber, distinct: +t !== +i, fn: [setTimeout.name, setTimeout.length, clearTimeout.name] };
