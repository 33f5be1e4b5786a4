// Validate payloads against a small JSON-schema-like spec and collect
// every error with its path, as a tool-call argument check would.
function validate(schema, v, path = "$") {
  const errs = [];
  const type = Array.isArray(v) ? "array" : v === null ? "null" : Number.isInteger(v) ? "integer" : typeof v;
  const ok = schema.type === undefined || schema.type === type || (schema.type === "number" && type === "integer");
  if (!ok) return [`${path}: expected ${schema.type}, got ${type}`];
  if (schema.enum && !schema.enum.includes(v)) errs.push(`${path}: must be one of ${schema.enum.join("|")}`);
  if (type === "string") {
    if (schema.minLength && v.length < schema.minLength) errs.push(`${path}: shorter than ${schema.minLength}`);
    if (schema.pattern && !new RegExp(schema.pattern).test(v)) errs.push(`${path}: does not match ${schema.pattern}`);
  }
  if ((type === "number" || type === "integer") && schema.minimum !== undefined && v < schema.minimum) errs.push(`${path}: below ${schema.minimum}`);
  if (type === "object") {
    for (const k of schema.required ?? []) if (!(k in v)) errs.push(`${path}.${k}: required`);
    for (const [k, s] of Object.entries(schema.properties ?? {})) if (k in v) errs.push(...validate(s, v[k], `${path}.${k}`));
    if (schema.additionalProperties === false) for (const k of Object.keys(v)) if (!(k in (schema.properties ?? {}))) errs.push(`${path}.${k}: not allowed`);
  }
  if (type === "array" && schema.items) v.forEach((x, i) => errs.push(...validate(schema.items, x, `${path}[${i}]`)));
  return errs;
}
return input.payloads.map((p) => { const e = validate(input.schema, p); return e.length ? { valid: false, errors: e } : { valid: true }; });
