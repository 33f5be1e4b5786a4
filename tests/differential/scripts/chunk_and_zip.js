// Chunk, zip, transpose and partition: the array helpers every generated
// utility module starts with.
const chunk = (arr, n) => Array.from({ length: Math.ceil(arr.length / n) }, (_, i) => arr.slice(i * n, i * n + n));
const zip = (...arrays) => Array.from({ length: Math.max(...arrays.map((a) => a.length)) }, (_, i) => arrays.map((a) => a[i] ?? null));
const transpose = (m) => m[0].map((_, c) => m.map((r) => r[c]));
const partition = (arr, pred) => arr.reduce((acc, x) => (acc[pred(x) ? 0 : 1].push(x), acc), [[], []]);
const nums = Array.from({ length: 11 }, (_, i) => i * 3);
return {
  chunks: chunk(nums, 4),
  zipped: zip(["a", "b", "c"], [1, 2], [true]),
  transposed: transpose([[1, 2, 3], [4, 5, 6]]),
  evensOdds: partition(nums, (n) => n % 2 === 0),
  range: [...Array(5).keys()],
};
