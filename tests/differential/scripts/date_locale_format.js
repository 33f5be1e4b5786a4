// Intl-based date and number formatting, the usual first reach of generated code.
const d = new Date(Date.UTC(2024, 2, 5, 9, 7, 3));
return {
  date: d.toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }),
  time: d.toLocaleTimeString("en-US", { timeZone: "UTC" }),
  num: (1234567.891).toLocaleString("en-US"),
  eur: new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(1234.5),
};
