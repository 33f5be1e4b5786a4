package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// TextEncoder, TextDecoder, atob, btoa and Buffer behave as Node 20's:
// every case is an expression run in both, and compared one by one.

// caseHarness turns each case into an entry of the result: its value, or
// the name, message and code of what it threw (and whether that is a
// DOMException). Typed arrays become plain arrays, so that Warden and
// Node show bytes alike.
const caseHarness = `const out = [];
const shown = (v) => (ArrayBuffer.isView(v) && !(v instanceof DataView)) ? { bytes: Array.from(v), kind: Object.prototype.toString.call(v) } : v;
const t = (f) => {
	try { out.push({ value: shown(f()) }); }
	catch (e) { out.push({ threw: String(e && e.name), message: String(e && e.message), code: e && e.code, dom: e instanceof DOMException }); }
};
const u8 = (a) => new Uint8Array(a);
const dec = (a, label, options) => new TextDecoder(label, options).decode(u8(a));
const stream = (label, options, ...chunks) => {
	const d = new TextDecoder(label, options);
	const parts = chunks.map((c, i) => d.decode(c === null ? undefined : u8(c), { stream: i < chunks.length - 1 }));
	return parts;
};
const sum = (b) => { let s = 0; for (let i = 0; i < b.length; i++) s = (s * 31 + b[i]) >>> 0; return [b.length, s]; };
`

// compareCases runs the cases (with setup before them) in Warden and in
// Node and reports each case that differs.
func compareCases(t *testing.T, setup string, cases []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(caseHarness)
	b.WriteString(setup)
	for _, c := range cases {
		fmt.Fprintf(&b, "\nt(() => (%s));", c)
	}
	b.WriteString("\nreturn out;")
	code := b.String()
	// The large cases take a while on a loaded machine: a longer deadline
	// than the default keeps the comparison about values.
	req := contract.Request{Code: code, Limits: contract.Limits{Timeout: 20 * time.Second}}
	got := wardenOutcome(run(t, req, RunOptions{}))
	want := runInNode(t, code, "")
	if !got.OK || !want.OK {
		t.Fatalf("the cases did not run: warden %s, node %s", jsonText(got), jsonText(want))
	}
	var g, w []json.RawMessage
	if err := json.Unmarshal(got.Value, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want.Value, &w); err != nil {
		t.Fatal(err)
	}
	if len(g) != len(cases) || len(w) != len(cases) {
		t.Fatalf("%d cases, warden answered %d, node %d", len(cases), len(g), len(w))
	}
	t.Logf("%d cases compared with Node", len(cases))
	for i, c := range cases {
		if compactJSON(g[i]) != compactJSON(w[i]) {
			t.Errorf("case %s\nwarden: %s\n  node: %s", c, clip(g[i]), clip(w[i]))
		}
	}
}

func clip(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 400 {
		return string(b[:400]) + "..."
	}
	return string(b)
}

// utf8Errors holds a byte sequence of every UTF-8 error class, and valid
// neighbours of each.
var utf8Errors = []string{
	// overlong forms
	"[0xc0, 0x80]", "[0xc1, 0xbf]", "[0xe0, 0x80, 0x80]", "[0xe0, 0x9f, 0xbf]", "[0xf0, 0x80, 0x80, 0x80]", "[0xf0, 0x8f, 0xbf, 0xbf]",
	// encoded surrogates
	"[0xed, 0xa0, 0x80]", "[0xed, 0xbf, 0xbf]", "[0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]",
	// truncated sequences
	"[0xc3]", "[0xe2, 0x82]", "[0xf0, 0x9f, 0x98]", "[0xe2, 0x82, 0x41]", "[0xf0, 0x9f, 0x41, 0x42]", "[0x61, 0xe2]", "[0xe2, 0xe2, 0x82, 0xac]",
	// past U+10FFFF and bytes no sequence starts with
	"[0xf4, 0x90, 0x80, 0x80]", "[0xf5, 0x80, 0x80, 0x80]", "[0xf8, 0x88, 0x80, 0x80, 0x80]", "[0xff]", "[0xfe, 0x41]",
	// stray continuation bytes
	"[0x80]", "[0xbf, 0x80]", "[0x41, 0x80, 0x42]",
	// valid edges
	"[0x7f, 0xc2, 0x80, 0xdf, 0xbf]", "[0xe0, 0xa0, 0x80, 0xef, 0xbf, 0xbf]", "[0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80]",
	"[0xf0, 0x90, 0x80, 0x80, 0xf4, 0x8f, 0xbf, 0xbf]", "[0xef, 0xbb, 0xbf, 0x41]", "[0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]", "[]",
}

func TestTextDecoderUTF8AsNode(t *testing.T) {
	var cases []string
	for _, seq := range utf8Errors {
		cases = append(cases,
			"dec("+seq+")",
			"dec("+seq+", 'utf-8', {fatal: true})",
			"dec("+seq+", 'utf-8', {ignoreBOM: true})")
	}
	cases = append(cases,
		// past the native chunk (32 KiB): valid, then an error far in
		"dec([...Array(40000).fill(0x41), 0xe2, 0x82, 0xac, 0xff, 0x42]).slice(39998)",
		"dec([...Array(32767).fill(0x41), 0xe2, 0x82, 0xac, 0x42]).slice(32765)",
		"dec([...Array(32766).fill(0x41), 0xf0, 0x9f, 0x98, 0x80, 0x42]).slice(32764)",
		"dec([...Array(32768).fill(0xe9)]).length",
		// an invalid chunk, then sequences across the chunk boundary
		"dec([0xff, ...Array(32765).fill(0x41), 0xf0, 0x90, 0x80, 0x80, 0x80, 0x42]).slice(32764)",
		"dec([0xff, ...Array(32764).fill(0x41), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x42]).slice(32763)",
		"dec([0xff, ...Array(32765).fill(0x41), 0xe2, 0x82, 0xac, 0x42, 0xc3]).slice(32764)",
		"dec([...Array(32766).fill(0x41), 0xf0, 0x90, 0x80, 0x80, 0x80, 0x80, 0xff, 0x42]).slice(32764)",
		"dec([...Array(32767).fill(0x41), 0xe2, 0x82, 0xe2, 0x82, 0xac], 'utf-8', {fatal: true})",
		"dec([0xff, ...Array(70000).fill(0x41), 0xc3, 0xa9]).length",
		"dec([...Array(32762).fill(0x41), 0xf0, 0x90, 0x80, 0x80, 0x80, 0x80, 0x80, 0x42]).slice(32760)",
		"dec([...Array(32768).fill(0xe9)], 'utf-8', {fatal: true}).length",
		"dec(Array.from(new TextEncoder().encode('é€😀'.repeat(20000)))).length",
		// input types
		"new TextDecoder().decode(new Uint8Array([0x68, 0x69]).buffer)",
		"new TextDecoder().decode(new DataView(new Uint8Array([0x41, 0x68, 0x69, 0x42]).buffer, 1, 2))",
		"new TextDecoder().decode(new Uint16Array([0x6968]))",
		"new TextDecoder().decode(new Int8Array([0x68, -0x3d, -0x57]))",
		"new TextDecoder().decode(new Uint8Array([0x41, 0x68, 0x69, 0x42]).subarray(1, 3))",
		"new TextDecoder().decode(new Float64Array(1))",
		"new TextDecoder().decode(new SharedArrayBuffer(2))",
		"new TextDecoder().decode(new Uint8Array(new SharedArrayBuffer(4), 1, 2))",
		"new TextDecoder().decode(Buffer.from('hé'))",
		"new TextDecoder('utf-16le').decode(Buffer.from('hé', 'utf16le'))",
		"new TextDecoder().decode()",
		"new TextDecoder().decode(undefined)",
		"new TextDecoder().decode(5)",
		"new TextDecoder().decode('abc')",
		"new TextDecoder().decode(null)",
		"new TextDecoder().decode({})",
		"new TextDecoder().decode([0x41])",
		"new TextDecoder().decode(u8([0x41]), 5)",
		"new TextDecoder().decode(u8([0x41]), null)",
		"new TextDecoder().decode(u8([0x41]), {stream: true})",
		"(() => { const d = new TextDecoder(); d.decode(u8([]), {stream: true}); return d.decode(5); })()",
		"(() => { const d = new TextDecoder(); d.decode(u8([]), {stream: true}); return d.decode(u8([0x41]), 5); })()",
	)
	compareCases(t, "", cases)
}

func TestTextDecoderStreamAsNode(t *testing.T) {
	compareCases(t, "", []string{
		"stream('utf-8', {}, [0xe2], [0x82, 0xac])",
		"stream('utf-8', {}, [0xe2, 0x82], [0xac])",
		"stream('utf-8', {}, [0xe2], [0x82], [0xac], [])",
		"stream('utf-8', {}, [0xf0], [0x9f, 0x98, 0x80])",
		"stream('utf-8', {}, [0xf0, 0x9f], [0x98, 0x80])",
		"stream('utf-8', {}, [0xf0, 0x9f, 0x98], [0x80, 0x41])",
		"stream('utf-8', {}, [0x41, 0xe2], null)",
		"stream('utf-8', {}, [0xe2, 0x82], [0x41])",
		"stream('utf-8', {}, [0xe0], [0x80])",
		"stream('utf-8', {}, [0xed], [0xa0, 0x80])",
		"stream('utf-8', {}, [0xf4], [0x90])",
		"stream('utf-8', {fatal: true}, [0xe2], [0x82, 0xac])",
		"stream('utf-8', {fatal: true}, [0xe2], null)",
		"stream('utf-8', {fatal: true}, [0xe2], [0x41])",
		"stream('utf-8', {}, [0xef], [0xbb, 0xbf, 0x41])",
		"stream('utf-8', {}, [0xef, 0xbb, 0xbf], [0xef, 0xbb, 0xbf, 0x41])",
		"stream('utf-8', {ignoreBOM: true}, [0xef, 0xbb], [0xbf, 0x41])",
		"stream('utf-8', {}, [], [0xef, 0xbb, 0xbf, 0x41])",
		"(() => { const d = new TextDecoder(); return [d.decode(u8([0xef, 0xbb, 0xbf, 0x41])), d.decode(u8([0xef, 0xbb, 0xbf, 0x42]))]; })()",
		"(() => { const d = new TextDecoder(); return [d.decode(u8([0xef, 0xbb, 0xbf, 0x41]), {stream: true}), d.decode(u8([0x42])), d.decode(u8([0xef, 0xbb, 0xbf, 0x43]), {stream: true})]; })()",
		"(() => { const d = new TextDecoder(); return [d.decode(u8([0xe2]), {stream: true}), d.decode(u8([0x82, 0xac]), {stream: true}), d.decode()]; })()",
		"(() => { const d = new TextDecoder('utf-8', {fatal: true}); try { d.decode(u8([0xff]), {stream: true}); } catch (e) {} return d.decode(u8([0x41])); })()",
		"stream('utf-16le', {}, [0x41], [0x00, 0x42, 0x00])",
		"stream('utf-16le', {}, [0x3d, 0xd8], [0x00, 0xde])",
		"stream('utf-16le', {}, [0x3d, 0xd8, 0x00], [0xde])",
		"stream('utf-16le', {}, [0x3d, 0xd8], null)",
		"stream('utf-16le', {}, [0x41], null)",
		"stream('utf-16le', {fatal: true}, [0x41], null)",
		"stream('utf-16le', {}, [0xff], [0xfe, 0x41, 0x00])",
		"stream('latin1', {}, [0x80, 0x9f], [0xe9, 0x41])",
	})
}

func TestTextDecoderEncodingsAsNode(t *testing.T) {
	cases := []string{
		"dec([0x41, 0x00, 0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde], 'utf-16le')",
		"dec([0xff, 0xfe, 0x41, 0x00], 'utf-16le')",
		"dec([0xff, 0xfe, 0x41, 0x00], 'utf-16le', {ignoreBOM: true})",
		"dec([0x00, 0xd8, 0x41, 0x00], 'utf-16le')",
		"dec([0x00, 0xdc, 0x00, 0xd8], 'utf-16le')",
		"dec([0x00, 0xd8], 'utf-16le', {fatal: true})",
		"dec([0x00, 0xdc], 'utf-16le', {fatal: true})",
		"dec([0x41, 0x00, 0x42], 'utf-16le')",
		"dec([0x41, 0x00, 0x42], 'utf-16le', {fatal: true})",
		"new TextDecoder('utf-16le').decode(5)",
		"new TextDecoder('utf-16le').decode(u8([0x41, 0]), 5)",
		"new TextDecoder('utf-16le').decode(new Uint16Array([0x263a, 0xd83d, 0xde00]))",
		"sum(new TextEncoder().encode(dec(Array.from(Buffer.from('é€😀\\ud800x'.repeat(5000), 'utf16le')), 'utf-16le')))",
		"dec(Array.from(Buffer.from('é€😀\\udc00'.repeat(5000), 'utf16le')), 'utf-16le', {fatal: true})",
		"sum(Buffer.from(Buffer.from('a😀\\ud800'.repeat(5000), 'ucs2').toString('ucs2'), 'ucs2'))",
		"new TextDecoder('utf-16le').decode(new Uint8Array([0, 0x41, 0, 0x42, 0]).subarray(1))",
		// windows-1252 outside C1 (Node 20 decodes C1 as ISO-8859-1 when
		// not streaming; see the streaming cases below)
		"dec(Array.from({length: 0x80}, (_, i) => i), 'latin1')",
		"dec(Array.from({length: 0x60}, (_, i) => i + 0xa0), 'windows-1252')",
		"dec([0x41, 0xe9, 0xff], 'ascii', {fatal: true})",
		"stream('latin1', {}, Array.from({length: 0x20}, (_, i) => i + 0x80), [])",
		"stream('us-ascii', {}, [0x80, 0x81, 0x8d, 0x8f, 0x90, 0x9d, 0x9f], [])",
		"stream('latin1', {}, Array.from({length: 70000}, (_, i) => (i * 7) & 255), [])",
		"dec([0xef, 0xbb, 0xbf, 0x41], 'latin1')",
		// labels
		"new TextDecoder('  UTF8\\n').encoding",
		"new TextDecoder('\\tLatin1\\f\\r ').encoding",
		"new TextDecoder('UTF-16').encoding",
		"new TextDecoder(undefined).encoding",
		"new TextDecoder({toString() { return 'ascii'; }}).encoding",
		"new TextDecoder('xyz')",
		"new TextDecoder('')",
		"new TextDecoder(null)",
		"new TextDecoder('utf-8x')",
		"new TextDecoder('utf\\u00a0-8')",
		"new TextDecoder('\\vutf-8')",
		"new TextDecoder(Symbol())",
		// options and getters
		"[new TextDecoder().fatal, new TextDecoder().ignoreBOM, new TextDecoder().encoding]",
		"[new TextDecoder('utf-8', {fatal: 1}).fatal, new TextDecoder('utf-8', {ignoreBOM: 'x'}).ignoreBOM]",
		"[new TextDecoder('utf-8', {fatal: ''}).fatal, new TextDecoder('utf-8', null).fatal, new TextDecoder('utf-8', []).fatal]",
		"new TextDecoder('utf-8', 5)",
		"new TextDecoder('utf-8', 'x')",
		"new TextDecoder('utf-8', true)",
		"new TextDecoder('utf-8', 10n)",
		"TextDecoder()",
		"Object.getOwnPropertyDescriptor(TextDecoder.prototype, 'encoding').get.call({})",
		"TextDecoder.prototype.decode.call({}, u8([]))",
		"[TextDecoder.length, TextDecoder.name, typeof TextDecoder.prototype.decode, TextDecoder.prototype.decode.name, TextDecoder.prototype.decode.length]",
		"Object.getOwnPropertyNames(TextDecoder.prototype).sort()",
		"Object.keys(TextDecoder.prototype).sort()",
		"Object.getOwnPropertyDescriptor(TextDecoder.prototype, 'fatal').get.name",
		"[Object.prototype.toString.call(new TextDecoder()), String(new TextDecoder())]",
		"Object.keys(new TextDecoder())",
		"JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, 'TextDecoder'))",
		"new TextDecoder() instanceof TextDecoder",
	}
	for _, label := range []string{
		"unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8",
		"csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le",
		"ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
		"iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252",
	} {
		cases = append(cases, fmt.Sprintf("new TextDecoder(%q.toUpperCase()).encoding", label))
	}
	compareCases(t, "", cases)
}

// TestTextDecoderDeviations: where Warden follows the Encoding Standard
// and Node 20 does not, or decodes fewer encodings than Node with full
// ICU.
func TestTextDecoderDeviations(t *testing.T) {
	// Node 20's non-streaming latin1 path decodes 0x80 as U+0080;
	// windows-1252 (what the labels name) has U+20AC there.
	check(t, runCode(t, "return new TextDecoder('latin1').decode(new Uint8Array([0x80, 0x9f]))"), want{value: `"€Ÿ"`})
	check(t, runCode(t, "return new TextDecoder('utf-16be')"),
		want{errType: contract.UserCodeError, name: "RangeError", msg: `The "utf-16be" encoding is not supported`})
}

func TestTextEncoderAsNode(t *testing.T) {
	cases := []string{}
	for _, s := range []string{
		`""`, `"abc"`, `"é"`, `"€"`, `"😀"`, `"\ud800"`, `"\udc00"`, `"\ud800\ud800"`, `"\udc00\ud800"`, `"a\ud800b"`,
		`"\u0000"`, `"\u007f\u0080\u07ff\u0800\uffff"`, `"\ud83d\ude00\ud83d"`, `"\ud800\udc00\udbff\udfff"`, `"\ufeff"`,
	} {
		cases = append(cases, "new TextEncoder().encode("+s+")", "new TextDecoder().decode(new TextEncoder().encode("+s+"))")
	}
	cases = append(cases,
		"new TextEncoder().encode()",
		"new TextEncoder().encode(undefined)",
		"new TextEncoder().encode(5)",
		"new TextEncoder().encode(null)",
		"new TextEncoder().encode({})",
		"new TextEncoder().encode(Symbol())",
		"new TextEncoder().encode('x').buffer.byteLength",
		"sum(new TextEncoder().encode('a'.repeat(32767) + '😀' + 'é'.repeat(40000)))",
		"sum(new TextEncoder().encode('a'.repeat(32767) + '\\ud800' + 'b'))",
		"sum(new TextEncoder().encode('€\\udc00'.repeat(30000)))",
		"new TextEncoder().encoding",
		"TextEncoder()",
		"TextEncoder.prototype.encode.call({}, 'a')",
		"Object.getOwnPropertyDescriptor(TextEncoder.prototype, 'encoding').get.call(5)",
		"Object.getOwnPropertyNames(TextEncoder.prototype).sort()",
		"Object.keys(TextEncoder.prototype).sort()",
		"[TextEncoder.length, TextEncoder.name, TextEncoder.prototype.encode.length, TextEncoder.prototype.encodeInto.length]",
		"Object.prototype.toString.call(new TextEncoder())",
	)
	for _, into := range []string{
		`"a😀b", 0`, `"a😀b", 1`, `"a😀b", 2`, `"a😀b", 4`, `"a😀b", 5`, `"a😀b", 6`, `"a😀b", 7`,
		`"\ud800", 2`, `"\ud800", 3`, `"€€", 5`, `"€€", 6`, `"", 3`, `"é\udc00x", 4`, `"é\udc00x", 5`, `"é\udc00x", 6`,
		`"\ud83d\ude00", 3`, `"\ud83d\ude00", 4`,
	} {
		cases = append(cases, fmt.Sprintf("(() => { const d = new Uint8Array(%s); const r = new TextEncoder().encodeInto(%s); return [r, d]; })()",
			into[strings.LastIndex(into, ",")+1:], into[:strings.LastIndex(into, ",")]+", d"))
	}
	cases = append(cases,
		"new TextEncoder().encodeInto('abc', new Uint8Array(8).subarray(2, 4))",
		"new TextEncoder().encodeInto('a', new Uint16Array(2))",
		"new TextEncoder().encodeInto('a', 5)",
		"new TextEncoder().encodeInto('a', [])",
		"new TextEncoder().encodeInto(5, new Uint8Array(2))",
		"new TextEncoder().encodeInto('x'.repeat(100), new Uint8Array(3))",
		"Object.keys(new TextEncoder().encodeInto('a', new Uint8Array(1)))",
	)
	compareCases(t, "", cases)
}

func TestAtobBtoaAsNode(t *testing.T) {
	cases := []string{}
	for _, s := range []string{
		`""`, `"YQ"`, `"YQ="`, `"YQ=="`, `"YWI"`, `"YWJj"`, `" Y W J j "`, `"YW\nJj"`, `"YW\tJj\f\r"`, `"YQ==="`, `"Y"`,
		`"Y==="`, `"YW=Jj"`, `"*"`, `"YQ==YQ=="`, `"ÿ"`, `"\u0100"`, `"abc-_"`, `"ab+/"`, `"YR=="`, `"YQ= "`, `"="`, `"=="`,
		`"YWI="`, `"YWI=="`, `"Y\u00a0Q"`, `"YQ\v=="`, `"YQ = ="`, `"YQ\u3000"`, `"AAAAA"`, `"/+/+"`,
		`5`, `null`, `undefined`, `true`, `{}`, `[1, 2]`, `12345678`, `{toString() { return "YQ"; }}`, `Symbol()`,
	} {
		cases = append(cases, "atob("+s+")")
	}
	for _, s := range []string{
		`""`, `"a"`, `"ab"`, `"abc"`, `"\xff\xfe"`, `"\u0100"`, `"€"`, `"\ud800"`, `5`, `null`, `undefined`, `true`,
		`{}`, `[1, 2]`, `"a".repeat(100)`, `"\0"`, `Symbol()`, `"abc\u0100"`,
	} {
		cases = append(cases, "btoa("+s+")")
	}
	cases = append(cases,
		"atob()", "btoa()",
		"[atob.length, btoa.length, atob.name, btoa.name, typeof atob.prototype]",
		"atob(btoa(String.fromCharCode(...Array.from({length: 256}, (_, i) => i))))",
		"Object.keys(globalThis).filter((k) => k === 'atob' || k === 'btoa')",
		"btoa('\\xff'.repeat(50000)).length",
		"atob(btoa('\\x80'.repeat(50000))).length",
	)
	compareCases(t, "", cases)
}

// BenchmarkEncoding1MiB times each conversion of 1 MiB inside the guest
// (the input is built before the clock starts) and reports it as
// guest-ms/op.
func BenchmarkEncoding1MiB(b *testing.B) {
	const setup = `const ascii = "abcdefgh".repeat(1 << 17);
const mixed = "aé€文😀".repeat(104858).slice(0, 1 << 20);
const asciiBytes = new TextEncoder().encode(ascii);
const mixedBytes = new TextEncoder().encode(mixed);
const bytes = Uint8Array.fromBase64((ascii + ascii).slice(0, 1398104)).subarray(0, 1 << 20);
const buf = Buffer.from(bytes.buffer, 0, 1 << 20);
const b64 = buf.toString("base64");
const hex = buf.toString("hex");
const latin1 = buf.toString("latin1");
`
	ops := []struct{ name, op string }{
		{"TextEncoder/ascii", "new TextEncoder().encode(ascii)"},
		{"TextEncoder/mixed", "new TextEncoder().encode(mixed)"},
		{"TextDecoder/ascii", "new TextDecoder().decode(asciiBytes)"},
		{"TextDecoder/mixed", "new TextDecoder().decode(mixedBytes)"},
		{"TextDecoder/latin1", "new TextDecoder('latin1').decode(bytes)"},
		{"btoa", "btoa(latin1)"},
		{"atob", "atob(b64)"},
		{"Buffer/from-utf8", "Buffer.from(mixed)"},
		{"Buffer/toString-utf8", "Buffer.from(mixedBytes.buffer).toString()"},
		{"Buffer/to-base64", "buf.toString('base64')"},
		{"Buffer/from-base64", "Buffer.from(b64, 'base64')"},
		{"Buffer/to-hex", "buf.toString('hex')"},
		{"Buffer/from-hex", "Buffer.from(hex, 'hex')"},
		{"Buffer/to-latin1", "buf.toString('latin1')"},
		{"Buffer/from-latin1", "Buffer.from(latin1, 'latin1')"},
	}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			code := setup + "const t0 = Date.now(); " + o.op + "; return Date.now() - t0;"
			req := contract.Request{Code: code, Limits: contract.Limits{Timeout: 60e9, MemoryBytes: 256 << 20}}
			var total float64
			for i := 0; i < b.N; i++ {
				res := run(b, req, RunOptions{})
				if !res.OK {
					b.Fatalf("%s: %+v", o.op, res.Error)
				}
				var ms float64
				if err := json.Unmarshal(res.Value, &ms); err != nil {
					b.Fatal(err)
				}
				total += ms
			}
			b.ReportMetric(total/float64(b.N), "guest-ms/op")
		})
	}
}

// bufferSetup gives the Buffer cases their data.
const bufferSetup = `const all = Buffer.from(Array.from({length: 256}, (_, i) => i));
const hello = () => Buffer.from("héllo wörld");
const ints = () => Buffer.from([0x01, 0x82, 0xff, 0x7f, 0x80, 0x00, 0xfe]);
const ab = new Uint8Array([10, 20, 30, 40, 50]).buffer;
`

func TestBufferFromAsNode(t *testing.T) {
	cases := []string{
		"Buffer.from([1, 2, 256, -1, 3.7, '4', 'x'])",
		"Buffer.from({length: 2, 0: 1, 1: 2})",
		"Buffer.from({length: '2', 0: 1})",
		"Buffer.from({type: 'Buffer', data: [1, 2]})",
		"Buffer.from(new Uint16Array([1, 258]))",
		"(() => { const a = Buffer.from([1, 2]); const c = Buffer.from(a); a[0] = 9; return [a, c]; })()",
		"(() => { const a = new Uint8Array([1, 2]); const c = Buffer.from(a); a[0] = 9; return c; })()",
		"(() => { const c = Buffer.from(ab, 1, 2); new Uint8Array(ab)[1] = 99; return [c, c.byteOffset, c.buffer === ab]; })()",
		"Buffer.from(new SharedArrayBuffer(3), 1)", "Buffer.byteLength(new SharedArrayBuffer(3))",
		"Buffer.from(ab, 1)", "Buffer.from(ab, '1')", "Buffer.from(ab, NaN, 2)", "Buffer.from(ab, 2, -1)",
		"Buffer.from(ab, 6)", "Buffer.from(ab, 0, 10)",
		"Buffer.from(5)", "Buffer.from(null)", "Buffer.from(undefined)", "Buffer.from(true)", "Buffer.from(() => 1)",
		"Buffer.from(new String('abc'))", "Buffer.from({valueOf() { return 'abc'; }})",
		"Buffer.from({[Symbol.toPrimitive]() { return 'xyz'; }})", "Buffer.from({})",
		"Buffer.from('abc', 'xx')", "Buffer.from('abc', 5)", "Buffer.from('', 'xx')", "Buffer.from('abc', '')",
		"Buffer.from('€', 'UTF-8')", "Buffer.from('\\ud800x')", "Buffer.from('a\\ud83d\\ude00\\udc00')",
		"Buffer(3)", "new Buffer('ab')", "Buffer(3, 'utf8')", "Buffer.of(1, 2, 300)",
	}
	for _, s := range []string{`""`, `"abc"`, `"héllo"`, `"€😀"`, `"ÿ\u0100"`, `"\u0000\u007f\u0080"`} {
		for _, enc := range []string{"utf8", "latin1", "binary", "ascii", "ucs2", "utf16le"} {
			cases = append(cases, fmt.Sprintf("Buffer.from(%s, %q)", s, enc))
		}
	}
	for _, s := range []string{`"00ff7fAB"`, `"abz"`, `"a"`, `"zz"`, `"\u0161b"`, `"0g12"`, `" 12"`, `"1234567"`} {
		cases = append(cases, fmt.Sprintf("Buffer.from(%s, 'hex')", s))
	}
	for _, s := range []string{
		`"aGVsbG8="`, `"aGVsbG8"`, `"aGV sbG8=\n"`, `"YW*Jj"`, `"YQ==YWJj"`, `"-_-_"`, `"+/+/"`, `"+/-_"`, `"YQ="`, `"Y"`,
		`"YQ"`, `"Y\u0141=="`, `"=YWJj"`, `"YWJj===="`, `"\tYWJj\r\n"`, `"YR=="`,
	} {
		cases = append(cases, fmt.Sprintf("Buffer.from(%s, 'base64')", s), fmt.Sprintf("Buffer.from(%s, 'base64url')", s))
	}
	compareCases(t, bufferSetup, cases)
}

func TestBufferToStringAsNode(t *testing.T) {
	cases := []string{
		"hello().toString()", "hello().toString(undefined, 1, 3)", "hello().toString('utf8', 1, 2)",
		"hello().toString('hex', -1, 100)", "hello().toString('utf8', 1.5, 3.7)", "hello().toString('utf8', 5, 2)",
		"hello().toString('utf8', NaN, '3')", "hello().toString('xx')", "hello().toString(5)", "hello().toString(null)",
		"hello().toString('UTF8')", "hello().toLocaleString('hex')", "Buffer.from([0xe2, 0x82]).toString()",
		"Buffer.from([0xc0, 0x80, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xff]).toString()",
		"Buffer.from([0xe2, 0x82, 0xac]).toString('utf8', 0, 2)", "Buffer.from([0x41, 0x00, 0x42]).toString('ucs2')",
		"Buffer.from([0x3d, 0xd8]).toString('utf16le')", "Buffer.alloc(0).toString('base64')",
		"Buffer.from([0xfb, 0xff]).toString('base64')", "Buffer.from([0xfb, 0xff]).toString('base64url')",
		"Buffer.from([0x80, 0xff, 0x41]).toString('ascii')", "Buffer.from([0x80, 0xff, 0x41]).toString('latin1')",
		"sum(Buffer.from(hello().toString('hex').repeat(3000), 'hex'))",
		"Buffer.from('é€😀'.repeat(20000)).toString().length",
		"Buffer.from('a'.repeat(40000) + '€').toString('utf8', 39999)",
	}
	for _, enc := range []string{"utf8", "hex", "base64", "base64url", "latin1", "binary", "ascii", "ucs2", "utf16le"} {
		cases = append(cases,
			fmt.Sprintf("all.toString(%q)", enc),
			fmt.Sprintf("Buffer.from(all.toString(%q), %q)", enc, enc),
			fmt.Sprintf("Buffer.from(hello().toString(%q), %q).equals(hello())", enc, enc),
			fmt.Sprintf("Buffer.byteLength(all.toString(%q), %q)", enc, enc))
	}
	compareCases(t, bufferSetup, cases)
}

func TestBufferMethodsAsNode(t *testing.T) {
	compareCases(t, bufferSetup, []string{
		// alloc
		"Buffer.alloc(0)", "Buffer.alloc(3)", "Buffer.alloc(3, 1)", "Buffer.alloc(5, 'ab')", "Buffer.alloc(5, 'abc', 'utf8')",
		"Buffer.alloc(4, 'aGk=', 'base64')", "Buffer.alloc(4, 'zz', 'hex')", "Buffer.alloc(3, '')", "Buffer.alloc(2, 257)",
		"Buffer.alloc(2, -1)", "Buffer.alloc(2, true)", "Buffer.alloc(5, Buffer.from([1, 2]))", "Buffer.alloc(-1)",
		"Buffer.alloc('5')", "Buffer.alloc(1.5)", "Buffer.alloc(NaN)", "Buffer.alloc(2 ** 33)", "Buffer.alloc(3, 'é', 'latin1')",
		"Buffer.allocUnsafe(3).length", "Buffer.allocUnsafe(-1)", "Buffer.allocUnsafeSlow(2).length", "Buffer.alloc(3, 'a', 'xx')",
		// concat, byteLength, isBuffer, isEncoding, compare
		"Buffer.concat([])", "Buffer.concat([Buffer.from('ab'), Buffer.from('cd')])", "Buffer.concat([Buffer.from('ab'), Buffer.from('cd')], 3)",
		"Buffer.concat([Buffer.from('ab'), new Uint8Array([9])], 5)", "Buffer.concat(5)", "Buffer.concat([5])",
		"Buffer.concat([Buffer.from('ab')], -1)", "Buffer.concat([Buffer.from('ab')], 1.5)", "Buffer.concat([Buffer.from('a'), 'b'])",
		"Buffer.byteLength('héllo')", "Buffer.byteLength('€', 'utf16le')", "Buffer.byteLength('aGk=', 'base64')",
		"Buffer.byteLength('abc', 'hex')", "Buffer.byteLength('\\ud800')", "Buffer.byteLength(new Uint16Array(3))",
		"Buffer.byteLength(new ArrayBuffer(5))", "Buffer.byteLength(5)", "Buffer.byteLength('abc', 'xx')", "Buffer.byteLength('', 'hex')",
		"Buffer.byteLength('é', 'ASCII')", "Buffer.byteLength('aGk', 'base64url')",
		"[Buffer.isBuffer(Buffer.alloc(1)), Buffer.isBuffer(new Uint8Array(1)), Buffer.isBuffer('x'), Buffer.isBuffer(null)]",
		"['utf8', 'UTF-8', 'ucs2', 'Ucs-2', 'utf16le', 'utf-16le', 'latin1', 'binary', 'base64', 'base64url', 'hex', 'ascii', '', 'xx', 5, null, undefined, 'utf16', 'latin-1'].map((e) => Buffer.isEncoding(e))",
		"[Buffer.compare(Buffer.from('a'), Buffer.from('b')), Buffer.compare(Buffer.from('b'), Buffer.from('a')), Buffer.compare(Buffer.from('ab'), Buffer.from('a')), Buffer.compare(all, all)]",
		"Buffer.compare(Buffer.from('a'), 'x')", "Buffer.compare(new Uint8Array([1]), Buffer.from([1, 0]))",
		// equals, compare
		"[hello().equals(hello()), hello().equals(Buffer.from('x')), hello().equals(new Uint8Array(hello()))]", "hello().equals('x')",
		"Buffer.from('abc').compare(Buffer.from('abd'))", "Buffer.from('abc').compare(Buffer.from('xbcx'), 1, 3, 1)",
		"Buffer.from('abc').compare(Buffer.from('abc'), 0, 3, 0, 2)", "Buffer.from('abc').compare(Buffer.from('abc'), 2, 2)",
		"Buffer.from('abc').compare(Buffer.from('abc'), 0, 9)", "Buffer.from('abc').compare(Buffer.from('abc'), -1)",
		"Buffer.from('abc').compare(Buffer.from('abc'), 0, 3, 2, 1)", "Buffer.from('abc').compare('abc')",
		"Buffer.from('abc').compare(Buffer.from('abc'), 5, 6)",
		// views
		"(() => { const a = hello(); const s = a.slice(1, 3); s[0] = 0x41; return [a, s, s instanceof Buffer]; })()",
		"(() => { const a = hello(); const s = a.subarray(-3); s[0] = 0x41; return [a.toString(), s.toString()]; })()",
		"[hello().slice(1.5, 3.9).toString(), hello().slice('1', '3').toString(), hello().slice(5, 2).length, hello().slice(-100, 2).toString()]",
		"Buffer.from(new ArrayBuffer(8)).subarray(2).byteOffset",
		// toJSON
		"JSON.stringify(Buffer.from('ab'))", "Buffer.from('ab').toJSON()", "JSON.stringify({b: Buffer.alloc(0)})",
		"Buffer.from(JSON.parse(JSON.stringify(hello()))).toString()",
		// write
		"(() => { const a = Buffer.alloc(5); return [a.write('abc'), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('abc', 1), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('abc', 1, 1), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('héllo', 0, 2), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('a€', 2), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('abcd', 'hex'), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('abcd', 1, 'hex'), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('aGVsbG8=', 'base64'), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('ab', 0, 3, 'ucs2'), a]; })()",
		"(() => { const a = Buffer.alloc(5); return [a.write('😀😀'), a]; })()",
		"Buffer.alloc(5).write('abc', 10)", "Buffer.alloc(5).write('abc', 1.5)", "Buffer.alloc(5).write('abc', 0, -1)",
		"Buffer.alloc(5).write('abc', 'xx')", "Buffer.alloc(5).write(5)", "Buffer.alloc(5).write('abc', 0, 10)",
		// fill
		"Buffer.alloc(5).fill(1)", "Buffer.alloc(5).fill('ab')", "Buffer.alloc(5).fill('ab', 1)", "Buffer.alloc(5).fill('ab', 1, 4)",
		"Buffer.alloc(7).fill('€')", "Buffer.alloc(5).fill('aGk=', 'base64')", "Buffer.alloc(5).fill('zz', 'hex')",
		"Buffer.alloc(5).fill(Buffer.from([1, 2]), 1)", "Buffer.alloc(3).fill(257)", "Buffer.alloc(3).fill(-1)",
		"Buffer.alloc(3).fill(true)", "Buffer.alloc(3).fill({})", "Buffer.alloc(3).fill('a', 0, 10)", "Buffer.alloc(3).fill('a', 'xx')",
		"Buffer.alloc(3).fill(7, 2, 1)", "Buffer.alloc(3).fill('é', 'latin1')", "Buffer.alloc(5).fill('é')",
		"Buffer.alloc(3).fill('a', 0, 1, 5)", "Buffer.alloc(3).fill(1, -1)", "Buffer.alloc(3).fill(1, '1')",
		"Buffer.alloc(3).fill('')", "Buffer.alloc(3).fill(new Uint8Array(0))", "sum(Buffer.alloc(100000).fill('abc'))",
		// indexOf, includes
		"[hello().indexOf('l'), hello().indexOf('l', 4), hello().indexOf('l', -3), hello().indexOf('lo'), hello().indexOf(0x6c)]",
		"[hello().indexOf(0x16c), hello().indexOf(Buffer.from('wö')), hello().indexOf(''), hello().indexOf('', 100), hello().indexOf('x')]",
		"[hello().indexOf('é'), hello().indexOf('é', 'latin1'), hello().indexOf('l', 3.9), hello().indexOf('l', -100), hello().indexOf('l', 100)]",
		"[hello().indexOf('6c', 'hex'), hello().indexOf(new Uint8Array([0x6f])), Buffer.alloc(0).indexOf('a'), Buffer.alloc(0).indexOf('')]",
		"hello().indexOf({})", "hello().indexOf('l', '1')", "hello().indexOf('l', 0, 'xx')",
		"[hello().includes('wö'), hello().includes('x'), hello().includes(0x68), hello().includes('h', 1), hello().includes('h', null)]",
		"[hello().lastIndexOf('l'), hello().lastIndexOf('l', 9), hello().lastIndexOf('l', 3), hello().lastIndexOf('l', -4), hello().lastIndexOf('l', -100)]",
		"[hello().lastIndexOf('lo'), hello().lastIndexOf(0x6c, 100), hello().lastIndexOf(''), hello().lastIndexOf('', 3), hello().lastIndexOf('wörld', 100)]",
		"[hello().lastIndexOf(Buffer.from('l')), hello().lastIndexOf('h', 0), hello().lastIndexOf('x'), Buffer.alloc(0).lastIndexOf(0), hello().lastIndexOf('l', 'latin1')]",
		"[hello().lastIndexOf('l', NaN), hello().lastIndexOf('l', null), hello().lastIndexOf('l', 2.9), hello().lastIndexOf(0x16c)]",
		"hello().lastIndexOf({})",
		// copy
		"(() => { const t = Buffer.alloc(5); return [hello().copy(t), t]; })()",
		"(() => { const t = Buffer.alloc(5); return [hello().copy(t, 1), t]; })()",
		"(() => { const t = Buffer.alloc(5); return [hello().copy(t, 0, 1, 3), t]; })()",
		"(() => { const t = Buffer.alloc(5); return [hello().copy(t, 10), t]; })()",
		"(() => { const t = Buffer.alloc(5); return [hello().copy(t, 1.5, '1'), t]; })()",
		"(() => { const t = Buffer.alloc(5); return [hello().copy(t, 0, 2, 1), t]; })()",
		"(() => { const t = new Uint8Array(3); return [hello().copy(t), t]; })()",
		"(() => { const a = Buffer.from('abcdef'); a.copy(a, 2, 0, 4); return a.toString(); })()",
		"hello().copy(Buffer.alloc(5), -1)", "hello().copy(Buffer.alloc(5), 0, 100)", "hello().copy(Buffer.alloc(5), 0, 0, -1)",
		"hello().copy('x')",
		// Buffer's shape
		"[Object.getPrototypeOf(Buffer) === Uint8Array, Object.getPrototypeOf(Buffer.prototype) === Uint8Array.prototype, Buffer.prototype.constructor === Buffer]",
		"[Buffer.name, Buffer.length, Buffer.poolSize, Buffer.from.length, Buffer.alloc.length, typeof Buffer.of]",
		"[Buffer.prototype.readUint8 === Buffer.prototype.readUInt8, Buffer.prototype.toLocaleString === Buffer.prototype.toString]",
		"[hello().map((x) => x + 1) instanceof Buffer, hello().filter((x) => x > 0x6c).toString(), Buffer.from('ab') instanceof Uint8Array]",
		"Object.prototype.toString.call(Buffer.alloc(1))", "Object.getOwnPropertyDescriptor(globalThis, 'Buffer').enumerable",
		"['from', 'alloc', 'concat', 'byteLength', 'isBuffer', 'isEncoding', 'compare', 'poolSize'].map((k) => Object.getOwnPropertyDescriptor(Buffer, k).enumerable)",
		"['toString', 'equals', 'write', 'readUInt8', 'slice'].map((k) => Object.getOwnPropertyDescriptor(Buffer.prototype, k).enumerable)",
	})
}

func TestBufferIntegersAsNode(t *testing.T) {
	var cases []string
	for _, m := range []string{"readUInt8", "readUInt16LE", "readUInt16BE", "readUInt32LE", "readUInt32BE",
		"readInt8", "readInt16LE", "readInt16BE", "readInt32LE", "readInt32BE"} {
		cases = append(cases,
			fmt.Sprintf("[0, 1, 2, 3].map((o) => { try { return ints().%s(o); } catch (e) { return e.message; } })", m),
			fmt.Sprintf("ints().%s()", m),
			fmt.Sprintf("ints().%s(6)", m),
			fmt.Sprintf("ints().%s(1.5)", m),
			fmt.Sprintf("ints().%s('1')", m),
			fmt.Sprintf("ints().%s(-1)", m),
			fmt.Sprintf("Buffer.alloc(0).%s()", m))
	}
	for _, w := range []struct{ m, values string }{
		{"writeUInt8", "[0, 255, 256, -1, 1.5, '7', NaN]"},
		{"writeUInt16LE", "[0, 0xffff, 0x10000, -1, 0x1234]"},
		{"writeUInt16BE", "[0x1234, 0x10000]"},
		{"writeUInt32LE", "[0xdeadbeef, 2 ** 32, -1]"},
		{"writeUInt32BE", "[0xdeadbeef, 2 ** 32]"},
		{"writeInt8", "[-128, 127, 128, -129, -1]"},
		{"writeInt16LE", "[-32768, 32767, 40000, -1]"},
		{"writeInt16BE", "[-2, 32768]"},
		{"writeInt32LE", "[-1, 2 ** 31, -(2 ** 31), 2 ** 31 - 1]"},
		{"writeInt32BE", "[-2, 2 ** 31]"},
	} {
		cases = append(cases,
			fmt.Sprintf("%s.map((v) => { const a = Buffer.alloc(6); try { return [a.%s(v, 1), a]; } catch (e) { return [e.name, e.code, e.message]; } })", w.values, w.m),
			fmt.Sprintf("Buffer.alloc(4).%s(1, 4)", w.m),
			fmt.Sprintf("Buffer.alloc(4).%s(1, 1.5)", w.m),
			fmt.Sprintf("Buffer.alloc(4).%s(1, '0')", w.m),
			fmt.Sprintf("Buffer.alloc(1).%s(1)", w.m))
	}
	cases = append(cases, "(() => { const a = Buffer.alloc(8); a.writeInt32BE(-123456, 0); a.writeUInt16LE(0xbeef, 4); return [a.readInt32BE(0), a.readUInt16LE(4), a.readUint16LE(4)]; })()")
	compareCases(t, bufferSetup, cases)
}
