// Sign an API request the AWS-style way: canonical query string, payload
// hash with sha256, HMAC chain over the date, region and service.
const enc = new TextEncoder();
const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
const hmac = async (key, msg) => crypto.subtle.sign("HMAC", await crypto.subtle.importKey("raw", typeof key === "string" ? enc.encode(key) : key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]), enc.encode(msg));
const { method, path, query, body, date, region, service, secret } = input;
const canonicalQuery = Object.keys(query).sort().map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(query[k])}`).join("&");
const canonical = [method, path, canonicalQuery, `host:${input.host}`, "", "host", sha256(body)].join("\n");
const scope = `${date.slice(0, 8)}/${region}/${service}/aws4_request`;
const toSign = ["AWS4-HMAC-SHA256", date, scope, sha256(canonical)].join("\n");
let k = await hmac("AWS4" + secret, date.slice(0, 8));
for (const part of [region, service, "aws4_request"]) k = await hmac(k, part);
const signature = hex(await hmac(k, toSign));
return { canonicalQuery, canonicalHash: sha256(canonical), scope, signature };
