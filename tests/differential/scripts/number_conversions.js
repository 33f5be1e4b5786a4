// Number parsing and printing: radix, parseInt/parseFloat quirks, Number(),
// shortest round-trip output.
return {
  radix: [255, -255, 0.5, 3.75].map((n) => [n.toString(2), n.toString(16), n.toString(36)]),
  parseInt: ["42px", "0x1f", "  12  ", "1e3", "", "08", "-0", "12.9"].map((s) => parseInt(s)),
  parseInt2: [parseInt("101", 2), parseInt("z", 36), parseInt("ff", 16), parseInt("9", 8)],
  parseFloat: ["3.14abc", ".5", "-.5e-3", "Infinity", "1e400", "0x10"].map((s) => parseFloat(s)).map(String),
  Number: ["", " ", "12px", "0b101", "0o17", "1_000", "1e-7", null, "\n42\t"].map((s) => String(Number(s))),
  strings: [0.1 + 0.2, 1 / 3, 2 ** 53, 2 ** 70, 1e-7, 123e-20, -0, 5e-324, 1.7976931348623157e308].map(String),
  fixedBig: (1e21).toFixed(2),
  precision: [(123.456).toPrecision(4), (0.00001).toPrecision(1), (1e21).toPrecision(3)],
  checks: [Number.isInteger(5.0), Number.isSafeInteger(2 ** 53), Object.is(-0, 0), Math.sign(-0) === 0, isNaN("abc"), Number.isNaN("abc")],
};
