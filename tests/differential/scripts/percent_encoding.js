// Percent-encoding with the ECMAScript functions: what each escapes,
// decoding errors, and building a query string by hand.
const s = "a b&c=d/e?f#g+h~i'j(k)*l!m€😀";
const qs = (o) => Object.entries(o).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
const errors = ["%", "%E0%A4%A", "%FF", "\ud800"].map((x) => { try { return decodeURIComponent(x); } catch (e) { return e.name; } });
let encErr;
try { encodeURIComponent("\ud800"); } catch (e) { encErr = e.name; }
return {
  component: encodeURIComponent(s),
  uri: encodeURI("https://x.org/a b/" + s),
  decoded: decodeURIComponent(encodeURIComponent(s)) === s,
  decodeURI: decodeURI("%3Fa%20b%2F"),
  qs: qs({ name: "Zoë O'Neil", "tags[]": "x,y", empty: "" }),
  escape: [escape("é ü+"), unescape("%E9%20%u00FC")],
  errors,
  encErr,
};
