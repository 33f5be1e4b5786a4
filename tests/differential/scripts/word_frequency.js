// Top words in a text, ignoring stop words and case; ties broken by word.
const stop = new Set(["the", "a", "an", "and", "of", "to", "in", "is", "it", "that"]);
const words = input.text.toLowerCase().match(/[a-z']+/g) ?? [];
const counts = new Map();
for (const w of words) {
  const word = w.replace(/^'+|'+$/g, "");
  if (!word || stop.has(word)) continue;
  counts.set(word, (counts.get(word) ?? 0) + 1);
}
const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8);
return { distinct: counts.size, total: words.length, top: Object.fromEntries(top) };
