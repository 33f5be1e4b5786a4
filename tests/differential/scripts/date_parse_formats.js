// What Date.parse makes of the date strings found in real data.
const inputs = ["2024-03-10", "2024-03-10T12:00", "2024-03-10T12:00:00Z", "2024-03-10T12:00:00.123+05:30", "2024-03-10 12:00:00",
  "March 10, 2024", "10 Mar 2024 12:00:00 GMT", "Sun, 10 Mar 2024 12:00:00 GMT", "2024/03/10", "03/10/2024", "not a date", "2024-13-01", "+010000-01-01T00:00:00Z"];
return inputs.map((s) => { const t = Date.parse(s); return [s, Number.isNaN(t) ? null : new Date(t).toISOString()]; });
