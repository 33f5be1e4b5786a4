// Parse an application/x-www-form-urlencoded webhook body into an object,
// nesting bracketed keys (items[0][sku]=...), as Slack and Twilio send.
const params = new URLSearchParams(input.body);
const out = {};
for (const [key, value] of params) {
  const parts = key.split(/\[|\]\[|\]/).filter(Boolean);
  let cur = out;
  parts.forEach((p, i) => {
    if (i === parts.length - 1) {
      if (p in cur) cur[p] = [].concat(cur[p], value);
      else cur[p] = value;
    } else {
      cur = cur[p] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
    }
  });
}
if (out.payload) out.payload = JSON.parse(out.payload);
return out;
