// URL and URLSearchParams, as Node 20's (the WHATWG URL Standard, as
// Node's URL parser implements it). Everything below works on strings
// the guest cannot reach, through intrinsics captured at load time:
// arrays the parser keeps have no prototype (an index setter on
// Array.prototype would otherwise see every push), records are
// null-prototype objects, and the URL and URLSearchParams objects hold
// their state in private fields (stamped by Brand), which no guest code
// can read or replace.
const strSliceU = String.prototype.slice;
const strCharCodeAt = String.prototype.charCodeAt;
const strIndexOf = String.prototype.indexOf;
const strToLowerCase = String.prototype.toLowerCase;
const strNormalize = String.prototype.normalize;
const strToWellFormed = String.prototype.toWellFormed;
const fromCharCode = String.fromCharCode;
const setPrototypeOf = Object.setPrototypeOf;
const ownKeys = Reflect.ownKeys;
const getOwnPropertyDescriptorU = Object.getOwnPropertyDescriptor;
const isArray = Array.isArray;
const iteratorSymbol = Symbol.iterator;
const toStringTagSymbol = Symbol.toStringTag;
const IteratorPrototype = getPrototypeOf(getPrototypeOf([][iteratorSymbol]()));
const objectCreate = Object.create;
const mathFloor = Math.floor;
const numberToString = Number.prototype.toString;

const regexpExec = RegExp.prototype.exec;
// test runs a regular expression of this file's through the captured
// exec (RegExp.prototype.test would look exec up on the prototype).
function test(re, str) { return apply(regexpExec, re, [str]) !== null; }
function slice(s, a, b) { return apply(strSliceU, s, [a, b]); }
function codeAt(s, i) { return apply(strCharCodeAt, s, [i]); }
function indexOf(s, t, from) { return apply(strIndexOf, s, [t, from]); }
function lower(s) { return apply(strToLowerCase, s, []); }
function list() { const a = []; setPrototypeOf(a, null); return a; }
function push(a, v) { a[a.length] = v; }

// toUSV is WebIDL's USVString conversion as Node does it (`${v}` and
// toWellFormed): a Symbol throws V8's TypeError.
function toUSV(v) {
  if (typeof v === "symbol") throw new TypeErrorIntrinsic("Cannot convert a Symbol value to a string");
  return apply(strToWellFormed, StringIntrinsic(v), []);
}

function nodeError(message, code) {
  const e = new TypeErrorIntrinsic(message);
  if (code !== undefined) defineProperty(e, "code", { value: code, writable: true, enumerable: true, configurable: true });
  return e;
}

// Brand stamps a private field onto an object its constructor is given
// (a base class that returns another object makes that object "this").
class Stamp { constructor(o) { return o; } }
function brand() {
  class Brand extends Stamp {
    #state;
    constructor(o, state) { super(o); this.#state = state; }
    static get(o) {
      return (o !== null && (typeof o === "object" || typeof o === "function") && #state in o) ? o.#state : undefined;
    }
  }
  return Brand;
}

const HEX = "0123456789ABCDEF";
const RegExpIntrinsic = RegExp;
// Percent-encode sets: one flag per ASCII code point; every code point
// above U+007E is in every set.
function encodeSet(base, extra) {
  const set = list();
  for (let i = 0; i < 128; i++) set[i] = base === null ? (i < 0x20 || i === 0x7f) : base[i];
  for (let i = 0; i < extra.length; i++) set[codeAt(extra, i)] = true;
  // re finds whether a string has anything to encode at all.
  let cls = "";
  for (let i = 0; i < 128; i++) if (set[i]) cls += "\\x" + HEX[i >> 4] + HEX[i & 15];
  set.re = new RegExpIntrinsic("[" + cls + "\\u0080-\\uffff]");
  set.marks = "";
  for (let i = 0; i < 9; i++) if (set[codeAt("-_.!~*'()", i)]) set.marks += "-_.!~*'()"[i];
  return set;
}
const C0_SET = encodeSet(null, "");
const FRAGMENT_SET = encodeSet(C0_SET, " \"<>`");
const QUERY_SET = encodeSet(C0_SET, " \"#<>");
const SPECIAL_QUERY_SET = encodeSet(QUERY_SET, "'");
const PATH_SET = encodeSet(QUERY_SET, "?`{}");
const USERINFO_SET = encodeSet(PATH_SET, "/:;=@[\\]^|");
const COMPONENT_SET = encodeSet(USERINFO_SET, "$%&+,");
const FORM_SET = encodeSet(COMPONENT_SET, "!'()~");

function pctByte(b) { return "%" + HEX[b >> 4] + HEX[b & 15]; }

// encode percent-encodes s (well-formed UTF-16) as UTF-8 with set; form
// also turns spaces into "+" (application/x-www-form-urlencoded).
// A string encodeURIComponent leaves alone has only ASCII letters,
// digits and -_.!~*'(): a fast native check that there is nothing to
// encode, but for the sets that take some of those (set.marks).
const encodeURIComponentIntrinsic = encodeURIComponent;
function plain(s, set) {
  if (encodeURIComponentIntrinsic(s) !== s) return false;
  const marks = set.marks;
  for (let i = 0; i < marks.length; i++) if (indexOf(s, marks[i], 0) >= 0) return false;
  return true;
}
function encode(s, set, form) {
  if (plain(s, set) || !test(set.re, s)) return s;
  let out = "", start = 0;
  for (let i = 0; i < s.length; i++) {
    let c = codeAt(s, i);
    if (c < 0x80 && !set[c]) continue;
    if (start < i) out += slice(s, start, i);
    if (c < 0x80) {
      out += form && c === 0x20 ? "+" : pctByte(c);
    } else if (c < 0x800) {
      out += pctByte(0xc0 | (c >> 6)) + pctByte(0x80 | (c & 63));
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      c = 0x10000 + ((c - 0xd800) << 10) + (codeAt(s, ++i) - 0xdc00);
      out += pctByte(0xf0 | (c >> 18)) + pctByte(0x80 | ((c >> 12) & 63)) +
        pctByte(0x80 | ((c >> 6) & 63)) + pctByte(0x80 | (c & 63));
    } else {
      out += pctByte(0xe0 | (c >> 12)) + pctByte(0x80 | ((c >> 6) & 63)) + pctByte(0x80 | (c & 63));
    }
    start = i + 1;
  }
  return start === 0 ? s : out + slice(s, start, s.length);
}

function codePointString(cp) {
  if (cp < 0x10000) return fromCharCode(cp);
  cp -= 0x10000;
  return fromCharCode(0xd800 + (cp >> 10), 0xdc00 + (cp & 1023));
}

// utf8Decode decodes bytes as the Encoding Standard's UTF-8 decoder
// does, each maximal invalid subpart becoming one U+FFFD.
function utf8Decode(bytes) {
  let out = "", needed = 0, seen = 0, cp = 0, lo = 0x80, hi = 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (needed === 0) {
      if (b <= 0x7f) out += fromCharCode(b);
      else if (b >= 0xc2 && b <= 0xdf) { needed = 1; cp = b & 0x1f; }
      else if (b >= 0xe0 && b <= 0xef) { if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; needed = 2; cp = b & 0xf; }
      else if (b >= 0xf0 && b <= 0xf4) { if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; needed = 3; cp = b & 7; }
      else out += "\ufffd";
      continue;
    }
    if (b < lo || b > hi) {
      cp = needed = seen = 0; lo = 0x80; hi = 0xbf;
      out += "\ufffd";
      i--;
      continue;
    }
    lo = 0x80; hi = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
    if (++seen === needed) { out += codePointString(cp); cp = needed = seen = 0; }
  }
  if (needed !== 0) out += "\ufffd";
  return out;
}

function hexValue(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

// percentDecode decodes %XX sequences of s (and "+" as a space when
// plus), reading the decoded bytes as UTF-8.
function percentDecode(s, plus) {
  if (indexOf(s, "%", 0) < 0 && (!plus || indexOf(s, "+", 0) < 0)) return s;
  let out = "", start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (plus && c === "+") {
      out += slice(s, start, i) + " ";
      start = i + 1;
      continue;
    }
    if (c !== "%") continue;
    const bytes = list();
    let j = i;
    while (j + 2 < s.length && s[j] === "%") {
      const h = hexValue(codeAt(s, j + 1)), l = hexValue(codeAt(s, j + 2));
      if (h < 0 || l < 0) break;
      push(bytes, h * 16 + l);
      j += 3;
    }
    if (bytes.length === 0) continue;
    out += slice(s, start, i) + utf8Decode(bytes);
    start = j;
    i = j - 1;
  }
  return out + slice(s, start, s.length);
}

// ---- Hosts ----

// codePoints splits s into its code points (numbers).
function codePoints(s) {
  const out = list();
  for (let i = 0; i < s.length; i++) {
    let c = codeAt(s, i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = codeAt(s, i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
    }
    push(out, c);
  }
  return out;
}

// Punycode (RFC 3492).
const PUNY_BASE = 36, PUNY_TMIN = 1, PUNY_TMAX = 26, PUNY_SKEW = 38, PUNY_DAMP = 700;
function punyAdapt(delta, numPoints, first) {
  delta = first ? mathFloor(delta / PUNY_DAMP) : delta >> 1;
  delta += mathFloor(delta / numPoints);
  let k = 0;
  while (delta > ((PUNY_BASE - PUNY_TMIN) * PUNY_TMAX) >> 1) {
    delta = mathFloor(delta / (PUNY_BASE - PUNY_TMIN));
    k += PUNY_BASE;
  }
  return k + mathFloor(((PUNY_BASE - PUNY_TMIN + 1) * delta) / (delta + PUNY_SKEW));
}
function punyDigit(d) { return fromCharCode(d < 26 ? d + 97 : d + 22); }

function punyEncode(label) {
  const cps = codePoints(label);
  let out = "";
  for (let i = 0; i < cps.length; i++) if (cps[i] < 0x80) out += fromCharCode(cps[i]);
  let h = out.length;
  const b = h;
  if (b > 0) out += "-";
  let n = 0x80, delta = 0, bias = 72;
  while (h < cps.length) {
    let m = 0x7fffffff;
    for (let i = 0; i < cps.length; i++) if (cps[i] >= n && cps[i] < m) m = cps[i];
    delta += (m - n) * (h + 1);
    n = m;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i];
      if (c < n) delta++;
      if (c !== n) continue;
      let q = delta;
      for (let k = PUNY_BASE; ; k += PUNY_BASE) {
        const t = k <= bias ? PUNY_TMIN : k >= bias + PUNY_TMAX ? PUNY_TMAX : k - bias;
        if (q < t) break;
        out += punyDigit(t + ((q - t) % (PUNY_BASE - t)));
        q = mathFloor((q - t) / (PUNY_BASE - t));
      }
      out += punyDigit(q);
      bias = punyAdapt(delta, h + 1, h === b);
      delta = 0;
      h++;
    }
    delta++;
    n++;
  }
  return out;
}

// punyDecode returns the decoded label, or null when s is no valid
// Punycode.
function punyDecode(s) {
  const out = list();
  let basic = -1;
  for (let i = 0; i < s.length; i++) if (s[i] === "-") basic = i;
  for (let i = 0; i < basic; i++) {
    const c = codeAt(s, i);
    if (c >= 0x80) return null;
    push(out, c);
  }
  let n = 0x80, i = 0, bias = 72;
  for (let p = basic + 1; p < s.length;) {
    const oldi = i;
    let w = 1;
    for (let k = PUNY_BASE; ; k += PUNY_BASE) {
      if (p >= s.length) return null;
      const c = codeAt(s, p++);
      const d = c >= 0x30 && c <= 0x39 ? c - 22 : c >= 0x41 && c <= 0x5a ? c - 0x41 : c >= 0x61 && c <= 0x7a ? c - 0x61 : -1;
      if (d < 0) return null;
      i += d * w;
      if (i > 0x7fffffff) return null;
      const t = k <= bias ? PUNY_TMIN : k >= bias + PUNY_TMAX ? PUNY_TMAX : k - bias;
      if (d < t) break;
      w *= PUNY_BASE - t;
    }
    bias = punyAdapt(i - oldi, out.length + 1, oldi === 0);
    n += mathFloor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    for (let j = out.length; j > i; j--) out[j] = out[j - 1];
    out[i++] = n;
  }
  let text = "";
  for (let j = 0; j < out.length; j++) text += codePointString(out[j]);
  return text;
}

const RE_NON_ASCII = /[^\0-\x7f]/;
function isASCII(s) { return encodeURIComponentIntrinsic(s) === s || !test(RE_NON_ASCII, s); }

// idnaMap is the part of UTS #46's mapping carried here: the ideographic
// and full-width full stops become ".", the ignored code points go,
// capital sharp s becomes "ss", compatibility forms (full-width letters,
// ligatures) are decomposed as NFKD does (a code point whose
// decomposition holds a full stop, as U+2488 does, is disallowed: null),
// every code point is lower-cased on its own (so a final sigma is no
// context rule), and the result is left in NFC.
function idnaMap(domain) {
  let s = "";
  const cps = codePoints(domain);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c < 0x80) { s += c >= 0x41 && c <= 0x5a ? fromCharCode(c + 32) : fromCharCode(c); continue; }
    if (c === 0x3002 || c === 0xff0e || c === 0xff61) { s += "."; continue; }
    if (c === 0xad || c === 0x34f || (c >= 0x180b && c <= 0x180d) || c === 0x200b || c === 0x2060 ||
      c === 0xfeff || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef)) continue;
    if (c === 0x1e9e) { s += "ss"; continue; }
    if (c === 0x345) { s += "\u03b9"; continue; }
    // Cherokee folds to its capitals, not to the small letters.
    if (c >= 0x13f8 && c <= 0x13fd) { s += fromCharCode(c - 8); continue; }
    if (c >= 0xab70 && c <= 0xabbf) { s += fromCharCode(c - 0xab70 + 0x13a0); continue; }
    if (c >= 0x13a0 && c <= 0x13f5) { s += fromCharCode(c); continue; }
    // The Georgian capitals are disallowed, not lower-cased.
    if ((c >= 0x10a0 && c <= 0x10c5) || c === 0x10c7 || c === 0x10cd) return null;
    const d = apply(strNormalize, codePointString(c), ["NFKD"]);
    if (indexOf(d, ".", 0) >= 0) return null;
    s += lower(d);
  }
  return apply(strNormalize, s, ["NFC"]);
}

const RE_LEADING_MARK = /^\p{M}/u;
// Controls, format characters (the joiners among them), surrogates,
// private use, unassigned, spaces, the line and paragraph separators,
// the ideographic description characters, the Mongolian soft hyphen, the Hangul fillers and the Georgian capitals UTS #46
// disallows.
const RE_DISALLOWED = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zs}\p{Zl}\p{Zp}\u1806\u2ff0-\u2fff\u115f\u1160\u3164\uffa0\u17b4\u17b5\u10a0-\u10c5\u10c7\u10cd\u200c\u200d\ufffd]/u;
const RE_RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
const RE_MARK = /\p{M}/u;
const RE_LETTER = /\p{L}/u;
const RE_DIGIT = /\p{Nd}/u;

// labelValid is the part of UTS #46's validity criteria carried here:
// no leading combining mark, nothing disallowed (joiners included: the
// contexts CheckJoiners allows them in are rare), and nothing the
// mapping would change.
function labelValid(label) {
  if (test(RE_LEADING_MARK, label) || test(RE_DISALLOWED, label)) return false;
  return idnaMap(label) === label;
}

// bidiClass approximates a code point's bidirectional class by its
// script and category: L, R (R and AL), AN, EN, NSM or ON.
function bidiClass(ch) {
  const c = codeAt(ch, 0);
  if ((c >= 0x660 && c <= 0x669) || c === 0x66b || c === 0x66c) return "AN";
  if (test(RE_MARK, ch)) return "NSM";
  if (test(RE_DIGIT, ch)) return "EN";
  if (test(RE_RTL, ch)) return test(RE_LETTER, ch) ? "R" : "ON";
  return test(RE_LETTER, ch) ? "L" : "ON";
}

// bidiValid checks the Bidi Rule (RFC 5893) on one label of a domain
// that has right-to-left text.
function bidiValid(label) {
  const cps = codePoints(label);
  if (cps.length === 0) return true;
  const classes = list();
  for (let i = 0; i < cps.length; i++) push(classes, bidiClass(codePointString(cps[i])));
  const first = classes[0];
  if (first !== "L" && first !== "R") return false;
  let last = classes.length - 1;
  while (last > 0 && classes[last] === "NSM") last--;
  let en = false, an = false;
  for (let i = 0; i < classes.length; i++) {
    const k = classes[i];
    if (first === "R" && k === "L") return false;
    if (first === "L" && (k === "R" || k === "AN")) return false;
    if (k === "EN") en = true;
    if (k === "AN") an = true;
  }
  const end = classes[last];
  if (first === "R") return !(en && an) && (end === "R" || end === "EN" || end === "AN");
  return end === "L" || end === "EN";
}

// domainToASCII is UTS #46's ToASCII with Node's options (no hyphen or
// DNS-length checks, non-transitional); null is failure.
function domainToASCII(domain) {
  const mapped = isASCII(domain) ? lower(domain) : idnaMap(domain);
  if (mapped === null) return null;
  let out = "", start = 0, rtl = false;
  const labels = list();
  for (let i = 0; i <= mapped.length; i = start) {
    i = indexOf(mapped, ".", start);
    if (i < 0) i = mapped.length;
    let label = slice(mapped, start, i);
    if (isASCII(label)) {
      if (slice(label, 0, 4) === "xn--") {
        const decoded = punyDecode(slice(label, 4, label.length));
        if (decoded === null || decoded === "" || isASCII(decoded) || !labelValid(decoded)) return null;
        push(labels, decoded);
        if (test(RE_RTL, decoded)) rtl = true;
      } else {
        push(labels, label);
      }
    } else {
      push(labels, label);
      if (test(RE_RTL, label)) rtl = true;
      if (!labelValid(label)) return null;
      label = "xn--" + punyEncode(label);
    }
    out += (start === 0 ? "" : ".") + label;
    start = i + 1;
  }
  if (rtl) for (let i = 0; i < labels.length; i++) if (!bidiValid(labels[i])) return null;
  return out === "" ? null : out;
}

const RE_FORBIDDEN_HOST = /[\0\t\n\r #/:<>?@[\\\]^|]/;
const RE_FORBIDDEN_DOMAIN = /[\0-\x20#%/:<>?@[\\\]^|\x7f]/;
function forbiddenHost(s, domain) {
  // None of the code points encodeURIComponent leaves alone is forbidden.
  if (encodeURIComponentIntrinsic(s) === s) return false;
  return test(domain ? RE_FORBIDDEN_DOMAIN : RE_FORBIDDEN_HOST, s);
}

// ipv4Number parses one dotted part: a number, or -1 for failure.
function ipv4Number(s) {
  if (s === "") return -1;
  let radix = 10, i = 0;
  if (s.length >= 2 && s[0] === "0" && (s[1] === "x" || s[1] === "X")) { radix = 16; i = 2; }
  else if (s.length >= 2 && s[0] === "0") { radix = 8; i = 1; }
  let n = 0;
  for (; i < s.length; i++) {
    const d = hexValue(codeAt(s, i));
    if (d < 0 || d >= radix) return -1;
    n = n * radix + d;
  }
  return n;
}

function endsInANumber(s) {
  let end = s.length, start;
  if (end > 0 && s[end - 1] === ".") {
    if (end === 1) return false;
    end--;
  }
  start = end;
  while (start > 0 && s[start - 1] !== ".") start--;
  const last = slice(s, start, end);
  if (last === "") return false;
  let digits = true;
  for (let i = 0; i < last.length; i++) if (!(last[i] >= "0" && last[i] <= "9")) digits = false;
  return digits || ipv4Number(last) >= 0;
}

// ipv4 parses an IPv4 address into its dotted serialisation, or null.
function ipv4(s) {
  const parts = list();
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    if (i < s.length && s[i] !== ".") continue;
    push(parts, slice(s, start, i));
    start = i + 1;
  }
  if (parts[parts.length - 1] === "" && parts.length > 1) parts.length--;
  if (parts.length > 4) return null;
  const nums = list();
  for (let i = 0; i < parts.length; i++) {
    const n = ipv4Number(parts[i]);
    if (n < 0) return null;
    push(nums, n);
  }
  for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return null;
  let addr = nums[nums.length - 1];
  if (addr >= 256 ** (5 - nums.length)) return null;
  for (let i = 0; i < nums.length - 1; i++) addr += nums[i] * 256 ** (3 - i);
  let out = "";
  for (let i = 0; i < 4; i++) {
    out = StringIntrinsic(addr % 256) + (i === 0 ? "" : ".") + out;
    addr = mathFloor(addr / 256);
  }
  return out;
}

// ipv6 parses the inside of [...] into its serialisation with brackets
// (the longest run of zero pieces compressed), or null.
function ipv6(s) {
  const a = list();
  for (let i = 0; i < 8; i++) a[i] = 0;
  let piece = 0, compress = -1, p = 0;
  if (s[0] === ":") {
    if (s[1] !== ":") return null;
    p = 2;
    compress = ++piece;
  }
  while (p < s.length) {
    if (piece === 8) return null;
    if (s[p] === ":") {
      if (compress !== -1) return null;
      p++;
      compress = ++piece;
      continue;
    }
    let value = 0, len = 0;
    while (len < 4 && p < s.length && hexValue(codeAt(s, p)) >= 0) {
      value = value * 16 + hexValue(codeAt(s, p));
      p++; len++;
    }
    if (s[p] === ".") {
      if (len === 0) return null;
      p -= len;
      if (piece > 6) return null;
      let seen = 0;
      while (p < s.length) {
        let v4 = -1;
        if (seen > 0) {
          if (s[p] === "." && seen < 4) p++;
          else return null;
        }
        if (!(s[p] >= "0" && s[p] <= "9")) return null;
        while (s[p] >= "0" && s[p] <= "9") {
          const n = codeAt(s, p) - 0x30;
          if (v4 === -1) v4 = n;
          else if (v4 === 0) return null;
          else v4 = v4 * 10 + n;
          if (v4 > 255) return null;
          p++;
        }
        a[piece] = a[piece] * 256 + v4;
        seen++;
        if (seen === 2 || seen === 4) piece++;
      }
      if (seen !== 4) return null;
      break;
    } else if (s[p] === ":") {
      p++;
      if (p >= s.length) return null;
    } else if (p < s.length) {
      return null;
    }
    a[piece++] = value;
  }
  if (compress !== -1) {
    let swaps = piece - compress;
    piece = 7;
    while (piece !== 0 && swaps > 0) {
      const t = a[compress + swaps - 1];
      a[compress + swaps - 1] = a[piece];
      a[piece] = t;
      piece--; swaps--;
    }
  } else if (piece !== 8) {
    return null;
  }
  let best = -1, bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && a[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j === i ? i + 1 : j;
  }
  let out = "[";
  for (let i = 0; i < 8; i++) {
    if (i === best) {
      out += i === 0 ? "::" : ":";
      i += bestLen - 1;
      continue;
    }
    out += lower(apply(numberToString, a[i], [16]));
    if (i < 7) out += ":";
  }
  return out + "]";
}

// parseHost is the host parser: the serialised host, or null.
function parseHost(input, opaque) {
  if (input[0] === "[") {
    if (input[input.length - 1] !== "]") return null;
    return ipv6(slice(input, 1, input.length - 1));
  }
  if (opaque) {
    if (forbiddenHost(input, false)) return null;
    return encode(input, C0_SET, false);
  }
  const ascii = domainToASCII(percentDecode(input, false));
  if (ascii === null || forbiddenHost(ascii, true)) return null;
  if (endsInANumber(ascii)) return ipv4(ascii);
  return ascii;
}

// ---- The URL parser ----

const SPECIAL = { __proto__: null, "ftp": 21, "file": null, "http": 80, "https": 443, "ws": 80, "wss": 443 };
function isSpecialScheme(s) { return s in SPECIAL; }
function defaultPort(s) { return s in SPECIAL ? SPECIAL[s] : null; }

function newRecord() {
  return { __proto__: null, scheme: "", username: "", password: "", host: null, port: null,
    path: list(), opaque: false, query: null, fragment: null };
}
function copyList(a) { const b = list(); for (let i = 0; i < a.length; i++) b[i] = a[i]; return b; }

function isAlpha(c) { return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z"); }
function isDigit(c) { return c >= "0" && c <= "9"; }
function isDriveLetter(s, normalized) {
  return s.length === 2 && isAlpha(s[0]) && (s[1] === ":" || (!normalized && s[1] === "|"));
}
function startsWithDriveLetter(s, p) {
  if (s.length - p < 2 || !isAlpha(s[p]) || (s[p + 1] !== ":" && s[p + 1] !== "|")) return false;
  if (s.length - p === 2) return true;
  const c = s[p + 2];
  return c === "/" || c === "\\" || c === "?" || c === "#";
}
function isSingleDot(s) { return s === "." || (s.length === 3 && lower(s) === "%2e"); }
function isDoubleDot(s) {
  if (s.length !== 2 && s.length !== 4 && s.length !== 6) return false;
  s = lower(s);
  return s === ".." || s === ".%2e" || s === "%2e." || s === "%2e%2e";
}
function shortenPath(url) {
  const p = url.path;
  if (url.scheme === "file" && p.length === 1 && isDriveLetter(p[0], true)) return;
  if (p.length > 0) p.length--;
}

// States of the basic URL parser.
const SCHEME_START = 1, SCHEME = 2, NO_SCHEME = 3, SPECIAL_RELATIVE_OR_AUTHORITY = 4, PATH_OR_AUTHORITY = 5,
  RELATIVE = 6, RELATIVE_SLASH = 7, SPECIAL_AUTHORITY_SLASHES = 8, SPECIAL_AUTHORITY_IGNORE_SLASHES = 9,
  AUTHORITY = 10, HOST = 11, HOSTNAME = 12, PORT = 13, FILE = 14, FILE_SLASH = 15, FILE_HOST = 16,
  PATH_START = 17, PATH = 18, OPAQUE_PATH = 19, QUERY = 20, FRAGMENT = 21;

// trimControls strips leading and trailing C0 controls and spaces;
// stripTabs removes every tab and newline.
function trimControls(s) {
  let a = 0, b = s.length;
  while (a < b && s[a] <= " ") a++;
  while (b > a && s[b - 1] <= " ") b--;
  return a === 0 && b === s.length ? s : slice(s, a, b);
}
function stripTabs(s) {
  if (indexOf(s, "\t", 0) < 0 && indexOf(s, "\n", 0) < 0 && indexOf(s, "\r", 0) < 0) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== "\t" && c !== "\n" && c !== "\r") out += c;
  }
  return out;
}

// basicParse is the basic URL parser. Without url it returns a new
// record or null (failure); with url and state (a setter) it changes
// url in place and returns false on failure.
function basicParse(input, base, url, state) {
  const override = url !== undefined;
  if (!override) {
    url = newRecord();
    input = trimControls(input);
    state = SCHEME_START;
  }
  input = stripTabs(input);
  const r = runParser(input, base, url, state, override);
  if (override) return r;
  return r ? url : null;
}

function runParser(input, base, url, state, override) {
  let buffer = "", atSeen = false, insideBrackets = false, passwordSeen = false;
  const len = input.length;
  // next(ch, from) is the index of the next ch at or after from (len if
  // none), remembered per ch: the bulk scans below cost O(n) in all,
  // where a search from every segment would cost O(n) each.
  const seen = { __proto__: null };
  function next(ch, from) {
    let at = seen[ch];
    if (at === undefined || at < from) {
      at = indexOf(input, ch, from);
      if (at < 0) at = len;
      seen[ch] = at;
    }
    return at;
  }
  function min(a, b) { return a < b ? a : b; }
  for (let p = 0; ; p++) {
    const c = input[p]; // undefined past the end (EOF)
    const special = url.scheme in SPECIAL;
    switch (state) {
      case SCHEME_START:
        if (c !== undefined && isAlpha(c)) { buffer += c; state = SCHEME; }
        else if (!override) { state = NO_SCHEME; p--; }
        else return false;
        break;
      case SCHEME:
        if (c !== undefined && (isAlpha(c) || isDigit(c) || c === "+" || c === "-" || c === ".")) {
          buffer += c;
        } else if (c === ":") {
          // The scheme is lower-cased once, at its end.
          buffer = lower(buffer);
          if (override) {
            if (isSpecialScheme(url.scheme) !== isSpecialScheme(buffer)) return true;
            if ((url.username !== "" || url.password !== "" || url.port !== null) && buffer === "file") return true;
            if (url.scheme === "file" && url.host === "") return true;
          }
          url.scheme = buffer;
          if (override) {
            if (url.port === defaultPort(url.scheme)) url.port = null;
            return true;
          }
          buffer = "";
          if (url.scheme === "file") state = FILE;
          else if (url.scheme in SPECIAL && base !== null && base.scheme === url.scheme) state = SPECIAL_RELATIVE_OR_AUTHORITY;
          else if (url.scheme in SPECIAL) state = SPECIAL_AUTHORITY_SLASHES;
          else if (input[p + 1] === "/") { state = PATH_OR_AUTHORITY; p++; }
          else { url.opaque = true; url.path = ""; state = OPAQUE_PATH; }
        } else if (!override) {
          buffer = ""; state = NO_SCHEME; p = -1;
        } else return false;
        break;
      case NO_SCHEME:
        if (base === null || (base.opaque && c !== "#")) return false;
        if (base.opaque) {
          url.scheme = base.scheme; url.opaque = true; url.path = base.path; url.query = base.query;
          url.fragment = ""; state = FRAGMENT;
        } else {
          state = base.scheme !== "file" ? RELATIVE : FILE;
          p--;
        }
        break;
      case SPECIAL_RELATIVE_OR_AUTHORITY:
        if (c === "/" && input[p + 1] === "/") { state = SPECIAL_AUTHORITY_IGNORE_SLASHES; p++; }
        else { state = RELATIVE; p--; }
        break;
      case PATH_OR_AUTHORITY:
        if (c === "/") state = AUTHORITY;
        else { state = PATH; p--; }
        break;
      case RELATIVE:
        url.scheme = base.scheme;
        if (c === "/" || (url.scheme in SPECIAL && c === "\\")) { state = RELATIVE_SLASH; break; }
        url.username = base.username; url.password = base.password; url.host = base.host;
        url.port = base.port; url.path = copyList(base.path); url.query = base.query;
        if (c === "?") { url.query = ""; state = QUERY; }
        else if (c === "#") { url.fragment = ""; state = FRAGMENT; }
        else if (c !== undefined) { url.query = null; shortenPath(url); state = PATH; p--; }
        break;
      case RELATIVE_SLASH:
        if (special && (c === "/" || c === "\\")) state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
        else if (c === "/") state = AUTHORITY;
        else {
          url.username = base.username; url.password = base.password; url.host = base.host; url.port = base.port;
          state = PATH; p--;
        }
        break;
      case SPECIAL_AUTHORITY_SLASHES:
        if (c === "/" && input[p + 1] === "/") { state = SPECIAL_AUTHORITY_IGNORE_SLASHES; p++; }
        else { state = SPECIAL_AUTHORITY_IGNORE_SLASHES; p--; }
        break;
      case SPECIAL_AUTHORITY_IGNORE_SLASHES:
        if (c !== "/" && c !== "\\") { state = AUTHORITY; p--; }
        break;
      case AUTHORITY:
        if (c === "@") {
          if (atSeen) buffer = "%40" + buffer;
          atSeen = true;
          if (passwordSeen) {
            url.password += encode(buffer, USERINFO_SET, false);
          } else {
            // The first ":" of the credentials ends the username.
            const colon = indexOf(buffer, ":", 0);
            if (colon < 0) {
              url.username += encode(buffer, USERINFO_SET, false);
            } else {
              passwordSeen = true;
              url.username += encode(slice(buffer, 0, colon), USERINFO_SET, false);
              url.password += encode(slice(buffer, colon + 1, buffer.length), USERINFO_SET, false);
            }
          }
          buffer = "";
        } else if (c === undefined || c === "/" || c === "?" || c === "#" || (special && c === "\\")) {
          if (atSeen && buffer === "") return false;
          p -= buffer.length + 1;
          buffer = "";
          state = HOST;
        } else {
          // Everything up to the next delimiter joins the buffer at once.
          let j = min(min(next("@", p + 1), next("/", p + 1)), min(next("?", p + 1), next("#", p + 1)));
          if (special) j = min(j, next("\\", p + 1));
          buffer += slice(input, p, j);
          p = j - 1;
        }
        break;
      case HOST:
      case HOSTNAME:
        if (override && url.scheme === "file") { p--; state = FILE_HOST; }
        else if (c === ":" && !insideBrackets) {
          if (buffer === "") return false;
          if (state === HOSTNAME) return false;
          const host = parseHost(buffer, !special);
          if (host === null) return false;
          url.host = host; buffer = ""; state = PORT;
        } else if (c === undefined || c === "/" || c === "?" || c === "#" || (special && c === "\\")) {
          p--;
          if (special && buffer === "") return false;
          if (override && buffer === "" && (url.username !== "" || url.password !== "" || url.port !== null)) return false;
          const host = parseHost(buffer, !special);
          if (host === null) return false;
          url.host = host; buffer = ""; state = PATH_START;
          if (override) return true;
        } else {
          if (c === "[") insideBrackets = true;
          if (c === "]") insideBrackets = false;
          // What follows up to the next delimiter or bracket joins at once.
          let j = min(min(next(":", p + 1), next("/", p + 1)), min(next("?", p + 1), next("#", p + 1)));
          j = min(j, min(min(next("[", p + 1), next("]", p + 1)), special ? next("\\", p + 1) : len));
          buffer += slice(input, p, j);
          p = j - 1;
        }
        break;
      case PORT:
        if (c !== undefined && isDigit(c)) buffer += c;
        else if (c === undefined || c === "/" || c === "?" || c === "#" || (special && c === "\\") || override) {
          if (buffer !== "") {
            let port = 0;
            for (let i = 0; i < buffer.length; i++) {
              port = port * 10 + (codeAt(buffer, i) - 0x30);
              if (port > 65535) return false;
            }
            url.port = port === defaultPort(url.scheme) ? null : port;
            buffer = "";
          }
          if (override) return true;
          state = PATH_START; p--;
        } else return false;
        break;
      case FILE:
        url.scheme = "file";
        url.host = "";
        if (c === "/" || c === "\\") state = FILE_SLASH;
        else if (base !== null && base.scheme === "file") {
          url.host = base.host; url.path = copyList(base.path); url.query = base.query;
          if (c === "?") { url.query = ""; state = QUERY; }
          else if (c === "#") { url.fragment = ""; state = FRAGMENT; }
          else if (c !== undefined) {
            url.query = null;
            if (!startsWithDriveLetter(input, p)) shortenPath(url);
            else url.path = list();
            state = PATH; p--;
          }
        } else { state = PATH; p--; }
        break;
      case FILE_SLASH:
        if (c === "/" || c === "\\") state = FILE_HOST;
        else {
          if (base !== null && base.scheme === "file") {
            url.host = base.host;
            if (!startsWithDriveLetter(input, p) && base.path.length > 0 && isDriveLetter(base.path[0], true)) {
              push(url.path, base.path[0]);
            }
          }
          state = PATH; p--;
        }
        break;
      case FILE_HOST:
        if (c === undefined || c === "/" || c === "\\" || c === "?" || c === "#") {
          p--;
          if (!override && isDriveLetter(buffer, false)) state = PATH;
          else if (buffer === "") {
            url.host = "";
            if (override) return true;
            state = PATH_START;
          } else {
            let host = parseHost(buffer, false);
            if (host === null) return false;
            if (host === "localhost") host = "";
            url.host = host;
            if (override) return true;
            buffer = ""; state = PATH_START;
          }
        } else buffer += c;
        break;
      case PATH_START:
        if (special) {
          state = PATH;
          if (c !== "/" && c !== "\\") p--;
        } else if (!override && c === "?") { url.query = ""; state = QUERY; }
        else if (!override && c === "#") { url.fragment = ""; state = FRAGMENT; }
        else if (c !== undefined) { state = PATH; if (c !== "/") p--; }
        else if (override && url.host === null) push(url.path, "");
        break;
      case PATH:
        if (c === undefined || c === "/" || (special && c === "\\") || (!override && (c === "?" || c === "#"))) {
          const slash = c === "/" || (special && c === "\\");
          if (isDoubleDot(buffer)) {
            shortenPath(url);
            if (!slash) push(url.path, "");
          } else if (isSingleDot(buffer) && !slash) {
            push(url.path, "");
          } else if (!isSingleDot(buffer)) {
            if (url.scheme === "file" && url.path.length === 0 && isDriveLetter(buffer, false)) {
              buffer = buffer[0] + ":";
            }
            push(url.path, encode(buffer, PATH_SET, false));
          }
          buffer = "";
          if (c === "?") { url.query = ""; state = QUERY; }
          if (c === "#") { url.fragment = ""; state = FRAGMENT; }
        } else {
          let j = next("/", p + 1);
          if (special) j = min(j, next("\\", p + 1));
          if (!override) j = min(j, min(next("?", p + 1), next("#", p + 1)));
          buffer += slice(input, p, j);
          p = j - 1;
        }
        break;
      case OPAQUE_PATH: {
        const j = min(next("?", p), next("#", p));
        url.path += encode(slice(input, p, j), C0_SET, false);
        p = j;
        if (input[j] === "?") { url.query = ""; state = QUERY; }
        else if (input[j] === "#") { url.fragment = ""; state = FRAGMENT; }
        break;
      }
      case QUERY: {
        const j = override ? len : next("#", p);
        url.query += encode(slice(input, p, j), special ? SPECIAL_QUERY_SET : QUERY_SET, false);
        p = j;
        if (input[j] === "#") { url.fragment = ""; state = FRAGMENT; }
        break;
      }
      case FRAGMENT:
        url.fragment += encode(slice(input, p, len), FRAGMENT_SET, false);
        p = len;
        break;
    }
    // The state has seen EOF and left the pointer there: done.
    if (c === undefined && p >= len) return true;
  }
}

// ---- Serialisation ----

function serializePath(url) {
  if (url.opaque) return url.path;
  let out = "";
  for (let i = 0; i < url.path.length; i++) out += "/" + url.path[i];
  return out;
}
function serialize(url, excludeFragment) {
  let out = url.scheme + ":";
  if (url.host !== null) {
    out += "//";
    if (url.username !== "" || url.password !== "") {
      out += url.username;
      if (url.password !== "") out += ":" + url.password;
      out += "@";
    }
    out += url.host;
    if (url.port !== null) out += ":" + StringIntrinsic(url.port);
  } else if (!url.opaque && url.path.length > 1 && url.path[0] === "") {
    out += "/.";
  }
  out += serializePath(url);
  if (url.query !== null) out += "?" + url.query;
  if (!excludeFragment && url.fragment !== null) out += "#" + url.fragment;
  return out;
}
function origin(url) {
  const s = url.scheme;
  if (s === "blob") {
    const inner = basicParse(serializePath(url), null);
    return inner !== null && (inner.scheme === "http" || inner.scheme === "https") ? origin(inner) : "null";
  }
  if (s === "ftp" || s === "http" || s === "https" || s === "ws" || s === "wss") {
    return s + "://" + url.host + (url.port !== null ? ":" + StringIntrinsic(url.port) : "");
  }
  return "null";
}
// stripTrailingSpaces is "potentially strip trailing spaces from an
// opaque path": an opaque path cannot end in a space once neither a
// query nor a fragment follows it.
function stripTrailingSpaces(url) {
  if (!url.opaque || url.fragment !== null || url.query !== null) return;
  let end = url.path.length;
  while (end > 0 && url.path[end - 1] === " ") end--;
  url.path = slice(url.path, 0, end);
}

// ---- URLSearchParams ----

// parseForm parses application/x-www-form-urlencoded text into a flat
// list of names and values.
function parseForm(s) {
  const out = list();
  let start = 0;
  // Without a "%" or "+" anywhere nothing needs decoding.
  const decode = indexOf(s, "%", 0) >= 0 || indexOf(s, "+", 0) >= 0;
  while (start <= s.length) {
    let i = indexOf(s, "&", start);
    if (i < 0) i = s.length;
    if (i > start) {
      const seq = slice(s, start, i);
      const eq = indexOf(seq, "=", 0);
      const name = eq < 0 ? seq : slice(seq, 0, eq), value = eq < 0 ? "" : slice(seq, eq + 1, seq.length);
      push(out, decode ? percentDecode(name, true) : name);
      push(out, decode ? percentDecode(value, true) : value);
    }
    start = i + 1;
  }
  return out;
}
function serializeForm(pairs) {
  let out = "";
  for (let i = 0; i < pairs.length; i += 2) {
    if (i > 0) out += "&";
    out += encode(pairs[i], FORM_SET, true) + "=" + encode(pairs[i + 1], FORM_SET, true);
  }
  return out;
}

const ParamsBrand = brand();
const IteratorBrand = brand();
const URLBrand = brand();

function paramsState(o) {
  const st = ParamsBrand.get(o);
  if (st === undefined) throw nodeError("Value of \"this\" must be of type URLSearchParams", "ERR_INVALID_THIS");
  return st;
}
// update is the URLSearchParams update steps: the URL it belongs to
// takes its serialisation as query.
function update(st) {
  if (st.ctx === null) return;
  const s = serializeForm(st.list);
  st.ctx.url.query = s === "" ? null : s;
  if (s === "") stripTrailingSpaces(st.ctx.url);
}
function missing(names) {
  return nodeError("The " + names + " must be specified", "ERR_MISSING_ARGS");
}
function invalidTuple() {
  return nodeError("Each query pair must be an iterable [name, value] tuple", "ERR_INVALID_TUPLE");
}

// fillParams is the URLSearchParams constructor's init, read as Node
// reads it (a sequence of pairs, a record, or a string).
function fillParams(st, init, self) {
  if (init === undefined || init === null) return;
  if (typeof init !== "object" && typeof init !== "function") {
    let s = toUSV(init);
    if (s[0] === "?") s = slice(s, 1, s.length);
    st.list = parseForm(s);
    return;
  }
  const method = init[iteratorSymbol];
  const other = ParamsBrand.get(init);
  if (other !== undefined && method === self[iteratorSymbol]) {
    st.list = copyList(other.list);
  } else if (method !== undefined && method !== null) {
    if (typeof method !== "function") throw nodeError("Query pairs must be iterable", "ERR_ARG_NOT_ITERABLE");
    for (const pair of init) {
      if (pair === undefined || pair === null) throw invalidTuple();
      if (isArray(pair)) {
        if (pair.length !== 2) throw invalidTuple();
        push(st.list, toUSV(pair[0]));
        push(st.list, toUSV(pair[1]));
        continue;
      }
      if ((typeof pair !== "object" && typeof pair !== "function") || typeof pair[iteratorSymbol] !== "function") {
        throw invalidTuple();
      }
      let n = 0;
      for (const element of pair) {
        n++;
        push(st.list, toUSV(element));
      }
      if (n !== 2) throw invalidTuple();
    }
  } else {
    const keys = ownKeys(init);
    const seen = { __proto__: null };
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const desc = getOwnPropertyDescriptorU(init, key);
      if (desc === undefined || !desc.enumerable) continue;
      const k = toUSV(key), v = toUSV(init[key]);
      if (k in seen) {
        st.list[seen[k]] = v;
      } else {
        seen[k] = st.list.length + 1;
        push(st.list, k);
        push(st.list, v);
      }
    }
  }
}

function URLSearchParams() {
  const init = arguments[0];
  if (new.target === undefined) throw new TypeErrorIntrinsic("Class constructor URLSearchParams cannot be invoked without 'new'");
  const st = { __proto__: null, list: list(), ctx: null };
  fillParams(st, init, this);
  new ParamsBrand(this, st);
}

// findName returns the index of name's first pair at or after i, or -1.
function findName(pairs, name, i) {
  for (; i < pairs.length; i += 2) if (pairs[i] === name) return i;
  return -1;
}

const paramsMethods = {
  append(name, value) {
    const st = paramsState(this);
    if (arguments.length < 2) throw missing("\"name\" and \"value\" arguments");
    name = toUSV(name);
    value = toUSV(value);
    push(st.list, name);
    push(st.list, value);
    update(st);
  },
  delete(name) {
    const st = paramsState(this);
    if (arguments.length < 1) throw missing("\"name\" argument");
    const value = arguments[1];
    name = toUSV(name);
    const v = value === undefined ? undefined : toUSV(value);
    const kept = list();
    for (let i = 0; i < st.list.length; i += 2) {
      if (st.list[i] === name && (v === undefined || st.list[i + 1] === v)) continue;
      push(kept, st.list[i]);
      push(kept, st.list[i + 1]);
    }
    st.list = kept;
    update(st);
  },
  get(name) {
    const st = paramsState(this);
    if (arguments.length < 1) throw missing("\"name\" argument");
    name = toUSV(name);
    const i = findName(st.list, name, 0);
    return i < 0 ? null : st.list[i + 1];
  },
  getAll(name) {
    const st = paramsState(this);
    if (arguments.length < 1) throw missing("\"name\" argument");
    name = toUSV(name);
    const out = [];
    let n = 0;
    for (let i = findName(st.list, name, 0); i >= 0; i = findName(st.list, name, i + 2)) {
      defineProperty(out, n++, { value: st.list[i + 1], writable: true, enumerable: true, configurable: true });
    }
    return out;
  },
  has(name) {
    const st = paramsState(this);
    if (arguments.length < 1) throw missing("\"name\" argument");
    const value = arguments[1];
    name = toUSV(name);
    const v = value === undefined ? undefined : toUSV(value);
    for (let i = findName(st.list, name, 0); i >= 0; i = findName(st.list, name, i + 2)) {
      if (v === undefined || st.list[i + 1] === v) return true;
    }
    return false;
  },
  set(name, value) {
    const st = paramsState(this);
    if (arguments.length < 2) throw missing("\"name\" and \"value\" arguments");
    name = toUSV(name);
    value = toUSV(value);
    const first = findName(st.list, name, 0);
    if (first < 0) {
      push(st.list, name);
      push(st.list, value);
    } else {
      const kept = list();
      for (let i = 0; i < st.list.length; i += 2) {
        if (i === first) { push(kept, name); push(kept, value); continue; }
        if (st.list[i] === name) continue;
        push(kept, st.list[i]);
        push(kept, st.list[i + 1]);
      }
      st.list = kept;
    }
    update(st);
  },
  sort() {
    const st = paramsState(this);
    st.list = sortPairs(st.list);
    update(st);
  },
  entries() { return makeIterator(paramsState(this), "entries"); },
  forEach(callback) {
    const st = paramsState(this);
    if (typeof callback !== "function") {
      throw nodeError("The \"callback\" argument must be of type function. Received " + describeReceived(callback), "ERR_INVALID_ARG_TYPE");
    }
    const thisArg = arguments[1];
    for (let i = 0; i < st.list.length; i += 2) {
      apply(callback, thisArg, [st.list[i + 1], st.list[i], this]);
    }
  },
  keys() { return makeIterator(paramsState(this), "keys"); },
  values() { return makeIterator(paramsState(this), "values"); },
  toString() { return serializeForm(paramsState(this).list); },
};

// sortPairs sorts a flat list of pairs by name, comparing code units
// (as < does), keeping pairs with equal names in order: a bottom-up
// merge sort, so 100,000 pairs take n log n steps.
function sortPairs(a) {
  const n = a.length / 2;
  let from = list(), to = list();
  for (let i = 0; i < n; i++) from[i] = i;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) to[k++] = a[2 * from[j]] < a[2 * from[i]] ? from[j++] : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    const t = from; from = to; to = t;
  }
  const out = list();
  for (let i = 0; i < n; i++) { out[2 * i] = a[2 * from[i]]; out[2 * i + 1] = a[2 * from[i] + 1]; }
  return out;
}

// describeReceived is the tail of Node's ERR_INVALID_ARG_TYPE message.
function describeReceived(v) {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (typeof v === "function") return "function " + v.name;
  if (typeof v === "object") {
    const ctor = v.constructor;
    return ctor !== undefined && ctor !== null && ctor.name ? "an instance of " + ctor.name : "an object";
  }
  let shown = typeof v === "string" ? "'" + v + "'" : typeof v === "symbol" ? "Symbol()" : StringIntrinsic(v);
  if (typeof v === "bigint") shown += "n";
  if (shown.length > 28) shown = slice(shown, 0, 25) + "...";
  return "type " + typeof v + " (" + shown + ")";
}

// The iterators keys, values, entries and [Symbol.iterator] return read
// the list as it is when next is called, as Node's do.
const paramsIteratorPrototype = objectCreate(IteratorPrototype);
function makeIterator(st, kind) {
  const it = objectCreate(paramsIteratorPrototype);
  new IteratorBrand(it, { __proto__: null, st: st, kind: kind, index: 0 });
  return it;
}
const iteratorNext = ({
  next() {
    const it = IteratorBrand.get(this);
    if (it === undefined) throw nodeError("Value of \"this\" must be of type URLSearchParamsIterator", "ERR_INVALID_THIS");
    const a = it.st.list;
    if (it.index >= a.length) return { value: undefined, done: true };
    const i = it.index;
    it.index += 2;
    if (it.kind === "keys") return { value: a[i], done: false };
    if (it.kind === "values") return { value: a[i + 1], done: false };
    return { value: [a[i], a[i + 1]], done: false };
  },
}.next);
defineProperty(paramsIteratorPrototype, "next", { value: iteratorNext, writable: true, enumerable: true, configurable: true });
defineProperty(paramsIteratorPrototype, toStringTagSymbol, { value: "URLSearchParams Iterator", writable: false, enumerable: false, configurable: true });

// ---- URL ----

function urlState(o) {
  const st = URLBrand.get(o);
  if (st === undefined) throw new TypeErrorIntrinsic("Receiver must be an instance of class URL");
  return st;
}
function invalidURL(input, base, hasBase) {
  const e = nodeError("Invalid URL", "ERR_INVALID_URL");
  defineProperty(e, "input", { value: input, writable: true, enumerable: true, configurable: true });
  if (hasBase) defineProperty(e, "base", { value: base, writable: true, enumerable: true, configurable: true });
  return e;
}
// parseWithBase parses input against base (a string or undefined): the
// record or null.
function parseWithBase(input, base) {
  let baseRecord = null;
  if (base !== undefined) {
    baseRecord = basicParse(base, null);
    if (baseRecord === null) return null;
  }
  return basicParse(input, baseRecord);
}

function URL(input) {
  if (new.target === undefined) throw new TypeErrorIntrinsic("Class constructor URL cannot be invoked without 'new'");
  if (arguments.length === 0) throw missing("\"url\" argument");
  let base = arguments[1];
  input = toUSV(input);
  if (base !== undefined) base = toUSV(base);
  const rec = parseWithBase(input, base);
  if (rec === null) throw invalidURL(input, base, base !== undefined);
  new URLBrand(this, { __proto__: null, url: rec, params: null, paramsObject: null });
}

// A setter works as Node's: on the URL as it was before the value was
// converted (a toString that changes the URL is overwritten), and the
// searchParams are parsed again from the result of the search and href
// setters only (so, as in Node, what a toString appended to them stays
// there when another setter overwrites the URL).
function copyRecord(u) {
  const c = newRecord();
  c.scheme = u.scheme; c.username = u.username; c.password = u.password; c.host = u.host; c.port = u.port;
  c.opaque = u.opaque; c.path = u.opaque ? u.path : copyList(u.path); c.query = u.query; c.fragment = u.fragment;
  return c;
}
function commit(st, u, resync) {
  st.url = u;
  if (resync) paramsFollow(st);
}

// paramsFollow is what a URL's query change does to its searchParams.
function paramsFollow(st) {
  if (st.params !== null) st.params.list = parseForm(st.url.query === null ? "" : st.url.query);
}

const urlAccessors = {
  get href() { return serialize(urlState(this).url, false); },
  set href(v) {
    const st = urlState(this);
    v = toUSV(v);
    const rec = basicParse(v, null);
    if (rec === null) throw invalidURL(v, undefined, false);
    commit(st, rec, true);
  },
  get origin() { return origin(urlState(this).url); },
  get protocol() { return urlState(this).url.scheme + ":"; },
  set protocol(v) {
    const st = urlState(this), u = copyRecord(st.url);
    basicParse(toUSV(v) + ":", null, u, SCHEME_START);
    commit(st, u, false);
  },
  get username() { return urlState(this).url.username; },
  set username(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (u.host === null || u.host === "" || u.scheme === "file") return;
    u.username = encode(v, USERINFO_SET, false);
    commit(st, u, false);
  },
  get password() { return urlState(this).url.password; },
  set password(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (u.host === null || u.host === "" || u.scheme === "file") return;
    u.password = encode(v, USERINFO_SET, false);
    commit(st, u, false);
  },
  get host() {
    const u = urlState(this).url;
    if (u.host === null) return "";
    return u.port === null ? u.host : u.host + ":" + StringIntrinsic(u.port);
  },
  set host(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (u.opaque) return;
    basicParse(v, null, u, HOST);
    commit(st, u, false);
  },
  get hostname() { const u = urlState(this).url; return u.host === null ? "" : u.host; },
  set hostname(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (u.opaque) return;
    basicParse(v, null, u, HOSTNAME);
    commit(st, u, false);
  },
  get port() { const u = urlState(this).url; return u.port === null ? "" : StringIntrinsic(u.port); },
  set port(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (u.host === null || u.host === "" || u.scheme === "file") return;
    if (v === "") u.port = null;
    else basicParse(v, null, u, PORT);
    commit(st, u, false);
  },
  get pathname() { return serializePath(urlState(this).url); },
  set pathname(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (u.opaque) return;
    u.path = list();
    basicParse(v, null, u, PATH_START);
    commit(st, u, false);
  },
  get search() { const q = urlState(this).url.query; return q === null || q === "" ? "" : "?" + q; },
  set search(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (v === "") {
      u.query = null;
      stripTrailingSpaces(u);
    } else {
      if (v[0] === "?") v = slice(v, 1, v.length);
      u.query = "";
      basicParse(v, null, u, QUERY);
    }
    commit(st, u, true);
  },
  get searchParams() {
    const st = urlState(this);
    if (st.params === null) {
      const params = new URLSearchParams();
      const pst = ParamsBrand.get(params);
      pst.ctx = st;
      st.params = pst;
      st.paramsObject = params;
      paramsFollow(st);
    }
    return st.paramsObject;
  },
  get hash() { const f = urlState(this).url.fragment; return f === null || f === "" ? "" : "#" + f; },
  set hash(v) {
    const st = urlState(this), u = copyRecord(st.url);
    v = toUSV(v);
    if (v === "") {
      u.fragment = null;
      stripTrailingSpaces(u);
    } else {
      if (v[0] === "#") v = slice(v, 1, v.length);
      u.fragment = "";
      basicParse(v, null, u, FRAGMENT);
    }
    commit(st, u, false);
  },
};

// ---- The globals ----

// The methods and accessors are the object-literal functions themselves
// (they use this, which builtin's binding would fix): named as Node's,
// no constructors, and closed over nothing but this file's parser.
function method(obj, name, fn, enumerable) {
  defineProperty(obj, name, { value: fn, writable: true, enumerable: enumerable, configurable: true });
}
function tag(obj, name) {
  defineProperty(obj, toStringTagSymbol, { value: name, writable: false, enumerable: false, configurable: true });
}

const urlPrototype = URL.prototype;
const urlMethods = {
  toString() { return serialize(urlState(this).url, false); },
  toJSON() { return serialize(urlState(this).url, false); },
};
method(urlPrototype, "toString", urlMethods.toString, true);
const urlNames = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port",
  "pathname", "search", "searchParams", "hash"];
for (let i = 0; i < urlNames.length; i++) {
  const name = urlNames[i];
  const d = getOwnPropertyDescriptorU(urlAccessors, name);
  defineProperty(urlPrototype, name, {
    get: d.get,
    set: d.set,
    enumerable: true, configurable: true,
  });
}
method(urlPrototype, "toJSON", urlMethods.toJSON, true);
tag(urlPrototype, "URL");
defineProperty(URL, "prototype", { writable: false });

const urlStatics = {
  canParse(input) {
    if (arguments.length === 0) throw missing("\"url\" argument");
    let base = arguments[1];
    input = toUSV(input);
    if (base !== undefined) base = toUSV(base);
    return parseWithBase(input, base) !== null;
  },
  parse(input) {
    if (arguments.length === 0) throw missing("\"url\" argument");
    const base = arguments[1];
    try {
      return new URL(input, base);
    } catch (e) {
      if (e !== null && typeof e === "object" && e.code === "ERR_INVALID_URL") return null;
      throw e;
    }
  },
};
method(URL, "parse", urlStatics.parse, true);
method(URL, "canParse", urlStatics.canParse, true);

const paramsPrototype = URLSearchParams.prototype;
const sizeGetter = getOwnPropertyDescriptorU({ get size() { return paramsState(this).list.length / 2; } }, "size").get;
defineProperty(paramsPrototype, "size", { get: sizeGetter, set: undefined, enumerable: true, configurable: true });
const paramsNames = ["append", "delete", "get", "getAll", "has", "set", "sort", "entries", "forEach", "keys", "values", "toString"];
for (let i = 0; i < paramsNames.length; i++) method(paramsPrototype, paramsNames[i], paramsMethods[paramsNames[i]], true);
tag(paramsPrototype, "URLSearchParams");
defineProperty(paramsPrototype, iteratorSymbol, { value: paramsPrototype.entries, writable: true, enumerable: false, configurable: true });
defineProperty(URLSearchParams, "prototype", { writable: false });

defineGlobal("URL", URL, false);
defineGlobal("URLSearchParams", URLSearchParams, false);
