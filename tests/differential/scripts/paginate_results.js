// Paginate a result set the way an API handler would, with cursor links.
const { items, page = 1, pageSize = 10 } = input;
const total = items.length;
const totalPages = Math.max(1, Math.ceil(total / pageSize));
const current = Math.min(Math.max(1, Math.floor(page)), totalPages);
const start = (current - 1) * pageSize;
const pages = [];
for (let p = 1; p <= totalPages; p++) {
  if (p === 1 || p === totalPages || Math.abs(p - current) <= 1) pages.push(p);
  else if (pages[pages.length - 1] !== "…") pages.push("…");
}
return {
  data: items.slice(start, start + pageSize),
  meta: { total, page: current, pageSize, totalPages, hasNext: current < totalPages, hasPrev: current > 1 },
  pages,
  range: total ? `${start + 1}-${Math.min(start + pageSize, total)} of ${total}` : "0 of 0",
};
