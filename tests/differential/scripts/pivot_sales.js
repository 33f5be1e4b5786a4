// Pivot rows of {month, region, amount} into a month x region table with
// row and column totals.
const rows = input;
const months = [...new Set(rows.map((r) => r.month))].sort();
const regions = [...new Set(rows.map((r) => r.region))].sort();
const table = {};
for (const m of months) table[m] = Object.fromEntries(regions.map((r) => [r, 0]));
for (const { month, region, amount } of rows) table[month][region] += amount;
const colTotals = Object.fromEntries(regions.map((r) => [r, months.reduce((s, m) => s + table[m][r], 0)]));
const result = months.map((m) => ({ month: m, ...table[m], total: Object.values(table[m]).reduce((a, b) => a + b, 0) }));
result.push({ month: "TOTAL", ...colTotals, total: Object.values(colTotals).reduce((a, b) => a + b, 0) });
return result;
