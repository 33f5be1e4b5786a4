// Clean up pasted text: unify newlines, collapse spaces (including NBSP
// and other Unicode spaces), strip zero-width characters, trim lines.
const clean = (s) => s
  .replace(/\r\n?/g, "\n")
  .replace(/[\u200b-\u200d\ufeff]/g, "")
  .replace(/[^\S\n]+/g, " ")
  .split("\n").map((l) => l.trim()).join("\n")
  .replace(/\n{3,}/g, "\n\n")
  .trim();
return input.map((s) => ({ cleaned: clean(s), words: clean(s).split(/\s+/).filter(Boolean).length, trimmedStart: s.trimStart().length, trimmedEnd: s.trimEnd().length }));
