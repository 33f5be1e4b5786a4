// The messages of the engine's own errors, returned as values: scripts
// often show them to users.
const tries = {
  nullProp: () => null.foo,
  undefCall: () => undefined(),
  notFn: () => ({}).method(),
  badArrayLen: () => new Array(-1),
  json: () => JSON.parse("{bad json}"),
  bigintMix: () => 1n + 1,
  undeclared: () => notDeclared + 1,
  constAssign: () => { const c = 1; c = 2; },
  toFixed: () => (1).toFixed(101),
};
return Object.fromEntries(Object.entries(tries).map(([k, f]) => { try { f(); return [k, "no error"]; } catch (e) { return [k, `${e.name}: ${e.message}`]; } }));
