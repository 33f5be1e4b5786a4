// Extract hashtags in any script with Unicode property escapes, and
// classify characters.
const text = "Loving #café and #東京 trips! #2024 #über_cool #naïve-ish #Привет, not a#tag.";
const tags = [...text.matchAll(/(?<![\p{L}\p{N}_])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu)].map((m) => m[1].toLowerCase());
const classes = [..."aÉ9٣_ 東😀"].map((c) => ({
  c,
  letter: /\p{L}/u.test(c),
  upper: /\p{Lu}/u.test(c),
  digit: /\p{Nd}/u.test(c),
  han: /\p{Script=Han}/u.test(c),
  emoji: /\p{Extended_Pictographic}/u.test(c),
}));
return { tags, classes };
