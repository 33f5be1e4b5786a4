// Parse user-supplied JSON and report success or failure as a value
// (failure detected, not the engine's wording).
const attempts = input.map((text) => {
  try { const v = JSON.parse(text); return { ok: true, type: Array.isArray(v) ? "array" : v === null ? "null" : typeof v }; }
  catch (e) { return { ok: false, name: e.name, isSyntax: e instanceof SyntaxError }; }
});
return attempts;
