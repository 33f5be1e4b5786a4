// Loan amortisation and compound interest, rounded to cents.
const { principal, annualRate, years } = input;
const r = annualRate / 12, n = years * 12;
const payment = (principal * r) / (1 - Math.pow(1 + r, -n));
let balance = principal, totalInterest = 0;
const firstRows = [];
for (let k = 1; k <= n; k++) {
  const interest = Math.round(balance * r * 100) / 100;
  const princ = Math.round((payment - interest) * 100) / 100;
  balance = Math.round((balance - princ) * 100) / 100;
  totalInterest += interest;
  if (k <= 3 || k === n) firstRows.push({ k, interest, princ, balance });
}
return {
  payment: payment.toFixed(2),
  totalInterest: totalInterest.toFixed(2),
  rows: firstRows,
  compound: [1, 5, 10, 30].map((y) => (1000 * Math.pow(1 + annualRate / 12, 12 * y)).toFixed(2)),
  continuous: (1000 * Math.exp(annualRate * 10)).toFixed(2),
  doubling: +(Math.log(2) / Math.log(1 + annualRate)).toFixed(3),
};
