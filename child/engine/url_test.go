package engine

import "testing"

func TestURLSmoke(t *testing.T) {
	sameAsNode(t, `const u = new URL("HTTP://user:pa ss@EXAMPLE.com:80/a/./b/../c?x=1 2#frag");
		return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, [...u.searchParams]]`, "")
}
