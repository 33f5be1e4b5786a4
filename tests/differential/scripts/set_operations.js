// Set algebra on tag lists, by hand (Node 20 has no Set.prototype.union).
const a = new Set(input.a), b = new Set(input.b);
const union = new Set([...a, ...b]);
const inter = [...a].filter((x) => b.has(x));
const diff = [...a].filter((x) => !b.has(x));
const sym = [...union].filter((x) => a.has(x) !== b.has(x));
const jaccard = inter.length / union.size;
return { union: [...union], inter, diff, sym, jaccard: Number(jaccard.toFixed(4)), subset: [...a].every((x) => b.has(x)) };
