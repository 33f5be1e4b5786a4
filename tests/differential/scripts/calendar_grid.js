// A month calendar grid (weeks starting Monday), as a text widget renders it.
function grid(year, month) {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells = [...Array(lead).fill("  "), ...Array.from({ length: days }, (_, i) => String(i + 1).padStart(2))];
  while (cells.length % 7) cells.push("  ");
  const weeks = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7).join(" "));
  return ["Mo Tu We Th Fr Sa Su", ...weeks];
}
return { feb2024: grid(2024, 2), sep2025: grid(2025, 9) };
