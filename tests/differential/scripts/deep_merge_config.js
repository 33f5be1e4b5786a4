// Deep-merge configuration layers: objects merge, arrays replace, null
// deletes, and the result never shares objects with its inputs.
const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
function merge(target, source) {
  const out = { ...target };
  for (const [k, v] of Object.entries(source)) {
    if (v === null) delete out[k];
    else if (isObj(v) && isObj(out[k])) out[k] = merge(out[k], v);
    else out[k] = isObj(v) ? merge({}, v) : Array.isArray(v) ? [...v] : v;
  }
  return out;
}
const result = input.layers.reduce(merge, {});
input.layers[0].server.port = -1;
return { result, notShared: result.server.port !== -1, keys: Object.keys(result) };
