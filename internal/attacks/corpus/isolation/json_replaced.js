// expect: ok
// category: isolation
// value: {"a":1}
// source: original
JSON.parse = () => ({ forged: true });
JSON.stringify = () => '"forged"';
return 1;
//== next
return JSON.parse('{"a":1}');
