// expect: ok
// category: leak
// format: module
// value: {"type":"object","keys":[],"url":"undefined","resolve":"undefined"}
// source: original (import.meta probed for a path, a URL or a resolver of the host's)
export default {
  type: typeof import.meta,
  keys: Reflect.ownKeys(import.meta).map(String),
  url: typeof import.meta.url,
  resolve: typeof import.meta.resolve,
};
