// String replacement with callbacks, special patterns and replaceAll.
const s = "2024-03-10 and 1999-12-31; total: $1,234.50 + $99";
return {
  dmy: s.replace(/(\d{4})-(\d{2})-(\d{2})/g, "$3/$2/$1"),
  named: s.replace(/(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})/, "$<d>.$<m>.$<y>"),
  dollars: s.replace(/\$([\d,]+(?:\.\d+)?)/g, (_, n) => `${(parseFloat(n.replace(/,/g, "")) * 0.9).toFixed(2)} EUR`),
  all: "a.b.c".replaceAll(".", "/"),
  allFn: "x-y-z".replaceAll("-", (m, off) => `[${off}]`),
  special: "price".replace("price", "$$5 $& $` $'"),
  split: "a1b22c333d".split(/\d+/),
  splitKeep: "a1b22c".split(/(\d+)/),
  splitLimit: "a,b,c,d".split(",", 2),
};
