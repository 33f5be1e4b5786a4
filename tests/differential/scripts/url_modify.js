// Change parts of a URL through its setters: strip tracking parameters,
// force https, change path and port.
const clean = (s) => {
  const u = new URL(s);
  for (const k of [...u.searchParams.keys()]) if (/^utm_|^fbclid$|^gclid$/.test(k)) u.searchParams.delete(k);
  u.protocol = "https:";
  u.hash = "";
  if (u.port === "80" || u.port === "443") u.port = "";
  u.pathname = u.pathname.replace(/\/+$/, "") || "/";
  u.hostname = u.hostname.replace(/^www\./, "");
  return u.toString();
};
const u = new URL("https://example.com/a");
u.pathname = "/b c/ü";
u.search = "x=1 2";
u.username = "me";
u.port = "8443";
return { cleaned: input.map(clean), modified: u.href, json: JSON.stringify({ u }), str: `${new URL("HTTPS://A.COM")}` };
