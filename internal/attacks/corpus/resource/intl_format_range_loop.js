// expect: TimeoutError
// category: resource
// timeout: 1s
// source: original (formatRange and formatRangeToParts of numbers and dates in a loop that never ends: each call is a host call, and the deadline stops the loop between them)
const nf = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" });
const dtf = new Intl.DateTimeFormat("ja-JP", { dateStyle: "long", timeStyle: "short", timeZone: "Asia/Tokyo" });
const pr = new Intl.PluralRules("ru");
for (let i = 0; ; i++) {
  nf.formatRangeToParts(-i, i * 1.5);
  dtf.formatRange(i * 1e6, i * 3e7);
  pr.selectRange(i, i + 2);
}
