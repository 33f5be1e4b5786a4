// The Date methods whose output formats scripts log and return.
const d = new Date(Date.UTC(2024, 2, 5, 9, 7, 3, 42));
return {
  iso: d.toISOString(),
  json: JSON.stringify({ d }),
  utc: d.toUTCString(),
  str: d.toString(),
  date: d.toDateString(),
  time: d.toTimeString(),
  offset: d.getTimezoneOffset(),
  local: [d.getHours(), d.getDate(), d.getDay()],
  invalid: String(new Date("nope")),
  invalidJSON: JSON.stringify(new Date(NaN)),
};
