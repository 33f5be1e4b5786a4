// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (formatToParts and toLocaleString in an endless loop end at the deadline: every call returns to the guest, where the interrupt is polled)
const nf = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR", notation: "compact" });
let n = 0;
for (let i = 0; ; i++) {
  n += nf.formatToParts(i * 1.5).length;
  n += (i).toLocaleString("ja-JP").length;
}
