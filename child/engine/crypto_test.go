package engine

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// The crypto global behaves as Node 20's (sameAsNode), and its randomness
// is drawn per call, per child.

// cryptoHelpers are defined in every compared script: hex of a buffer,
// and the inputs (the same bytes in Warden and Node).
const cryptoHelpers = `
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
const utf8 = (s) => Uint8Array.from(unescape(encodeURIComponent(s)), (c) => c.charCodeAt(0));
// big is n bytes of every value: 4093 pseudo-random ones, then doubled.
function big(n) {
  const u = new Uint8Array(n);
  for (let i = 0; i < 4093 && i < n; i++) u[i] = (i * 2654435761) >>> 24;
  for (let have = 4093; have < n; have *= 2) u.copyWithin(have, 0, Math.min(have, n - have));
  return u;
}
const all256 = Uint8Array.from({ length: 256 }, (_, i) => i);
const inputs = [new Uint8Array(0), utf8("abc"), utf8("héllo wörld ☃ 😀 ∑"), all256, big(1 << 20)];
// settle reduces a promise to its value or [error name, message].
const settle = (p) => Promise.resolve().then(p).then((v) => v, (e) => ["error", String(e && e.name), String(e && e.message)]);
`

// cryptoLimits give the 1 MiB inputs room on a loaded machine.
var cryptoLimits = contract.Limits{MemoryBytes: 64 << 20, Timeout: 30 * time.Second}

// sameAsNodeLimits is sameAsNode with limits, for the larger inputs.
func sameAsNodeLimits(t *testing.T, code string, limits contract.Limits) contract.Result {
	t.Helper()
	requireNode(t)
	res := run(t, contract.Request{Code: code, Limits: limits}, RunOptions{})
	got, want := wardenOutcome(res), runInNode(t, code, "")
	if !equalOutcomes(got, want) {
		t.Errorf("differs from Node for\n%s\nwarden: %.1000s\n  node: %.1000s", code, jsonText(got), jsonText(want))
		var g, w []json.RawMessage
		if json.Unmarshal(got.Value, &g) == nil && json.Unmarshal(want.Value, &w) == nil {
			for i := range min(len(g), len(w)) {
				if compactJSON(g[i]) != compactJSON(w[i]) {
					t.Errorf("entry %d: warden %.300s, node %.300s", i, g[i], w[i])
				}
			}
		}
	}
	return res
}

// countCompared is the number of entries of an array result, the cases
// one script compared.
func countCompared(t *testing.T, res contract.Result) int {
	var v []json.RawMessage
	if !res.OK || json.Unmarshal(res.Value, &v) != nil || len(v) == 0 {
		t.Fatalf("want a non-empty array, got %s %+v", res.Value, res.Error)
	}
	return len(v)
}

func TestCryptoDigestAsNode(t *testing.T) {
	res := sameAsNodeLimits(t, cryptoHelpers+`
	const out = [];
	for (const alg of ["SHA-1", "sha-256", {name: "SHA-384"}, {name: "Sha-512"}]) {
		for (const u of inputs) {
			out.push(hex(await crypto.subtle.digest(alg, u)));
			// The 1 MiB input as one view only: encoding it is slow on a
			// loaded machine.
			if (u.length > 256) continue;
			out.push(hex(await crypto.subtle.digest(alg, u.buffer)));
			out.push(hex(await crypto.subtle.digest(alg, new DataView(u.buffer, u.length >> 2))));
			out.push(hex(await crypto.subtle.digest(alg, new Int32Array(u.buffer, 0, u.length >> 3))));
		}
	}
	const d = await crypto.subtle.digest("SHA-256", inputs[1]);
	out.push([Object.prototype.toString.call(d), d.byteLength, d instanceof ArrayBuffer]);
	return out`, cryptoLimits)
	t.Logf("%d digests compared with Node", countCompared(t, res))
}

func TestCryptoHMACAsNode(t *testing.T) {
	res := sameAsNodeLimits(t, cryptoHelpers+`
	const out = [];
	const keys = [utf8("k"), utf8("key"), big(64), big(65), big(129), big(200)];
	for (const hash of ["SHA-1", "SHA-256", "sha-384", {name: "SHA-512"}]) {
		for (const raw of keys) {
			const key = await crypto.subtle.importKey("raw", raw, {name: "HMAC", hash}, true, ["sign", "verify"]);
			out.push([key.type, key.extractable, key.algorithm, key.usages, hex(await crypto.subtle.exportKey("raw", key))]);
			// The 1 MiB message with one key per hash (encoding it is slow on
			// a loaded machine).
			for (const m of raw === keys[5] && hash === "SHA-256" ? inputs : inputs.slice(0, 4)) {
				const sig = await crypto.subtle.sign("HMAC", key, m);
				const bad = new Uint8Array(sig.slice(0)); bad[0] ^= 1;
				out.push([hex(sig), await crypto.subtle.verify({name: "hmac"}, key, sig, m),
					await crypto.subtle.verify("HMAC", key, bad, m), await crypto.subtle.verify("HMAC", key, sig.slice(1), m)]);
			}
		}
	}
	const jwk = await crypto.subtle.importKey("jwk", {kty: "oct", k: "AQIDBAU-_w", alg: "HS256"}, {name: "HMAC", hash: "SHA-256"}, true, ["verify"]);
	out.push([jwk.algorithm, jwk.usages, await crypto.subtle.exportKey("jwk", jwk), hex(await crypto.subtle.exportKey("raw", jwk))]);
	const raw = await crypto.subtle.importKey("raw", keys[2], {name: "HMAC", hash: "SHA-384", length: 512}, false, ["sign"]);
	out.push([raw.algorithm, raw.extractable, hex(await crypto.subtle.sign("HMAC", raw, inputs[2]))]);
	return out`, cryptoLimits)
	t.Logf("%d HMAC cases compared with Node", countCompared(t, res))
}

// TestCryptoGenerateKeyAsNode: what a generated key is, without its
// (random) bytes.
func TestCryptoGenerateKeyAsNode(t *testing.T) {
	res := sameAsNodeLimits(t, cryptoHelpers+`
	const out = [];
	for (const [alg, ext, usages] of [
		[{name: "HMAC", hash: "SHA-256"}, true, ["sign", "verify"]],
		[{name: "hmac", hash: {name: "sha-512"}}, false, ["verify", "sign", "verify"]],
		[{name: "HMAC", hash: "SHA-1", length: 8}, true, ["sign"]],
		[{name: "HMAC", hash: "SHA-384", length: 4096}, true, ["verify"]],
	]) {
		const k = await crypto.subtle.generateKey(alg, ext, usages);
		const r = [k.type, k.extractable, k.algorithm, k.usages, Object.prototype.toString.call(k), k instanceof CryptoKey];
		if (ext) r.push((await crypto.subtle.exportKey("raw", k)).byteLength, Object.keys(await crypto.subtle.exportKey("jwk", k)));
		out.push(r);
	}
	return out`, contract.Limits{})
	t.Logf("%d generateKey cases compared with Node", countCompared(t, res))
}

func TestCryptoErrorsAsNode(t *testing.T) {
	res := sameAsNodeLimits(t, cryptoHelpers+`
	const s = crypto.subtle, u = new Uint8Array(4), hmac = {name: "HMAC", hash: "SHA-256"};
	const k = await s.importKey("raw", u, hmac, true, ["sign"]);
	const v = await s.importKey("raw", u, hmac, false, ["verify"]);
	const cases = [
		() => s.digest("MD5", u), () => s.digest("SHA-256", "abc"), () => s.digest({}, u), () => s.digest(),
		() => s.digest("SHA-256"), () => s.digest(null, u), () => s.digest(7, u), () => s.digest({name: Symbol()}, u),
		() => s.digest({get name() { throw new RangeError("boom") }}, u), () => s.digest.call({}, "SHA-1", u),
		() => s.digest("SHA-256", [1, 2]), () => s.digest("SHA-256", new Proxy(u, {})), () => s.digest("HMAC", u),
		() => s.importKey("raw", new Uint8Array(0), hmac, true, ["sign"]),
		() => s.importKey("raw", u, hmac, true, ["encrypt"]), () => s.importKey("raw", u, hmac, true, []),
		() => s.importKey("raw", u, {name: "HMAC"}, true, ["sign"]), () => s.importKey("raw", u, {name: "RC4"}, true, ["encrypt"]),
		() => s.importKey("spki", u, hmac, true, ["sign"]), () => s.importKey("foo", u, hmac, true, ["sign"]),
		() => s.importKey("raw", u, hmac, true, "sign"), () => s.importKey("raw", u, hmac, true, ["bogus"]),
		() => s.importKey("raw", u, hmac, true), () => s.importKey("raw", u, hmac),
		() => s.importKey("raw", u, {name: "HMAC", hash: "SHA-256", length: 33}, true, ["sign"]),
		() => s.importKey("raw", u, {name: "HMAC", hash: "SHA-256", length: 0}, true, ["sign"]),
		() => s.importKey("raw", u, {name: "HMAC", hash: "SHA-256", length: -1}, true, ["sign"]),
		() => s.importKey("raw", u, {name: "HMAC", hash: "SHA-256", length: NaN}, true, ["sign"]),
		() => s.importKey("raw", u, {name: "HMAC", hash: "MD5"}, true, ["sign"]),
		() => s.importKey("raw", u, {name: "HMAC", hash: 5}, true, ["sign"]),
		() => s.importKey("raw", u, {name: "HMAC", hash: {}}, true, ["sign"]),
		() => s.importKey("raw", [1], hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", alg: "HS512"}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "RSA", k: "AQID"}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct"}, hmac, true, ["sign"]), () => s.importKey("jwk", {k: "AQID"}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", key_ops: ["verify"]}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", use: "enc"}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", ext: false}, hmac, true, ["sign"]),
		() => s.importKey("jwk", "x", hmac, true, ["sign"]),
		() => s.digest("SHA-256", new SharedArrayBuffer(4)), () => s.digest("SHA-256", new Uint8Array(new SharedArrayBuffer(4))),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", key_ops: ["sign", "sign"]}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", key_ops: "sign"}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", key_ops: ["bogus"]}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQID=="}, hmac, true, ["sign"]), () => s.importKey("jwk", {kty: "oct", k: 12345}, hmac, true, ["sign"]),
		() => s.importKey("jwk", {kty: "oct", k: "AQ ID"}, hmac, true, ["sign"]), () => s.importKey("jwk", {kty: "oct", k: "AQID"}, hmac, true, []),
		() => s.importKey("jwk", {kty: "oct", k: "AQID", use: "sig", ext: true, alg: "HS256"}, hmac, true, ["sign"]),
		() => s.importKey("jwk", undefined, hmac, true, ["sign"]),
		() => s.exportKey("raw", v), () => s.exportKey("spki", k), () => s.exportKey("pkcs8", k), () => s.exportKey("raw", {}),
		() => s.exportKey("bogus", k),
		() => s.sign("HMAC", v, u), () => s.verify("HMAC", k, u, u), () => s.sign("HMAC", {}, u), () => s.sign("AES-GCM", k, u),
		() => s.sign("HMAC", k, "abc"), () => s.verify("HMAC", v, "x", u), () => s.sign("HMAC", k),
		() => s.generateKey({name: "HMAC", hash: "SHA-1", length: 7}, true, ["sign"]),
		() => s.generateKey({name: "HMAC", hash: "SHA-1"}, true, []),
		() => s.generateKey({name: "HMAC", hash: "MD5"}, true, ["sign"]),
		() => s.generateKey({name: "HMAC", hash: "SHA-256", length: 0}, true, ["sign"]),
		() => s.generateKey({name: "HMAC", hash: "SHA-256"}, true, ["encrypt"]),
		() => s.encrypt("HMAC", k, u), () => s.decrypt("HMAC", k, u), () => s.deriveBits({name: "PBKDF1"}, k, 8),
		() => s.wrapKey("raw", k, k, "HMAC"), () => s.encrypt(),
	];
	const out = [];
	for (const f of cases) {
		const r = await settle(f);
		out.push(r instanceof CryptoKey ? ["key", r.algorithm] : r instanceof ArrayBuffer ? ["buffer", hex(r)] : r);
	}
	return out`, contract.Limits{})
	t.Logf("%d failing calls compared with Node", countCompared(t, res))
}

// TestCryptoShapeAsNode: the globals, prototypes, property attributes,
// names and lengths are Node's.
func TestCryptoShapeAsNode(t *testing.T) {
	res := sameAsNodeLimits(t, `
	const attrs = (o) => Object.getOwnPropertyNames(o).map((n) => {
		const d = Object.getOwnPropertyDescriptor(o, n);
		const f = d.value !== undefined ? d.value : d.get;
		return [n, d.enumerable, d.configurable, d.writable, typeof d.value, typeof d.get, typeof d.set,
			typeof f === "function" ? [f.name, f.length] : null];
	});
	const tag = (o) => Object.getOwnPropertyDescriptor(o, Symbol.toStringTag);
	const out = [Object.getOwnPropertyNames(globalThis).filter((n) => /crypt/i.test(n)).sort()];
	for (const C of [Crypto, SubtleCrypto, CryptoKey]) {
		out.push([C.name, C.length, typeof C, attrs(C.prototype), tag(C.prototype), Object.getOwnPropertyDescriptor(C, "prototype").writable]);
		try { new C(); out.push("constructed") } catch (e) { out.push([e.name, e.message, e.code]) }
		// (V8 and QuickJS word the TypeError differently.)
		try { C(); out.push("called") } catch (e) { out.push(e.name) }
	}
	const g = Object.getOwnPropertyDescriptor(globalThis, "crypto");
	out.push(g.enumerable, g.configurable, Object.getOwnPropertyDescriptor(globalThis, "Crypto").enumerable);
	out.push(Object.getPrototypeOf(crypto) === Crypto.prototype, crypto.subtle instanceof SubtleCrypto, crypto.subtle === crypto.subtle,
		Object.getOwnPropertyNames(crypto), Object.getOwnPropertyNames(crypto.subtle), String(crypto), String(crypto.subtle),
		JSON.stringify(crypto), "prototype" in crypto.getRandomValues);
	for (const f of [() => Crypto.prototype.subtle, () => crypto.getRandomValues.call({}, new Uint8Array(1)),
		() => crypto.randomUUID.call(undefined), () => Object.getOwnPropertyDescriptor(CryptoKey.prototype, "type").get.call({})]) {
		try { out.push(f()) } catch (e) { out.push([e.name, e.message, e.code]) }
	}
	const k = await crypto.subtle.importKey("raw", new Uint8Array(2), {name: "HMAC", hash: "SHA-1"}, true, ["sign"]);
	out.push(Object.getOwnPropertyNames(k), JSON.stringify(k), k.algorithm === k.algorithm, k.usages === k.usages,
		Object.isFrozen(k.algorithm), Object.prototype.toString.call(k), Object.getOwnPropertyNames(k.algorithm));
	return out`, contract.Limits{})
	t.Logf("%d shape entries compared with Node", countCompared(t, res))
}

// TestCryptoGetRandomValuesAsNode: which arrays it takes and how it
// fails, as Node; the values themselves are not compared.
func TestCryptoGetRandomValuesAsNode(t *testing.T) {
	res := sameAsNodeLimits(t, `
	const out = [];
	const buf = new ArrayBuffer(64);
	for (const a of [new Uint8Array(3), new Int8Array(3), new Uint16Array(3), new Int16Array(3), new Uint32Array(3),
		new Int32Array(3), new BigInt64Array(2), new BigUint64Array(2), new Uint8ClampedArray(3), new Uint8Array(0),
		new Uint8Array(65536), new Uint32Array(16384), new Uint8Array(buf, 8, 16), new Float32Array(1), new Float64Array(1),
		new DataView(new ArrayBuffer(1)), new Uint8Array(65537), new Uint32Array(16385), [1], null, undefined, 1, "abc", {},
		new ArrayBuffer(4), new Proxy(new Uint8Array(2), {})]) {
		try {
			const r = crypto.getRandomValues(a);
			out.push(["ok", r === a, Object.prototype.toString.call(a), a.length]);
		} catch (e) { out.push([e.name, e.message, e.code, e instanceof DOMException]) }
	}
	try { crypto.getRandomValues() } catch (e) { out.push([e.name, e.message, e.code]) }
	// Only the view's bytes are written.
	const all = new Uint8Array(buf);
	out.push(all.slice(0, 8).every((x) => x === 0), all.slice(24).every((x) => x === 0));
	const id = crypto.randomUUID();
	out.push(typeof id, id.length, id[14], "89ab".includes(id[19]), id.split("-").map((p) => p.length));
	return out`, contract.Limits{Timeout: 10 * time.Second})
	t.Logf("%d getRandomValues cases compared with Node", countCompared(t, res))
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// randomCode draws 32 random bytes (hex) and a UUID.
const randomCode = `const b = crypto.getRandomValues(new Uint8Array(32));
	return [Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(""), crypto.randomUUID(), crypto.randomUUID()]`

func drawRandom(t *testing.T, e *Engine) [3]string {
	t.Helper()
	res := e.Execute(context.Background(), contract.Request{Code: randomCode}, RunOptions{})
	var v [3]string
	if !res.OK || json.Unmarshal(res.Value, &v) != nil {
		t.Fatalf("got %s %+v", res.Value, res.Error)
	}
	for _, id := range v[1:] {
		if !uuidV4.MatchString(id) {
			t.Fatalf("randomUUID %q is no RFC 9562 version 4 UUID", id)
		}
	}
	if v[1] == v[2] {
		t.Fatalf("two randomUUID calls gave %s", v[1])
	}
	return v
}

// TestCryptoRandomPerExecution: every execution, and every VM restored
// from one heap snapshot, draws its own bytes and UUIDs: nothing is drawn
// while the prelude loads.
func TestCryptoRandomPerExecution(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	restored := snapshotEngine(t, path, digest)
	seen := map[string]bool{}
	for i, e := range []*Engine{testEngine, testEngine, restored, restored, restored} {
		for _, s := range drawRandom(t, e) {
			if seen[s] {
				t.Fatalf("draw %d repeated %s", i, s)
			}
			seen[s] = true
		}
	}
}

// TestCryptoRandomBytesPlausible: 65,536 bytes of getRandomValues are not
// all zero and their histogram passes a chi-square test (255 degrees of
// freedom: mean 255, deviation 22.6; 400 is six deviations out), and
// 1,000 UUIDs are distinct version 4 ones.
func TestCryptoRandomBytesPlausible(t *testing.T) {
	res := run(t, contract.Request{Code: `const b = crypto.getRandomValues(new Uint8Array(65536));
	const h = new Array(256).fill(0); for (const x of b) h[x]++;
	const ids = []; for (let i = 0; i < 1000; i++) ids.push(crypto.randomUUID());
	return [h, ids]`, Limits: cryptoLimits}, RunOptions{})
	var v struct {
		H   []int
		IDs []string
	}
	var raw [2]json.RawMessage
	if !res.OK || json.Unmarshal(res.Value, &raw) != nil || json.Unmarshal(raw[0], &v.H) != nil || json.Unmarshal(raw[1], &v.IDs) != nil {
		t.Fatalf("got %.200s %+v", res.Value, res.Error)
	}
	chi, zeros := 0.0, v.H[0]
	for _, n := range v.H {
		d := float64(n) - 256
		chi += d * d / 256
	}
	if zeros == 65536 || chi > 400 {
		t.Fatalf("implausible bytes: chi-square %.1f, %d zeros", chi, zeros)
	}
	ids := map[string]bool{}
	for _, id := range v.IDs {
		if !uuidV4.MatchString(id) || ids[id] {
			t.Fatalf("randomUUID gave %q (repeated: %v)", id, ids[id])
		}
		ids[id] = true
	}
	t.Logf("chi-square %.1f over 256 buckets", chi)
}

// TestCryptoBinaryEncoding: writeBinary decodes what appendBinary
// encodes (every byte value), refuses a string with a code unit over 255
// or a cut sequence, and hashes a long key without holding it: a 10 MiB
// HMAC key costs the host a few KiB, not 10 MiB.
func TestCryptoBinaryEncoding(t *testing.T) {
	p := make([]byte, 1<<16)
	rand.Read(p)
	for i := range 256 {
		p[i] = byte(i)
	}
	var got bytes.Buffer
	if err := writeBinary(&got, appendBinary(nil, p)); err != nil || !bytes.Equal(got.Bytes(), p) {
		t.Fatalf("round trip: %v", err)
	}
	for _, bad := range []string{"\u0100", "\xc3", "\xc3A", "\xe2\x82\xac", "\xed\xa0\x80"} {
		if writeBinary(&got, []byte(bad)) == nil {
			t.Errorf("%q decoded as a binary string", bad)
		}
	}
	key := appendBinary(nil, bytes.Repeat([]byte{0xA5, 0x5A}, 5<<20))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kw := &keyWriter{limit: sha512.BlockSize, h: sha512.New()}
	if err := writeBinary(kw, key); err != nil || !kw.hashing {
		t.Fatalf("a 10 MiB key was not hashed: %v", err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
		t.Fatalf("decoding a 10 MiB key allocated %d bytes", grew)
	}
	short := sha512.Sum512(bytes.Repeat([]byte{0xA5, 0x5A}, 5<<20))
	if !hmac.Equal(kw.h.Sum(nil), short[:]) {
		t.Fatal("the long key's hash is not SHA-512 of its bytes")
	}
}

// TestCryptoOnlyDigestAndHMAC: the algorithms Node has and Warden has not
// (AES, RSA, ECDSA, PBKDF2, ...) are refused as unknown ones are.
func TestCryptoOnlyDigestAndHMAC(t *testing.T) {
	res := runCode(t, cryptoHelpers+`
	const s = crypto.subtle, u = new Uint8Array(16);
	const k = await s.importKey("raw", u, {name: "HMAC", hash: "SHA-256"}, true, ["sign"]);
	const out = [];
	for (const f of [() => s.generateKey({name: "AES-GCM", length: 256}, true, ["encrypt"]),
		() => s.importKey("raw", u, {name: "AES-GCM"}, true, ["encrypt"]),
		() => s.encrypt({name: "AES-GCM", iv: u}, k, u), () => s.sign({name: "ECDSA", hash: "SHA-256"}, k, u),
		() => s.deriveBits({name: "PBKDF2", hash: "SHA-256", salt: u, iterations: 1}, k, 256),
		() => s.generateKey({name: "RSA-PSS", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256"}, true, ["sign"])]) {
		out.push((await settle(f)).join(" "));
	}
	return out`)
	check(t, res, want{value: "[" + strings.Repeat(`,"error NotSupportedError Unrecognized algorithm name"`, 6)[1:] + "]"})
}

// TestCryptoPoisonedIntrinsics: a guest that replaces what the crypto
// global is built on (the typed arrays' length and buffer getters,
// Uint8Array, String.fromCharCode, Array.prototype setters,
// Object.defineProperty, Object.prototype entries named as algorithms)
// gets the same digests and MACs as before; none of its replacements
// runs. (Not compared with Node: Node's own webcrypto reads some of
// these.)
func TestCryptoPoisonedIntrinsics(t *testing.T) {
	res := run(t, contract.Request{Code: cryptoHelpers + `
	const data = [inputs[2], big(20000), big(8192 * 3 + 5)];
	const U8 = Uint8Array, define = Reflect.defineProperty;
	// seen keeps results without push (whose [[Set]] the poison reaches).
	const byteLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(U8.prototype), "byteLength").get;
	const hexOf = (b) => { const u = new U8(b), n = Reflect.apply(byteLength, u, []); let s = ""; for (let i = 0; i < n; i++) s += (u[i] + 256).toString(16).slice(1); return s };
	const compute = async () => {
		let out = "";
		for (const u of data) {
			out += hexOf(await crypto.subtle.digest("SHA-256", u)) + " ";
			const k = await crypto.subtle.importKey("raw", u, {name: "HMAC", hash: "SHA-512"}, true, ["sign", "verify"]);
			const sig = await crypto.subtle.sign("HMAC", k, u);
			out += hexOf(sig) + " " + (await crypto.subtle.verify("HMAC", k, sig, u)) + " " + hexOf(await crypto.subtle.exportKey("raw", k)).length + " ";
			out += Reflect.apply(byteLength, crypto.getRandomValues(new U8(3)), []) + " " + crypto.randomUUID().length + " ";
		}
		return out;
	};
	const clean = await compute();
	const TA = Object.getPrototypeOf(Uint8Array.prototype);
	let ran = 0;
	for (const name of ["length", "byteLength", "byteOffset", "buffer"]) {
		Object.defineProperty(TA, name, {get() { ran++; return 1 }, configurable: true});
	}
	Object.defineProperty(Uint8Array.prototype, "length", {get() { ran++; return 2 }, configurable: true});
	for (let i = 0; i < 20; i++) Object.defineProperty(Array.prototype, i, {set() { ran++ }, get() { ran++ }, configurable: true});
	String.fromCharCode = () => { ran++; return "" };
	String.prototype.charCodeAt = () => { ran++; return 0 };
	globalThis.Uint8Array = function () { ran++ };
	globalThis.ArrayBuffer = function () { ran++ };
	Object.defineProperty = () => { ran++ };
	Object.prototype["SHA-256"] = null; Object.prototype.MD5 = null;
	// What the natives that carry the bytes read (toBase64's and
	// fromBase64's options), and the natives themselves.
	for (const name of ["alphabet", "omitPadding", "lastChunkHandling"]) {
		define(Object.prototype, name, {get() { ran++; return "base64url" }, configurable: true});
	}
	Uint8Array.prototype.toBase64 = () => { ran++; return "" };
	Uint8Array.fromBase64 = () => { ran++; return new U8(0) };
	globalThis.atob = globalThis.btoa = () => { ran++; return "" };
	const poisoned = await compute().catch((e) => String(e));
	return [poisoned === clean, ran, clean.length]`, Limits: cryptoLimits}, RunOptions{})
	check(t, res, want{value: "[true,0,627]"})
}

// BenchmarkCryptoDecode: what the host spends on 1 MiB of random bytes
// handed over as a binary string (its UTF-8) or as hex, hashed with
// SHA-256 (RATIONALE.md, "Bytes cross to the host as binary strings").
func BenchmarkCryptoDecode(b *testing.B) {
	p := make([]byte, 1<<20)
	rand.Read(p)
	bin := appendBinary(nil, p)
	hexText := []byte(hex.EncodeToString(p))
	b.Run("binary", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for range b.N {
			writeBinary(sha256.New(), bin)
		}
	})
	b.Run("hex", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		var buf [4096]byte
		for range b.N {
			h := sha256.New()
			for i := 0; i < len(hexText); i += 2 * len(buf) {
				n, _ := hex.Decode(buf[:], hexText[i:min(len(hexText), i+2*len(buf))])
				h.Write(buf[:n])
			}
		}
	})
}

// BenchmarkRandomValues1MiB: 1 MiB from crypto.getRandomValues, 64 KiB a
// call (its limit), on one VM: the host's draw, the binary string, and
// the natives that write it into the guest's array.
func BenchmarkRandomValues1MiB(b *testing.B) {
	b.SetBytes(1 << 20)
	benchRun(b, contract.Request{Code: `const a = new Uint8Array(65536);
		for (let i = 0; i < 16; i++) crypto.getRandomValues(a);
		return a.length`, Limits: contract.Limits{Timeout: 30e9}}, RunOptions{})
}

// BenchmarkDigest1MiB: crypto.subtle.digest of 1 MiB, five times on one
// VM: the bytes made into the binary string the host reads, and hashed.
func BenchmarkDigest1MiB(b *testing.B) {
	b.SetBytes(5 << 20)
	benchRun(b, contract.Request{Code: `const data = new Uint8Array(1 << 20);
		for (let i = 0; i < data.length; i += 7) data[i] = i;
		let n = 0;
		for (let i = 0; i < 5; i++) n += (await crypto.subtle.digest("SHA-256", data)).byteLength;
		return n`, Limits: contract.Limits{Timeout: 30e9, MemoryBytes: 64 << 20}}, RunOptions{})
}
