// expect: ok
// value: ["RangeError",true,"RangeError","Invalid Date",true]
// category: resource
// source: original (a 1 MiB time zone name is refused as an unknown zone, as Node refuses it, without the host parsing more than a lookup; formatting a million dates in a loop is bounded by the deadline elsewhere: resource/intl_format_loop)
const out = [];
try { new Intl.DateTimeFormat("en-US", { timeZone: "Europe/" + "x".repeat(1 << 20) }); } catch (e) { out.push(e.name, e.message.length > 1000); }
try { new Intl.DateTimeFormat("en-US").format(8.64e15 + 1); } catch (e) { out.push(e.name); }
out.push(new Date(NaN).toLocaleString("de-DE"));
// Every zone Node knows by this name resolves; their formatters are cached, bounded.
let n = 0;
for (const z of ["America/New_York", "Asia/Tokyo", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns"]) {
  for (let i = 0; i < 50; i++) n += new Date(Date.UTC(2024, i % 12, 1)).toLocaleString("en-US", { timeZone: z }).length > 0 ? 1 : 0;
}
out.push(n === 300);
return out;
