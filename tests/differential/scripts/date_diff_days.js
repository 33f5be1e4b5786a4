// Days between ISO dates, overdue invoices against a fixed "today".
const DAY = 86400000;
const today = Date.parse(input.today + "T00:00:00Z");
return input.invoices.map((inv) => {
  const due = new Date(inv.due);
  const days = Math.floor((today - due.getTime()) / DAY);
  return { id: inv.id, due: due.toISOString(), daysOverdue: Math.max(0, days), status: days > 30 ? "collections" : days > 0 ? "overdue" : "ok" };
});
