// Tagged templates: a SQL builder that turns interpolations into
// placeholders, an HTML escaper, and String.raw for regex sources.
const sql = (strings, ...values) => ({ text: strings.reduce((q, s, i) => q + "$" + i + s), values });
const html = (strings, ...values) => strings.reduce((out, s, i) => out + String(values[i - 1]).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`) + s);
const user = { id: 7, name: "O'Brien <script>" };
const q = sql`SELECT * FROM users WHERE id = ${user.id} AND name = ${user.name} LIMIT ${10}`;
const tag = (s, ...v) => [s, s.raw, v];
return {
  q,
  html: html`<p title="${user.name}">${user.id}</p>`,
  raw: String.raw`C:\new\table ${1 + 1}`,
  rawRegex: new RegExp(String.raw`^\d+\.\d{2}$`).test("12.50"),
  parts: tag`a${1}b\n${2}`,
  frozen: (() => { let s; ((x) => { s = x; })`x`; return Object.isFrozen(s); })(),
};
