// URLs with non-ASCII host names and paths, as users paste them: the
// host becomes punycode, the path and query percent-encoded UTF-8.
return input.map((s) => {
  const u = new URL(s);
  return { href: u.href, hostname: u.hostname, pathname: u.pathname, search: u.search, decodedPath: decodeURIComponent(u.pathname) };
});
