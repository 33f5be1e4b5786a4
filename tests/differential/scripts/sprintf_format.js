// A small printf: %s %d %i %f with precision, %x, %o, %j (JSON), %%,
// width and left-justify flags.
function sprintf(fmt, ...args) {
  let i = 0;
  return fmt.replace(/%(-)?(0)?(\d+)?(?:\.(\d+))?([sdifxXoj%])/g, (m, left, zero, width, prec, conv) => {
    if (conv === "%") return "%";
    const a = args[i++];
    let s;
    switch (conv) {
      case "s": s = String(a); if (prec) s = s.slice(0, +prec); break;
      case "d": case "i": s = String(Math.trunc(Number(a))); break;
      case "f": s = Number(a).toFixed(prec === undefined ? 6 : +prec); break;
      case "x": s = (Number(a) >>> 0).toString(16); break;
      case "X": s = (Number(a) >>> 0).toString(16).toUpperCase(); break;
      case "o": s = (Number(a) >>> 0).toString(8); break;
      case "j": s = JSON.stringify(a); break;
    }
    if (width && s.length < +width) s = left ? s.padEnd(+width) : s.padStart(+width, zero && conv !== "s" ? "0" : " ");
    return s;
  });
}
return [
  sprintf("%s has %d items costing %.2f", "cart", 3.9, 19.995),
  sprintf("[%5s][%-5s][%05d][%x][%X][%o]", "ab", "cd", 42, 255, -1, 8),
  sprintf("%j and %.3s and 100%%", { a: [1, "x"] }, "truncate"),
  sprintf("%f %.0f %.1f %08.3f", Math.PI, 2.5, 0.05, -3.14159),
];
