// Pull emails, URLs, phone numbers and @mentions out of free text.
const text = input;
const emails = [...new Set(text.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [])].map((e) => e.toLowerCase());
const urls = (text.match(/https?:\/\/[^\s)<>"']+/g) ?? []).map((u) => u.replace(/[.,;:!?]+$/, ""));
const phones = [...text.matchAll(/(?:\+?1[ -.]?)?\(?(\d{3})\)?[ -.]?(\d{3})[ -.]?(\d{4})\b/g)].map((m) => `${m[1]}-${m[2]}-${m[3]}`);
const mentions = [...text.matchAll(/(?<![\w@])@([A-Za-z_]\w{1,14})\b/g)].map((m) => m[1]);
return { emails, urls, phones, mentions };
