// Debounce and throttle with setTimeout, driven by a scripted sequence of
// calls (spaced by short sleeps).
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function debounce(fn, ms) { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); }; }
function throttle(fn, ms) { let waiting = false, last; return (...a) => { if (waiting) { last = a; return; } fn(...a); waiting = true; setTimeout(() => { waiting = false; if (last) { const l = last; last = undefined; fn(...l); } }, ms); }; }
const debounced = [], throttled = [];
const d = debounce((x) => debounced.push(x), 100);
const th = throttle((x) => throttled.push(x), 150);
for (const x of ["a", "b", "c"]) { d(x); th(x); await sleep(2); }
await sleep(300);
d("d"); th("d");
await sleep(350);
return { debounced, throttled };
