package engine

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// URL and URLSearchParams behave as Node 20's: every table below runs
// as one script in Warden and in Node (sameAsNodeEach), and each entry's
// outcome is compared on its own.

// sameAsNodeEach runs code, a function body mapping input (a JSON
// array) to an array of the same length, in Warden and in Node, and
// reports every entry whose outcome differs, with its input. It returns
// how many entries were compared.
func sameAsNodeEach(t *testing.T, code string, inputs []any) int {
	t.Helper()
	for _, d := range nodeDifferences(t, code, inputs) {
		one, _ := json.Marshal(inputs[d.index])
		t.Errorf("input %s:\nwarden: %s\n  node: %s", one, d.warden, d.node)
	}
	return len(inputs)
}

type difference struct {
	index        int
	warden, node json.RawMessage
}

// nodeDifferences is sameAsNodeEach's comparison: the entries that
// differ.
func nodeDifferences(t *testing.T, code string, inputs []any) []difference {
	t.Helper()
	in, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	// A table is one execution of a few hundred parses: it gets more
	// than the default second, so a loaded machine does not fail it.
	res := run(t, contract.Request{Code: code, Input: in, Limits: contract.Limits{Timeout: 5 * time.Second}}, RunOptions{})
	got, want := wardenOutcome(res), runInNode(t, code, string(in))
	if !got.OK || !want.OK {
		if !equalOutcomes(got, want) {
			t.Fatalf("differs from Node for\n%s\nwarden: %s\n  node: %s", code, jsonText(got), jsonText(want))
		}
		t.Fatalf("the script failed on both sides: %s", jsonText(got))
	}
	var g, w []json.RawMessage
	if err := json.Unmarshal(got.Value, &g); err != nil {
		t.Fatalf("warden: %v", err)
	}
	if err := json.Unmarshal(want.Value, &w); err != nil {
		t.Fatalf("node: %v", err)
	}
	if len(g) != len(inputs) || len(w) != len(inputs) {
		t.Fatalf("%d inputs, warden answered %d, node %d", len(inputs), len(g), len(w))
	}
	var out []difference
	for i := range inputs {
		if compactJSON(g[i]) != compactJSON(w[i]) {
			out = append(out, difference{i, g[i], w[i]})
		}
	}
	return out
}

// urlComponents maps [input, base] pairs (base null for none) to every
// component of the parsed URL, or the error's name, message and code.
const urlComponents = `return input.map(([s, b]) => {
	try {
		const u = b === null ? new URL(s) : new URL(s, b);
		return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port,
			u.pathname, u.search, u.hash, String(u), u.toJSON(), URL.canParse(s, b === null ? undefined : b)];
	} catch (e) {
		return [e.name, e.message, e.code, e.input, e.base, URL.canParse(s, b === null ? undefined : b)];
	}
})`

func pairs(base any, inputs ...string) []any {
	out := make([]any, len(inputs))
	for i, s := range inputs {
		out[i] = []any{s, base}
	}
	return out
}

// urlCases are the parser's tricky classes, without a base.
var urlCases = []string{
	// schemes, special and not
	"http://example.com", "HTTPS://EXAMPLE.COM/", "ftp://a.b", "ws://h:80/", "wss://h:443/x", "wss://h:444",
	"http://h:80", "https://h:443", "ftp://h:21/", "http://h:0", "http://h:00080/", "http://h:65535", "http://h:65536",
	"http://h:-1", "http://h:1a", "http://h: 80", "http://h:/", "foo://h:80/", "foo:", "foo:/", "foo://", "foo:///x",
	"a+b-c.d:x", "1abc:x", "-x:y", "mailto:User@Example.COM", "javascript:alert(1)", "data:text/plain,hi there",
	"urn:isbn:0451450523", "sc:\\../", "sc::a@example.net", "non-special://h/a/../b", "non-special:/.//p",
	"non-special://[1:2::3]:80/", "non-special://ex%41mple/", "non-special://a b/", "non-special://a<b/",
	"nonspec://H%4fSt/", "git+ssh://git@github.com:repo.git", "blob:https://a.com/uuid", "blob:foo", "blob:http://x:90/y",
	// credentials
	"http://user@h", "http://user:pass@h/", "http://:pass@h", "http://user:@h", "http://@h", "http://a@b@c/",
	"http://a:b:c@h", "http://%41:%zz@h", "http://us er:p\u00e4ss@h", "http://a:b@/", "http://@/", "https://u:p@h:8080/x?q#f",
	"http://user@[::1]/", "http://a;b=c@h/", "http://a\\b@h", "foo://user:pass@h/",
	// hosts
	"http://EXAMPLE.COM./", "http://exa mple.com", "http://a<b", "http://a^b/", "http://a|b/", "http://a%b/",
	"http://%41.com/", "http://%zz/", "http://%25/", "http://a.b.c.d.e/", "http://./", "http://../", "http://a..b/",
	"http:///h", "http:h", "http:/h", "http:\\\\h\\p", "https:\\/h/", "http://h\\p\\q", "http://[::1]", "http://[::1]:8080/",
	"http://[0:0:0:0:0:0:0:1]/", "http://[1:0:0:0:1:0:0:0]/", "http://[1:0:0:1:0:0:0:1]/", "http://[::ffff:192.168.0.1]/",
	"http://[::127.0.0.1]/", "http://[1::]/", "http://[::]/", "http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8:9]/",
	"http://[1:2:3:4:5:6:7]/", "http://[:1]/", "http://[1:]/", "http://[1::2::3]/", "http://[12345::]/", "http://[::1.2.3]/",
	"http://[::1.2.3.4.5]/", "http://[::01.2.3.4]/", "http://[::256.2.3.4]/", "http://[g::]/", "http://[ABCD:EF01::]/",
	"http://[::1]x/", "http://[::1/", "http://::1]/", "http://[0:0:1:0:0:0:1:0]/", "http://[0:1:0:1:0:0:1:0]/",
	// IPv4
	"http://192.168.0.1/", "http://0x7f.1/", "http://0177.0.0.1/", "http://2130706433/", "http://127.1/", "http://127.0.1/",
	"http://0x7f000001/", "http://4294967295/", "http://4294967296/", "http://256.0.0.1/", "http://1.256.0.1/",
	"http://1.2.3.256/", "http://1.2.65536/", "http://1.16777216/", "http://0x/", "http://0x.0x.0/", "http://09/",
	"http://08.1/", "http://1.2.3.4./", "http://1.2.3.4../", "http://1.2.3.4.5/", "http://1.2.3.09/", "http://a.1/",
	"http://1.a/", "http://1.0xg/", "http://0xffffffff/", "http://0X7F.0.0.1/", "http://0.0.0.0/", "http://00000/",
	"http://1.2.3.4.0x/", "http://foo.09/", "http://foo.0x4/", "non-special://1.2.3/", "http://%31%32%37.1/",
	"http://1.2.3.4:80/", "file://127.0.0.1/x",
	// paths
	"http://h/a/b/../c", "http://h/a/./b", "http://h/a/%2e/b", "http://h/a/%2E%2e/b", "http://h/a/.%2e/b",
	"http://h/a/%2e./b", "http://h/..", "http://h/../../x", "http://h/a/..", "http://h/a/.", "http://h/a/b/..%2f",
	"http://h/a//b", "http://h/a\\b\\..\\c", "http://h/ space", "http://h/\"<>`{}|^", "http://h/\u00e9", "http://h/\U0001F600",
	"http://h/%zz%41", "http://h/a?b?c", "http://h/#a#b", "http://h/a\tb\nc\rd", "  http://h/  ", "\u0000http://h/\u001f",
	"http://h/a/..../b", "http://h/.hidden", "http://h/a/.../", "foo://h/a/../../b", "foo:/a/../b", "foo:a/../b",
	"foo:/..//x", "foo://h/./.", "http://h/;p?q", "http://h/a%2Fb", "http://h/%2e%2E", "http://h/\u0000",
	// queries and fragments
	"http://h/?a=1&b=2", "http://h/?'", "foo://h/?'", "http://h/?\"#\"", "http://h/?<>`", "http://h/?\u00e9=\u00fc",
	"http://h/?#", "http://h/#", "http://h/?", "http://h/# a`b", "http://h/#\u00e9", "http://h/?a#b?c#d", "http://h/?%zz",
	"http://h/?a b", "foo:?x", "foo:#x", "foo:x?#",
	// opaque paths
	"sc:a b c", "sc:a b ?q", "sc: x", "sc:\u00e9", "sc:%zz", "sc:a\u007f", "sc:a\u0001b", "about:blank", "tel:+1-555",
	"sc:/a b", "sc:a/../b",
	// file
	"file:///C:/a/b", "file:///C|/a", "file:C:/x", "file:/C|/x", "file://C:/x", "file://localhost/x", "file://LOCALHOST/x",
	"file://host/x", "file://host/C|/x", "file:///a/../../b", "file:///C:/../..", "file:", "file:/", "file://", "file:///",
	"file:x", "file:.", "file:..", "file:\\\\h\\x", "file://h:80/x", "file://u@h/x", "file://[::1]/x", "file:///a?b#c",
	"file:////x", "file://%41/x", "FILE:///X", "file:///c:/a/%2e%2e/b",
	// invalid
	"", " ", "x", "//h", "/a", "?q", "#f", "http://", "http://:80", "https://#", "http://?", "ht tp://h", "http//h",
	"\u00e9:x", ":x",
}

func TestURLParserAsNode(t *testing.T) {
	n := sameAsNodeEach(t, urlComponents, pairs(nil, urlCases...))
	t.Logf("%d URLs without a base compared with Node", n)
}

// urlRelative are references resolved against a base.
var urlRelative = map[string][]string{
	"http://a/b/c/d;p?q": {"g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s",
		"", ".", "./", "..", "../", "../g", "../..", "../../", "../../g", "../../../g", "../../../../g", "/./g", "/../g", "g.",
		".g", "g..", "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x",
		"g#s/../x", "http:g", "http:", "http:/g", "https:g", "\\g", "\\\\g", "//", "///g", "/\\g", "  g  ", "g\tt", "%2e%2e/g",
		"a b", "?", "#", "https://x", "foo:bar", "//user@h2:81/p", "//[::1]", "//0x7f.1", "?a=1#x", "\u00e9"},
	"file:///C:/a/b": {"..", "../..", "/", "d", "/D:/x", "x", "\\x", "//h/x", "///x", "?q", "#f", "C|", "D:", "//C:/x",
		"file:x", "file:/x", "file:..", "file:", "/.."},
	"file://h/a/b":         {"x", "/x", "//", "..", "file:y"},
	"sc://h/a/b":           {"c", "../c", "/c", "//h2/c", "?q", "#f", "", "..", "sc:x"},
	"sc:opaque":            {"#f", "?q", "x", "", "sc:y", "http://h/"},
	"about:blank":          {"#top", "about:x"},
	"https://h:8443/x?y#z": {"", "#a", "?b", "//h", "c", "https://h:443/"},
	"http://u:p@h/p":       {"q", "//h2", "?x", "http:x", "https:x"},
}

func TestURLWithBaseAsNode(t *testing.T) {
	var in []any
	for base, refs := range urlRelative {
		in = append(in, pairs(base, refs...)...)
	}
	// A base that is no URL fails, and so does a relative base.
	in = append(in, pairs("not a url", "x", "http://ok/")...)
	in = append(in, pairs("/relative", "x")...)
	n := sameAsNodeEach(t, urlComponents, in)
	t.Logf("%d URLs with a base compared with Node", n)
}

// idnaCases are hosts that go through domain to ASCII. Node carries the
// whole UTS #46 mapping table; Warden carries lower-casing, NFKC, NFC,
// the full stops and the ignored code points (idnaKnownDifferences
// lists where that is not enough).
var idnaCases = []string{
	"EXAMPLE.com", "ExAmPlE.CoM", "b\u00fccher.de", "B\u00dcCHER.de", "m\u00fcnchen.example", "stra\u00dfe.de",
	"\u00e9cole.fr", "caf\u00e9", "\u4f8b\u3048.jp", "\u4e2d\u6587.\u4e2d\u56fd", "\ud55c\uad6d.kr",
	"\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444", "\u041f\u0420\u0418\u041c\u0415\u0420.\u0420\u0424",
	"\u03b5\u03bb.gr", "\u0395\u039b.gr", "\U0001F4A9.la", "\u2603.net", "i\u2764.ws", "xn--bcher-kva.de",
	"XN--BCHER-KVA.de", "xn--ls8h.la", "xn--zz", "xn--", "xn--abc", "xn--a-ecp.ru", "a\u3002b\u3002c", "a\uff0eb", "a\uff61b",
	"\uff21\uff22\uff23.com", "\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45", "\ufb01.com", "a\u00adb", "\u00ad", "a\u200bb",
	"a\u200db", "a\u200cb", "\u0130stanbul", "\u00c5ngstr\u00f6m", "A\u030angstrom", "\u212bngstrom", "\u2460.com",
	"\u3000.com", "a\u0000b", "\u0085", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "\u05e2\u05d1\u05e8\u05d9\u05ea",
	"\u0915\u0916", "th\u00ecs.\u00eds", "%C3%BC.de", "%E2%98%83", "%ff", "%C3", "\u00fc%2E.de", "\u00e4.1",
	"\u1e9e", "\u03a3\u03c3\u03c2", "\u2488", "\u33a1", "\u2074\u2075", "\ufe0fa", "a\U000E0100",
	"\u00bd.com", "\u2100", "\u2488x", "\u0301a", "a\u0301", "\u00df", "\u03c2", "\u0627\u0031", "\u05d0a", "-a-.com",
	"a--b", "ab--c", "\u200d", "\ue000", "\U0010FFFD", "\u0378", "\u2f00", "\u3164", "\u115f", "\u1160x", "\u2028",
	"\u0340", "\u0374", "\u037a", "\u1d2c", "\u2163", "\u24b6", "\u3250", "\u10a0", "\u13f8", "\uab70",
	"\u0149", "\u0345", "\u03f4", "\u1fbe", "\u2126", "\u00b5", "\u0587", "\u1e9b\u0323", "\u0130", "\u2c00", "\u1fd3",
	"\u0390", "\u00c0\u0300", "\u2ffb", "\u303f", "\u1806", "\u0f77", "\u17a3", "\u1b6b", "\ua7f2", "\U0001D400",
	"\U0001F1E6", "\U0001F468\u200d\U0001F469", "\u2a74", "\u2e9f", "\u3131", "\u00a0", "\u1680", "\u2000", "\u205f",
	"\u0600", "\u06dd", "\u070f", "\u180e", "\u200e", "\u202a", "\u2066", "\ufff9", "\U000E0001", "\u0ccc", "\u0640",
	"\u07fa", "\u3031", "\u3005",
}

// idnaKnownDifferences are the cases above on which Warden is known to
// differ from Node, with the reason (each is checked to still differ,
// so a fixed case leaves this list).
var idnaKnownDifferences = map[string]string{
	"\u04c0":             "UTS #46 disallows CYRILLIC LETTER PALOCHKA; Warden lower-cases it and accepts it",
	"\u1c80":             "UTS #46 folds case (U+1C80 to U+0432); toLowerCase leaves it",
	"\u1f80":             "UTS #46 folds case (a Greek letter with ypogegrammeni to two letters); toLowerCase keeps one",
	"\u1fb3":             "UTS #46 folds case (alpha with ypogegrammeni to alpha iota); toLowerCase leaves it",
	"\u1fbc":             "UTS #46 folds case (to alpha iota); toLowerCase gives alpha with ypogegrammeni",
	"a\u094d\u200db":     "CheckJoiners allows a joiner after a virama (combining class 9); Warden has no combining classes and refuses every joiner",
	"\u0915\u094d\u200d": "CheckJoiners allows a joiner after a virama; Warden refuses every joiner",
}

func TestURLDomainToASCIIAsNode(t *testing.T) {
	code := `return input.map((h) => {
		const out = [];
		for (const s of ["http://" + h + "/", "ws://" + h + ":1/", "foo://" + h + "/"]) {
			try { out.push(new URL(s).host); } catch (e) { out.push(e.message); }
		}
		return out;
	})`
	in := make([]any, len(idnaCases))
	for i, h := range idnaCases {
		in[i] = h
	}
	n := sameAsNodeEach(t, code, in)
	t.Logf("%d hosts compared with Node", n)
	var known []any
	for h := range idnaKnownDifferences {
		known = append(known, h)
	}
	if d := nodeDifferences(t, code, known); len(d) != len(known) {
		t.Errorf("%d of the %d known differences still differ from Node: %+v", len(d), len(known), d)
	}
}

// setterCases are [href, property, value] triples: the URL after the
// assignment is compared component by component.
var setterCases = [][3]string{
	{"http://h/p", "href", "https://x/y?z#w"}, {"http://h/p", "href", "not a url"}, {"http://h/?a=1", "href", "http://h/?b=2"},
	{"http://h/", "protocol", "https"}, {"http://h/", "protocol", "HTTPS:"}, {"http://h/", "protocol", "ftp:x"},
	{"http://h/", "protocol", "foo"}, {"foo://h/", "protocol", "http"}, {"foo://h/", "protocol", "bar"}, {"http://h:443/", "protocol", "https"},
	{"http://u@h/", "protocol", "file"}, {"file:///x", "protocol", "http"}, {"file://h/x", "protocol", "https"}, {"http://h/", "protocol", "1x"},
	{"http://h/", "protocol", ""}, {"http://h/", "protocol", "h\ttp"}, {"sc:opaque", "protocol", "other"}, {"http://h:80/", "protocol", "ws"},
	{"http://h/", "username", "us er"}, {"http://h/", "username", "a:b@c"}, {"http://h/", "username", ""}, {"file:///x", "username", "u"},
	{"sc:opaque", "username", "u"}, {"http://u:p@h/", "username", ""}, {"http://h/", "username", "\u00e9"},
	{"http://h/", "password", "p w"}, {"http://u@h/", "password", "x:y"}, {"http://u:p@h/", "password", ""}, {"file://h/x", "password", "p"},
	{"http://h/", "host", "x.com"}, {"http://h/", "host", "x.com:8080"}, {"http://h:1/", "host", "x"}, {"http://h/", "host", "x:80"},
	{"http://h/", "host", ""}, {"foo://h/", "host", ""}, {"foo://u@h/", "host", ""}, {"http://h/", "host", "a b"}, {"http://h/", "host", "[::1]:9"},
	{"http://h/", "host", "x/y"}, {"http://h/", "host", "x?y"}, {"http://h/", "host", "x#y"}, {"http://h/", "host", "\u00fc.de"},
	{"http://h/", "host", "0x7f.1"}, {"sc:opaque", "host", "x"}, {"file:///x", "host", "h"}, {"file://h/x", "host", "localhost"},
	{"http://h/", "host", "x:abc"}, {"http://h/", "host", ":80"}, {"http://h/", "host", "x:99999"},
	{"http://h:8/", "hostname", "x"}, {"http://h/", "hostname", "x:90"}, {"http://h/", "hostname", "[::2]"}, {"http://h/", "hostname", ""},
	{"foo://h/", "hostname", ""}, {"http://h/", "hostname", "a%zz"}, {"file://h/x", "hostname", ""}, {"sc:o", "hostname", "x"},
	{"http://h/", "port", "8080"}, {"http://h/", "port", "80"}, {"http://h:1/", "port", ""}, {"http://h/", "port", "12ab"},
	{"http://h/", "port", "ab"}, {"http://h/", "port", "65536"}, {"http://h/", "port", " 9"}, {"file:///x", "port", "1"},
	{"sc:o", "port", "1"}, {"foo://h/", "port", "0"}, {"http://h/", "port", "8080/x"}, {"https://h:1/", "port", "443"},
	{"http://h/a", "pathname", "b/c"}, {"http://h/a", "pathname", "/x/../y"}, {"http://h/a", "pathname", ""}, {"http://h/a", "pathname", "a?b#c"},
	{"http://h/a", "pathname", "\\x\\y"}, {"foo://h/a", "pathname", "\\x"}, {"foo:/a", "pathname", "b"}, {"foo:/a", "pathname", "//b"},
	{"sc:opaque", "pathname", "x"}, {"file:///C:/a", "pathname", "/.."}, {"file:///a", "pathname", "C|/x"}, {"http://h/", "pathname", "%2e%2e/x y"},
	{"foo://h", "pathname", ""}, {"foo:", "pathname", ""},
	{"http://h/p", "search", "a=1"}, {"http://h/p", "search", "?a=1"}, {"http://h/p?x", "search", ""}, {"http://h/p", "search", "?"},
	{"http://h/p", "search", "a#b"}, {"http://h/p", "search", "'\"<>"}, {"foo://h/p", "search", "'"}, {"sc:a b ?q", "search", ""},
	{"sc:a b ?q#f", "search", ""}, {"http://h/p#f", "search", "q"},
	{"http://h/p", "hash", "f"}, {"http://h/p", "hash", "#f"}, {"http://h/p#x", "hash", ""}, {"http://h/p", "hash", "#"},
	{"http://h/p", "hash", "a b`#c"}, {"sc:a b #f", "hash", ""}, {"sc:a b ", "hash", "x"}, {"sc:opaque", "hash", "x"},
}

func TestURLSettersAsNode(t *testing.T) {
	code := `return input.map(([href, prop, value]) => {
		const u = new URL(href);
		let threw = null;
		try { u[prop] = value; } catch (e) { threw = [e.name, e.message, e.code]; }
		return [threw, u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash,
			[...u.searchParams]];
	})`
	in := make([]any, len(setterCases))
	for i, c := range setterCases {
		in[i] = c[:]
	}
	n := sameAsNodeEach(t, code, in)
	t.Logf("%d setter cases compared with Node", n)
}

// TestURLSetterConversionsAsNode: a setter converts its value as Node
// does (numbers, null, undefined, objects with toString, symbols).
func TestURLSetterConversionsAsNode(t *testing.T) {
	sameAsNode(t, `const out = [];
		for (const v of [8080, null, undefined, true, {toString() { return "81" }}, [82], Symbol("s")]) {
			for (const prop of ["port", "hostname", "pathname", "search", "hash", "username"]) {
				const u = new URL("http://h/");
				try { u[prop] = v; out.push(u.href); } catch (e) { out.push(e.name + ": " + e.message); }
			}
		}
		return out`, "")
	// A toString that changes the URL is overwritten by the setter,
	// which works on the URL as it was before the conversion.
	sameAsNode(t, `const vals = {protocol: "https", username: "v", password: "w", host: "x:2", hostname: "x", port: "3",
			pathname: "/again", search: "?s", hash: "#g", href: "http://z/"};
		return Object.keys(vals).map((prop) => {
			const u = new URL("http://u@h:1/p?q=1#f");
			u[prop] = { toString() { u.href = "http://r@replaced:9/rp?rq#rf"; return vals[prop]; } };
			const v = new URL("http://u@h:1/p?q=1#f");
			const p = v.searchParams;
			v[prop] = { toString() { p.append("z", "1"); return vals[prop]; } };
			return [u.href, v.href, String(p)];
		})`, "")
}

// paramsCases are URLSearchParams built from strings: each is parsed,
// listed, serialised, and read through the methods.
var paramsCases = []string{
	"", "?", "??a=1", "a=1&b=2", "a=1&a=2&a=3", "a", "a=", "=b", "=", "&&a=1&&", "a=1=2", "a+b=c+d", "a%20b=%2B",
	"%zz=%4", "%e2%82%ac=%E2%82", "%F0%9F%98%80", "\u00e9=\u00fc", "a=b c", "a=~!*()'-._", "a=%26&b=%3D", "a=%00",
	"b=2&a=1&c=0&a=0", "z&y&x", "\U0001F600=1&\uff41=2&A=3&a=4", "%C3%A9=1", "a\tb=c", "?a=1?b=2", "a=1#frag", "+",
	"%", "%%", "%2", "a=%0A%0D", "&", "a==",
}

func TestURLSearchParamsAsNode(t *testing.T) {
	code := `return input.map((s) => {
		const p = new URLSearchParams(s);
		const q = new URLSearchParams(s); q.sort();
		const first = [...p.keys()][0];
		return [[...p], p.toString(), String(q), [...q.entries()], p.size, [...p.values()], first === undefined ? null :
			[p.get(first), p.getAll(first), p.has(first), p.has(first, "nope"), p.get("missing")]];
	})`
	in := make([]any, len(paramsCases))
	for i, c := range paramsCases {
		in[i] = c
	}
	n := sameAsNodeEach(t, code, in)
	t.Logf("%d query strings compared with Node", n)
}

// TestURLSearchParamsMethodsAsNode: constructors from pairs and
// records, every method, the iterators and the errors.
func TestURLSearchParamsMethodsAsNode(t *testing.T) {
	code := `const err = (f) => { try { return f(); } catch (e) { return [e.name, e.message, e.code]; } };
	return input.map((src) => err(() => { const r = (0, eval)("(" + src + ")"); return r === undefined ? "undefined" : r; }))`
	cases := []any{
		`String(new URLSearchParams([["a", "1"], ["b", "2"]]))`,
		`String(new URLSearchParams([["a", 1], new Set(["b", 2])]))`,
		`String(new URLSearchParams([["a"]]))`,
		`String(new URLSearchParams([["a", "1", "2"]]))`,
		`String(new URLSearchParams([null]))`,
		`String(new URLSearchParams([5]))`,
		`String(new URLSearchParams({a: 1, b: [2, 3], c: null, d: undefined, "\u00e9": "x y"}))`,
		`String(new URLSearchParams({[Symbol.iterator]: 5}))`,
		`String(new URLSearchParams({[Symbol.iterator]: null, a: 1}))`,
		`String(new URLSearchParams(Object.defineProperty({a: 1}, "hidden", {value: 2, enumerable: false})))`,
		`String(new URLSearchParams(new URLSearchParams("x=1&y=2")))`,
		`String(new URLSearchParams(new Map([["k", "v"]])))`,
		`String(new URLSearchParams(12.5))`,
		`String(new URLSearchParams(null))`,
		`String(new URLSearchParams(true))`,
		`String(new URLSearchParams("a=1", "ignored"))`,
		`(() => { const p = new URLSearchParams("a=1&b=2&a=3"); p.append("a", "4"); p.append("c d", "&="); return p.toString(); })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2&a=3"); p.delete("a"); return p.toString(); })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2&a=3"); p.delete("a", "3"); return p.toString(); })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2&a=3"); p.delete("a", undefined); return p.toString(); })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2&a=3"); p.set("a", "x"); return p.toString(); })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2&a=3"); p.set("z", "x"); return p.toString(); })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2"); return [p.has("a", "1"), p.has("a", "2"), p.has("a", undefined), p.has("c")]; })()`,
		`(() => { const p = new URLSearchParams("b=1&a=2&b=0&a=1&\u00e9=1&e=2&E=3"); p.sort(); return [...p]; })()`,
		`(() => { const a = []; for (let i = 0; i < 150; i++) a.push("k" + (i % 7) + "=" + i); const p = new URLSearchParams(a.join("&")); p.sort(); return p.toString(); })()`,
		`(() => { const p = new URLSearchParams("\ud83d\ude00=1&\uffff=2&\ue000=3"); p.sort(); return [...p.keys()]; })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2&c=3"); const seen = []; p.forEach(function (v, k, o) { seen.push([v, k, o === p, this]); if (k === "a") p.delete("b"); }, "T"); return seen; })()`,
		`(() => { const p = new URLSearchParams("a=1&b=2"); const it = p.entries(); p.append("c", "3"); return [...it]; })()`,
		`(() => { const p = new URLSearchParams("a=1"); const it = p[Symbol.iterator](); return [it.next(), it.next(), it.next()]; })()`,
		`Object.prototype.toString.call(new URLSearchParams().keys())`,
		`Object.getPrototypeOf(Object.getPrototypeOf(new URLSearchParams().values())) === Object.getPrototypeOf(Object.getPrototypeOf([].keys()))`,
		`new URLSearchParams().keys().next.call({})`,
		`new URLSearchParams().append("a")`,
		`new URLSearchParams().set("a")`,
		`new URLSearchParams().get()`,
		`new URLSearchParams().getAll()`,
		`new URLSearchParams().has()`,
		`new URLSearchParams().delete()`,
		`new URLSearchParams().forEach(5)`,
		`new URLSearchParams().forEach("s")`,
		`new URLSearchParams().forEach({})`,
		`URLSearchParams.prototype.get.call({}, "a")`,
		`URLSearchParams.prototype.toString.call(new URL("http://h/"))`,
		`Object.getOwnPropertyDescriptor(URLSearchParams.prototype, "size").get.call(null)`,
		`URLSearchParams("a=1")`,
		`[String(new URLSearchParams("\ud800=\udc00")), new URLSearchParams({"\ud800": 1, "\udc00": 2}).toString()]`,
		`new URL("http://h/\ud800?\udc00#\ud83d").href`,
		`[URLSearchParams.length, URLSearchParams.name, URLSearchParams.prototype.append.length, URLSearchParams.prototype.delete.length, URLSearchParams.prototype.forEach.length, URLSearchParams.prototype.has.length]`,
		`URLSearchParams.prototype[Symbol.iterator] === URLSearchParams.prototype.entries`,
		`Object.keys(URLSearchParams.prototype)`,
		`Object.prototype.toString.call(new URLSearchParams())`,
		`Object.prototype.toString.call(URLSearchParams.prototype)`,
		`[Object.keys(new URLSearchParams("a=1")), JSON.stringify(new URLSearchParams("a=1"))]`,
		`new URLSearchParams("a=1").get(Symbol())`,
		`String(new URLSearchParams([[{toString() { return "k" }}, {toString() { return "v" }}]]))`,
		`(() => { class P extends URLSearchParams { x() { return this.get("a") } }; const p = new P("a=7"); return [p.x(), p instanceof URLSearchParams, String(p)]; })()`,
	}
	n := sameAsNodeEach(t, code, cases)
	t.Logf("%d URLSearchParams cases compared with Node", n)
}

// TestSameAsNodeEachSeesADifference: an entry Node computes differently
// is reported, and only that entry.
func TestSameAsNodeEachSeesADifference(t *testing.T) {
	if _, err := nodePath(); err != nil {
		t.Skipf("node is not installed (%v)", err)
	}
	d := nodeDifferences(t, `return input.map((x) => x === 1 ? typeof process : x)`, []any{0, 1, 2})
	if len(d) != 1 || d[0].index != 1 {
		t.Fatalf("differences %+v, want only entry 1's", d)
	}
}

// TestURLObjectAsNode: the URL class's shape (names, lengths, property
// attributes, tags), its errors, and the live binding between
// searchParams and search.
func TestURLObjectAsNode(t *testing.T) {
	code := `const err = (f) => { try { return f(); } catch (e) { return [e.name, e.message, e.code, e.input, e.base]; } };
	const attrs = (o, keys) => keys.map((k) => { const d = Object.getOwnPropertyDescriptor(o, k);
		return d === undefined ? null : [typeof d.get, typeof d.set, d.writable, d.enumerable, d.configurable, typeof d.value === "function" ? d.value.length : null]; });
	return input.map((src) => err(() => { const r = (0, eval)("(" + src + ")"); return r === undefined ? "undefined" : r; }))`
	cases := []any{
		`Object.keys(URL.prototype)`,
		`[URL.name, URL.length, typeof URL, URL.canParse.length, Object.getOwnPropertyDescriptor(URL, "prototype").writable]`,
		`attrs(URL.prototype, ["href", "origin", "protocol", "searchParams", "toString", "toJSON", "constructor"])`,
		`attrs(URLSearchParams.prototype, ["size", "append", "sort", "constructor"])`,
		`attrs(globalThis, ["URL", "URLSearchParams"])`,
		`Object.getOwnPropertyDescriptor(URL.prototype, "href").get.name`,
		`[Object.prototype.toString.call(new URL("http://h")), Object.prototype.toString.call(URL.prototype), String(new URL("http://h/x"))]`,
		`[JSON.stringify({u: new URL("http://h/?q#f")}), Object.keys(new URL("http://h")), new URL("http://h") instanceof URL]`,
		`new URL()`, `new URL("nope")`, `new URL("x", "nope")`, `new URL("x", undefined)`, `new URL("x", null)`,
		`new URL(Symbol())`, `URL("http://h")`, `new URL("http://h").href = "nope"`,
		`new URL("http://a/", new URL("http://b/c/d")).href`, `new URL({toString() { return "http://t/" }}).href`,
		`new URL(new URL("http://h/p")).href`, `URL.canParse()`, `[URL.canParse("http://h"), URL.canParse("x"), URL.canParse("x", "http://h")]`,
		`Object.getOwnPropertyDescriptor(URL.prototype, "href").get.call({})`,
		`URL.prototype.toString.call(new URLSearchParams())`,
		`URL.prototype.toJSON.call({})`,
		`(() => { const u = new URL("http://h/?a=1&b=2"); const p = u.searchParams; p.append("c", "3 4"); return [u.href, u.search, p === u.searchParams]; })()`,
		`(() => { const u = new URL("http://h/?a=1"); const p = u.searchParams; u.search = "?x=9"; return [...p]; })()`,
		`(() => { const u = new URL("http://h/?a=1"); const p = u.searchParams; u.href = "http://g/?y=8"; p.append("z", "7"); return [u.href, [...p]]; })()`,
		`(() => { const u = new URL("http://h/?a=1"); u.searchParams.delete("a"); return [u.href, u.search]; })()`,
		`(() => { const u = new URL("http://h/p#f"); u.searchParams.set("q", "~ '"); return u.href; })()`,
		`(() => { const u = new URL("http://h/?a=%zz&b=+"); return [u.searchParams.get("a"), u.searchParams.get("b"), u.search]; })()`,
		`(() => { const u = new URL("http://h/?b=2&a=1"); u.searchParams.sort(); return u.href; })()`,
		`(() => { const u = new URL("sc:a b ?q=1"); u.searchParams.delete("q"); return u.href; })()`,
		`(() => { const u = new URL("http://h/?a=1"); u.search = ""; return [u.href, u.searchParams.size]; })()`,
		`(() => { class U extends URL { get x() { return this.hostname + "!" } }; const u = new U("http://h/"); return [u.x, u instanceof URL, u.href]; })()`,
		`(() => { const u = new URL("http://h/"); u.searchParams.foo = 1; return [u.searchParams.foo, new URL("http://h/").searchParams.foo]; })()`,
		`typeof URL.parse === "function" ? [URL.parse("http://h/x").href, URL.parse("nope"), URL.parse("x", "http://h/").href] : "no parse"`,
	}
	n := sameAsNodeEach(t, code, cases)
	t.Logf("%d URL object cases compared with Node", n)
}

// BenchmarkNewURL measures new URL on a typical URL: one op is 1,000
// parses inside one execution, in both of the engine's modes
// (benchRun; close=off is how a supervised child runs). Divide ns/op by
// 1,000 for the time per URL, after BenchmarkTrivialEval's cost.
func BenchmarkNewURL(b *testing.B) {
	for _, in := range []struct{ name, url string }{
		{"typical", "https://user:pass@www.example.com:8080/path/to/page.html?query=1&b=two#section"},
		{"idna", "https://b\u00fccher.example/\u00e9t\u00e9?q=\u00fc"},
	} {
		b.Run(in.name, func(b *testing.B) {
			input, _ := json.Marshal(in.url)
			benchRun(b, contract.Request{Code: `let h = 0; for (let i = 0; i < 1000; i++) h += new URL(input).href.length; return h`,
				Input: input, Limits: contract.Limits{Timeout: 30 * time.Second}}, RunOptions{})
		})
	}
	// One parse of a 1 MiB URL per op: 1,024 path segments, or one query.
	b.Run("path1MiB", func(b *testing.B) {
		benchRun(b, contract.Request{Code: `return new URL("http://h/" + ("a".repeat(1023) + "/").repeat(1024)).href.length`,
			Limits: contract.Limits{Timeout: 30 * time.Second}}, RunOptions{})
	})
	b.Run("query1MiB", func(b *testing.B) {
		benchRun(b, contract.Request{Code: `return new URL("http://h/?" + "q".repeat(1 << 20)).href.length`,
			Limits: contract.Limits{Timeout: 30 * time.Second}}, RunOptions{})
	})
}
