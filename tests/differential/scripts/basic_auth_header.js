// Build and parse HTTP Basic auth headers.
const make = (user, pass) => "Basic " + btoa(`${user}:${pass}`);
const parse = (header) => {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(header);
  if (!m) return null;
  const decoded = atob(m[1]);
  const i = decoded.indexOf(":");
  return i < 0 ? null : { user: decoded.slice(0, i), pass: decoded.slice(i + 1) };
};
const headers = [make("aladdin", "open sesame"), make("user", "p:a:ss"), "Bearer abc", "Basic !!!", make("", "")];
return headers.map((h) => ({ h, parsed: parse(h) }));
