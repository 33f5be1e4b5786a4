// Parse URLs from user input into their parts, normalising as the URL
// standard does.
return input.map((s) => {
  try {
    const u = new URL(s);
    return { href: u.href, protocol: u.protocol, username: u.username, password: u.password, host: u.host, hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash, origin: u.origin };
  } catch (e) {
    return { input: s, error: e.name, canParse: typeof URL.canParse === "function" ? URL.canParse(s) : "n/a" };
  }
});
