// expect: ResourceError/memory | TimeoutError
// category: resource
// memory: 8MiB
// timeout: 5s
// source: original (Intl.Segmenter over ever longer strings, every segment kept: the boundaries come back from the host as text the guest holds, and the segment objects are the guest's, so both count against its limit; the host's copy of the string is bounded by the 16 MiB argument cap)
const s = new Intl.Segmenter("en", { granularity: "word" });
let text = "Hello, wörld! 👨‍👩‍👧 क्षत्रिय ";
const kept = [];
for (;;) {
  text = text + text;
  for (const seg of s.segment(text)) kept.push(seg);
}
