// Generates node-table.json: Intl cases evaluated in Node 20 (full ICU),
// the reference child/engine's TestIntlNodeTable holds Warden to, byte
// for byte. Run from this directory with `TZ=UTC node gen-table.js`; commit the
// output with the Node version it names. Each case is a JavaScript
// expression; its outcome is its value (JSON) or its error's name and
// message.
"use strict";
const fs = require("fs");
// Warden's guest runs in UTC: so must the Node that makes the table.
if (new Intl.DateTimeFormat().resolvedOptions().timeZone !== "UTC") {
  throw new Error("run gen-table.js with TZ=UTC");
}

const locales = ["en-US", "en-GB", "en-IN", "de-DE", "fr-FR", "es-ES", "es-MX", "it-IT", "pt-BR", "nl-NL",
  "sv-SE", "pl-PL", "ru-RU", "tr-TR", "ar-EG", "hi-IN", "ja-JP", "zh-CN", "zh-TW", "ko-KR"];
const values = ["0", "-0", "1", "-1", "1.5", "0.001", "1234.5678", "-1234.5678", "1e21", "1e-7", "123456789.987",
  "NaN", "Infinity", "-Infinity", "999999.5", "0.5", "2.5", "1.005", "12345678901234567890n", "-98765n"];
const someValues = ["0", "-1234.5678", "1234567.891", "0.5", "999999.5", "12345678901234567890n"];
const options = [
  {}, { style: "percent" }, { style: "currency", currency: "USD" }, { style: "currency", currency: "EUR", currencyDisplay: "code" },
  { style: "currency", currency: "JPY", currencyDisplay: "name" }, { style: "currency", currency: "EUR", currencySign: "accounting" },
  { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol" }, { style: "currency", currency: "GBP", notation: "compact" },
  { notation: "compact" }, { notation: "compact", compactDisplay: "long" }, { notation: "scientific" }, { notation: "engineering" },
  { maximumSignificantDigits: 3 }, { minimumFractionDigits: 2 }, { maximumFractionDigits: 0 },
  { signDisplay: "always" }, { signDisplay: "exceptZero" }, { signDisplay: "never" }, { signDisplay: "negative" },
  { useGrouping: false }, { useGrouping: "min2" }, { useGrouping: "always" },
  { maximumFractionDigits: 0, roundingMode: "halfEven" }, { maximumFractionDigits: 0, roundingMode: "ceil" },
  { maximumFractionDigits: 0, roundingMode: "floor" }, { maximumFractionDigits: 0, roundingMode: "trunc" },
  { maximumFractionDigits: 0, roundingMode: "halfTrunc" }, { minimumFractionDigits: 2, trailingZeroDisplay: "stripIfInteger" },
  { maximumSignificantDigits: 2, maximumFractionDigits: 2, roundingPriority: "morePrecision" },
  { maximumSignificantDigits: 2, maximumFractionDigits: 2, roundingPriority: "lessPrecision" },
  { minimumIntegerDigits: 3 }, { maximumFractionDigits: 2, roundingIncrement: 5 }, { minimumSignificantDigits: 4 },
];
const cases = [];
const lit = (v) => JSON.stringify(v);
for (const l of locales) {
  for (const o of options) {
    const vs = l === "en-US" ? values : someValues;
    for (const v of vs) cases.push(`new Intl.NumberFormat(${lit(l)}, ${lit(o)}).format(${v})`);
  }
  cases.push(`new Intl.NumberFormat(${lit(l)}).resolvedOptions()`);
  cases.push(`new Intl.NumberFormat(${lit(l)}, {style: "currency", currency: "EUR"}).formatToParts(-1234.5)`);
  cases.push(`new Intl.NumberFormat(${lit(l)}, {notation: "compact", compactDisplay: "long"}).formatToParts(1234567)`);
  cases.push(`new Intl.PluralRules(${lit(l)}).resolvedOptions()`);
  cases.push(`new Intl.PluralRules(${lit(l)}, {type: "ordinal"}).resolvedOptions().pluralCategories`);
  for (const n of [0, 1, 2, 3, 5, 11, 21, 22, 23, 101, 1.5, 0.1]) {
    cases.push(`new Intl.PluralRules(${lit(l)}).select(${n})`);
    cases.push(`new Intl.PluralRules(${lit(l)}, {type: "ordinal"}).select(${n})`);
  }
  cases.push(`new Intl.PluralRules(${lit(l)}, {minimumFractionDigits: 1}).select(1)`);
  cases.push(`(1234.5).toLocaleString(${lit(l)})`);
  cases.push(`(1234.5).toLocaleString(${lit(l)}, {style: "currency", currency: "USD"})`);
  cases.push(`(-0.125).toLocaleString(${lit(l)}, {style: "percent", maximumFractionDigits: 1})`);
  cases.push(`(123456789n).toLocaleString(${lit(l)})`);
}
// Numbering systems, strings as exact decimals, the edges of a Number.
cases.push(
  `new Intl.NumberFormat("ar-EG", {numberingSystem: "latn"}).format(1234.5)`,
  `new Intl.NumberFormat("ar-EG-u-nu-latn").resolvedOptions().locale`,
  `new Intl.NumberFormat("hi-IN", {numberingSystem: "deva"}).format(1234567.5)`,
  `new Intl.NumberFormat("en-US", {numberingSystem: "arab"}).format(-12.5)`,
  `new Intl.NumberFormat("zh-CN", {numberingSystem: "hanidec"}).format(2024)`,
  `new Intl.NumberFormat("en-US").format("1234567890.123456789012345678901234567890")`,
  `new Intl.NumberFormat("en-US", {maximumFractionDigits: 20}).format("0.1")`,
  `new Intl.NumberFormat("en-US").format("  12  ")`, `new Intl.NumberFormat("en-US").format("0x1F")`,
  `new Intl.NumberFormat("en-US").format("abc")`, `new Intl.NumberFormat("en-US").format("")`,
  `new Intl.NumberFormat("en-US").format("-0")`, `new Intl.NumberFormat("en-US").format("1e400")`,
  `new Intl.NumberFormat("en-US").format("1e-400")`, `new Intl.NumberFormat("en-US").format(Number.MAX_VALUE)`,
  `new Intl.NumberFormat("en-US").format(Number.MIN_VALUE)`, `new Intl.NumberFormat("en-US").format(2n ** 200n)`,
  `new Intl.NumberFormat("en-US", {notation: "compact"}).format(1e15)`, `new Intl.NumberFormat("en-US", {notation: "compact"}).format(-999.9)`,
  `new Intl.NumberFormat("en-US", {notation: "scientific"}).format(0)`, `new Intl.NumberFormat("en-US", {notation: "engineering"}).format(0.000123)`,
  `new Intl.NumberFormat("de-DE", {notation: "compact"}).format(999999)`, `new Intl.NumberFormat("ja-JP", {notation: "compact", compactDisplay: "long"}).format(123456789)`,
  `new Intl.NumberFormat("en-US", {style: "currency", currency: "usd"}).resolvedOptions()`,
  `new Intl.NumberFormat("en-US", {style: "currency", currency: "BHD"}).format(1.23456)`,
  `new Intl.NumberFormat("en-US", {style: "currency", currency: "XYZ"}).format(1.5)`,
  `Intl.NumberFormat("en-US").format(1)`, `Intl.NumberFormat.length`, `Intl.PluralRules.length`,
  `Object.prototype.toString.call(Intl)`, `Object.prototype.toString.call(new Intl.PluralRules())`,
);
// Locales: canonical forms, lookup, errors.
for (const t of ["EN-us", "zh-hant-tw", "en-u-nu-latn-ca-gregory", "en-u-kn-true", "iw", "in-ID", "sh", "de-DE-1996",
  "en-x-private", "und", "en-a-bbb-x-a-ccc", "fr-latn-fr", "EN-US-POSIX", "ja-JP-u-ca-japanese"]) {
  cases.push(`Intl.getCanonicalLocales(${lit(t)})`);
}
cases.push(`Intl.getCanonicalLocales(["en-US", "en-us", "EN-US"])`, `Intl.getCanonicalLocales()`,
  `Intl.getCanonicalLocales([])`);
for (const bad of ["en_US", "", "e", "en-", "12-US", "en-US-u", "de-1996-1996", "en-a-x-a"]) {
  cases.push(`Intl.getCanonicalLocales(${lit(bad)})`);
}
cases.push(`Intl.getCanonicalLocales([5])`, `Intl.NumberFormat.supportedLocalesOf(["de-DE", "ja-JP", "en-US"])`,
  `Intl.PluralRules.supportedLocalesOf("ko-KR")`);
// Errors.
cases.push(
  `new Intl.NumberFormat("en", {style: "bogus"})`, `new Intl.NumberFormat("en", {style: "currency"})`,
  `new Intl.NumberFormat("en", {currency: "US"})`, `new Intl.NumberFormat("en", {maximumFractionDigits: 101})`,
  `new Intl.NumberFormat("en", {minimumFractionDigits: 3, maximumFractionDigits: 1})`,
  `new Intl.NumberFormat("en", {numberingSystem: "a"})`, `new Intl.NumberFormat("en", {roundingIncrement: 3})`,
  `new Intl.NumberFormat("en", {useGrouping: "x"})`, `new Intl.NumberFormat("en", {minimumSignificantDigits: 0})`,
  `new Intl.PluralRules("en", {type: "x"})`, `Intl.PluralRules("en")`, `new Intl.NumberFormat("en", null)`,
  `new Intl.NumberFormat("en", {signDisplay: "sometimes"})`, `new Intl.NumberFormat("en", {notation: "short"})`,
);
// DateTimeFormat and Date's locale methods: styles, components, hour
// cycles, time zones across DST, leap days, years before 1900 and BCE.
const dates = ["Date.UTC(2024, 1, 29, 13, 5, 9, 45)", "Date.UTC(2024, 2, 10, 7, 30)", "Date.UTC(1899, 11, 31, 23, 59, 59)",
  "Date.UTC(-50, 0, 1)", "0", "Date.UTC(2024, 10, 3, 5, 30)", "Date.UTC(2025, 11, 31, 23, 0, 0, 999)"];
const someDates = [dates[0], dates[2], dates[5]];
const dateOptions = [
  {}, { dateStyle: "full" }, { dateStyle: "long" }, { dateStyle: "medium" }, { dateStyle: "short" },
  { timeStyle: "full" }, { timeStyle: "long" }, { timeStyle: "medium" }, { timeStyle: "short" },
  { dateStyle: "long", timeStyle: "short" }, { dateStyle: "short", timeStyle: "medium" }, { dateStyle: "full", timeStyle: "full", timeZone: "America/New_York" },
  { year: "numeric", month: "long", day: "numeric" }, { year: "numeric", month: "short", day: "numeric", weekday: "short" },
  { month: "long" }, { month: "short", day: "numeric" }, { year: "numeric", month: "2-digit", day: "2-digit" },
  { year: "2-digit", month: "numeric" }, { weekday: "long" }, { hour: "numeric" }, { hour: "numeric", minute: "2-digit" },
  { hour: "2-digit", minute: "2-digit", second: "2-digit" }, { hour: "numeric", minute: "numeric", hour12: false },
  { hour: "numeric", hour12: true }, { hour: "numeric", minute: "numeric", hourCycle: "h23" }, { minute: "numeric", second: "numeric" },
  { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
  { era: "short", year: "numeric" }, { era: "long", year: "numeric", month: "short", day: "numeric" },
  { timeZone: "Asia/Kolkata", timeZoneName: "shortOffset", hour: "numeric" }, { timeZone: "America/Los_Angeles", timeZoneName: "short", hour: "numeric", minute: "numeric" },
  { timeZone: "Europe/London", timeZoneName: "longOffset" }, { timeZone: "Asia/Tokyo", timeZoneName: "long" },
  { second: "numeric", fractionalSecondDigits: 3 },
];
for (const l of locales) {
  for (const o of dateOptions) {
    const ds = l === "en-US" ? dates : someDates;
    for (const d of ds) cases.push(`new Intl.DateTimeFormat(${lit(l)}, ${lit(o)}).format(${d})`);
  }
  cases.push(`new Intl.DateTimeFormat(${lit(l)}).resolvedOptions()`);
  cases.push(`new Intl.DateTimeFormat(${lit(l)}, {dateStyle: "medium", timeStyle: "short"}).resolvedOptions()`);
  cases.push(`new Intl.DateTimeFormat(${lit(l)}, {hour: "numeric", minute: "numeric"}).resolvedOptions()`);
  cases.push(`new Intl.DateTimeFormat(${lit(l)}, {dateStyle: "full", timeStyle: "long", timeZone: "Europe/Berlin"}).formatToParts(${dates[0]})`);
  cases.push(`new Date(${dates[0]}).toLocaleString(${lit(l)})`);
  cases.push(`new Date(${dates[0]}).toLocaleDateString(${lit(l)})`);
  cases.push(`new Date(${dates[0]}).toLocaleTimeString(${lit(l)})`);
  cases.push(`new Date(${dates[0]}).toLocaleString(${lit(l)}, {timeZone: "Asia/Tokyo"})`);
  cases.push(`new Date(${dates[0]}).toLocaleDateString(${lit(l)}, {weekday: "long", year: "numeric", month: "long", day: "numeric"})`);
}
// Across transitions: New York's DST start and end, Lord Howe's half
// hour, Kathmandu's +5:45, Chatham's +13:45, a zone's LMT before 1883.
for (const [tz, d] of [["America/New_York", "Date.UTC(2024, 2, 10, 6, 59)"], ["America/New_York", "Date.UTC(2024, 2, 10, 7, 0)"],
  ["America/New_York", "Date.UTC(2024, 10, 3, 5, 59)"], ["America/New_York", "Date.UTC(2024, 10, 3, 6, 0)"],
  ["Australia/Lord_Howe", "Date.UTC(2024, 0, 1)"], ["Asia/Kathmandu", "Date.UTC(2024, 0, 1)"], ["Pacific/Chatham", "Date.UTC(2024, 0, 1)"],
  ["America/New_York", "Date.UTC(1850, 0, 1)"], ["Europe/Paris", "Date.UTC(1900, 0, 1)"], ["Asia/Calcutta", "Date.UTC(2024, 5, 1)"],
  ["Etc/GMT+5", "Date.UTC(2024, 5, 1)"], ["UTC", "8.64e15"], ["UTC", "-8.64e15"]]) {
  cases.push(`new Intl.DateTimeFormat("en-US", {timeZone: ${lit(tz)}, dateStyle: "full", timeStyle: "full"}).format(${d})`);
  cases.push(`new Intl.DateTimeFormat("en-US", {timeZone: ${lit(tz)}, timeZoneName: "longOffset", hour: "numeric", minute: "numeric"}).format(${d})`);
  cases.push(`new Intl.DateTimeFormat("de-DE", {timeZone: ${lit(tz)}, timeZoneName: "short", hour: "numeric", minute: "numeric"}).format(${d})`);
}
for (const tz of ["asia/kolkata", "US/Pacific", "etc/utc", "GMT", "Europe/Kiev", "America/Buenos_Aires", "Asia/Saigon", "UTC"]) {
  cases.push(`new Intl.DateTimeFormat("en-US", {timeZone: ${lit(tz)}}).resolvedOptions().timeZone`);
}
cases.push(
  `new Intl.DateTimeFormat("en", {timeZone: "Foo/Bar"})`, `new Intl.DateTimeFormat("en", {timeZone: "+05:30"})`,
  `new Intl.DateTimeFormat("en", {dateStyle: "short", hour: "numeric"})`, `new Intl.DateTimeFormat("en").format(NaN)`,
  `new Intl.DateTimeFormat("en").format(8.64e15 + 1)`, `new Date(NaN).toLocaleString()`, `new Date(NaN).toLocaleDateString("de-DE")`,
  `new Intl.DateTimeFormat("en", {month: "bogus"})`, `new Intl.DateTimeFormat("en", {fractionalSecondDigits: 4})`,
  `new Intl.DateTimeFormat("en", {hourCycle: "h25"})`, `new Intl.DateTimeFormat("en", {dateStyle: "huge"})`,
  `Intl.DateTimeFormat.length`, `Object.prototype.toString.call(new Intl.DateTimeFormat())`,
  `Intl.DateTimeFormat.supportedLocalesOf(["ja-JP", "xx-XX"])`, `new Intl.DateTimeFormat("en-US", {calendar: "gregory"}).resolvedOptions().calendar`,
  `new Date(0).toLocaleTimeString("en-US", {timeStyle: "short"})`, `new Date(0).toLocaleDateString("en-US", {timeStyle: "short"})`,
);
// Collator and localeCompare: the usual sorts of names and words, each
// sensitivity, numeric, caseFirst, punctuation.
const words = ["bob", "Alice", "alice", "Émile", "eve", "Zoë", "zoe", "_x", "10", "9", "a-b", "ab", "a b", "Ä", "ä", "z",
  "ß", "ss", "résumé", "resume", "Resume", "naïve", "naive", "co-op", "coop", "Ångström", "angstrom", "Øre", "ore", "item2", "item10"];
for (const l of locales) {
  cases.push(`${lit(words)}.sort(new Intl.Collator(${lit(l)}).compare)`);
  cases.push(`${lit(words)}.sort((a, b) => a.localeCompare(b, ${lit(l)}))`);
  cases.push(`new Intl.Collator(${lit(l)}).resolvedOptions()`);
  for (const o of [{ sensitivity: "base" }, { sensitivity: "accent" }, { sensitivity: "case" }, { numeric: true }, { ignorePunctuation: true }]) {
    cases.push(`${lit(words)}.map((w) => new Intl.Collator(${lit(l)}, ${lit(o)}).compare(w, "alice"))`);
  }
}
for (const [a, b] of [["a", "B"], ["a", "A"], ["A", "a"], ["ä", "a"], ["a", "ä"], ["", "a"], ["a", ""], ["abc", "abd"], ["10", "9"], ["é", "e"], ["\u0000", "a"], ["a\u0301", "á"]]) {
  cases.push(`${lit(a)}.localeCompare(${lit(b)})`);
  cases.push(`${lit(a)}.localeCompare(${lit(b)}, "en-US", {sensitivity: "base"})`);
  cases.push(`new Intl.Collator("en-US", {caseFirst: "upper"}).compare(${lit(a)}, ${lit(b)})`);
  cases.push(`new Intl.Collator("en-US", {caseFirst: "lower"}).compare(${lit(a)}, ${lit(b)})`);
}
cases.push(
  `["item10", "item9", "item1", "item100"].sort(new Intl.Collator("en-US", {numeric: true}).compare)`,
  `new Intl.Collator("en-US-u-kn").resolvedOptions()`, `new Intl.Collator("en-US-u-kf-upper").resolvedOptions()`,
  `new Intl.Collator("en", {usage: "search", sensitivity: "base"}).resolvedOptions()`, `Intl.Collator.length`,
  `new Intl.Collator("en", {sensitivity: "x"})`, `new Intl.Collator("en", {usage: "x"})`, `new Intl.Collator("en", {caseFirst: "x"})`,
  `Object.prototype.toString.call(new Intl.Collator())`, `Intl.Collator.supportedLocalesOf(["sv-SE", "xx"])`,
  `new Intl.Collator().compare.length`, `["b", "a", "C", "c", "B", "A"].sort(Intl.Collator().compare)`,
);
// ListFormat and RelativeTimeFormat.
for (const l of locales) {
  for (const o of [{}, { type: "disjunction" }, { type: "unit" }, { style: "short" }, { type: "unit", style: "narrow" }]) {
    for (const items of [[], ["Ana"], ["Ana", "Ivan"], ["Ana", "Ivan", "Olga"], ["a", "b", "c", "d"]]) {
      cases.push(`new Intl.ListFormat(${lit(l)}, ${lit(o)}).format(${lit(items)})`);
    }
  }
  cases.push(`new Intl.ListFormat(${lit(l)}).formatToParts(["x", "y", "z"])`, `new Intl.ListFormat(${lit(l)}).resolvedOptions()`);
  for (const o of [{}, { numeric: "auto" }, { style: "short" }, { style: "narrow", numeric: "auto" }]) {
    for (const [v, u] of [[-1, "day"], [0, "day"], [1, "day"], [2, "day"], [-2, "day"], [3, "hours"], [-5, "minute"], [1, "week"],
      [-1, "month"], [2, "quarter"], [-22, "year"], [1000.5, "seconds"], [-0, "second"], [1.5, "year"]]) {
      cases.push(`new Intl.RelativeTimeFormat(${lit(l)}, ${lit(o)}).format(${Object.is(v, -0) ? "-0" : v}, ${lit(u)})`);
    }
  }
  cases.push(`new Intl.RelativeTimeFormat(${lit(l)}).formatToParts(-1234.5, "day")`, `new Intl.RelativeTimeFormat(${lit(l)}).resolvedOptions()`);
}
cases.push(`new Intl.ListFormat("en", {type: "x"})`, `new Intl.ListFormat("en").format(["a", 1])`, `Intl.ListFormat("en")`,
  `new Intl.RelativeTimeFormat("en").format(NaN, "day")`, `new Intl.RelativeTimeFormat("en").format(1, "fortnight")`,
  `new Intl.RelativeTimeFormat("en", {numeric: "x"})`, `Intl.RelativeTimeFormat.length`, `Intl.ListFormat.supportedLocalesOf("ko-KR")`);
// Array.prototype.toLocaleString hands its arguments on; Chinese sorts.
cases.push(`[1234.5, new Date(0), null, "x", 12n].toLocaleString("de-DE")`, `[[1, 2], 3].toLocaleString("en-IN", {style: "percent"})`,
  `Array.prototype.toLocaleString.call({length: 2, 0: 1e6, 1: undefined}, "fr-FR")`, `[].toLocaleString()`,
  `["中", "文", "字", "a"].sort(new Intl.Collator("zh-CN").compare)`, `["さ", "か", "あ", "ア"].sort(new Intl.Collator("ja-JP").compare)`);
// DisplayNames.
for (const l of locales) {
  for (const [type, codes] of [["language", ["en", "en-US", "en-GB", "de", "zh-Hant", "zh-Hans-CN", "pt-BR", "es-419", "sr-Latn", "xx"]],
    ["region", ["US", "DE", "GB", "CN", "419", "XX", "ZZ"]], ["script", ["Latn", "Cyrl", "Hant", "Arab"]],
    ["currency", ["USD", "EUR", "JPY", "XYZ"]], ["calendar", ["gregory", "japanese"]],
    ["dateTimeField", ["era", "year", "month", "weekOfYear", "day", "dayPeriod", "hour", "timeZoneName"]]]) {
    for (const o of [{}, { style: "short" }]) {
      cases.push(`${lit(codes)}.map((c) => new Intl.DisplayNames(${lit(l)}, ${lit({ type, ...o })}).of(c))`);
    }
  }
  cases.push(`new Intl.DisplayNames(${lit(l)}, {type: "language"}).resolvedOptions()`);
}
cases.push(`new Intl.DisplayNames("en", {type: "language", languageDisplay: "standard"}).of("en-US")`,
  `new Intl.DisplayNames("en", {type: "region", fallback: "none"}).of("XX")`, `new Intl.DisplayNames("en")`,
  `new Intl.DisplayNames("en", {type: "region"}).of("12345")`, `new Intl.DisplayNames("en", {type: "language"}).of("en-u-ca-japanese")`,
  `new Intl.DisplayNames("en", {type: "bogus"})`, `Intl.DisplayNames("en", {type: "region"})`, `Intl.DisplayNames.length`,
  `Intl.supportedValuesOf("x")`);
// NumberFormat's unit style.
for (const l of locales) {
  for (const unit of ["kilometer-per-hour", "gigabyte", "celsius", "percent", "liter", "mile-per-gallon", "kilobyte-per-second", "day", "second", "foot"]) {
    for (const unitDisplay of ["short", "long", "narrow"]) {
      cases.push(`[1, 2.5, -1234.5, 0].map((x) => new Intl.NumberFormat(${lit(l)}, ${lit({ style: "unit", unit, unitDisplay })}).format(x))`);
    }
  }
  cases.push(`new Intl.NumberFormat(${lit(l)}, {style: "unit", unit: "meter-per-second"}).formatToParts(-12.5)`,
    `new Intl.NumberFormat(${lit(l)}, {style: "unit", unit: "byte", notation: "compact"}).format(1234567)`);
}
cases.push(`new Intl.NumberFormat("en", {style: "unit", unit: "xyz"})`, `new Intl.NumberFormat("en", {style: "unit"})`,
  `new Intl.NumberFormat("en", {style: "unit", unit: "meter-per-xyz"})`, `new Intl.NumberFormat("en", {unit: "xyz"})`,
  `new Intl.NumberFormat("en", {style: "unit", unit: "meter-per-second"}).resolvedOptions()`);
// Ranges: NumberFormat's formatRange (ICU's collapse and spacing,
// the approximately sign when the ends format alike) and PluralRules'
// selectRange (CLDR's plural ranges).
const rangeOptions = [{}, { style: "currency", currency: "USD" }, { style: "currency", currency: "EUR", currencyDisplay: "code" },
  { style: "currency", currency: "EUR", currencyDisplay: "name" }, { style: "percent" }, { notation: "compact" },
  { notation: "compact", compactDisplay: "long" }, { notation: "scientific" }, { signDisplay: "always" },
  { style: "unit", unit: "kilometer" }, { style: "unit", unit: "kilometer", unitDisplay: "long" }, { style: "unit", unit: "celsius" },
  { style: "currency", currency: "USD", currencySign: "accounting" }, { maximumFractionDigits: 0 }];
const rangePairs = [[3, 5], [-5, -3], [3, 3], [-3, 5], [1, 1234567], [0, "-0"], [1.5, 1.5004], [5, 3], [3000, 5000], ["Infinity", 3]];
for (const l of locales) {
  for (const o of rangeOptions) {
    cases.push(`${lit(rangePairs)}.map(([a, b]) => new Intl.NumberFormat(${lit(l)}, ${lit(o)}).formatRange(Number(a), Number(b)))`);
  }
  cases.push(`new Intl.NumberFormat(${lit(l)}, {style: "currency", currency: "EUR"}).formatRangeToParts(-3, 5)`,
    `new Intl.NumberFormat(${lit(l)}, {style: "unit", unit: "liter", unitDisplay: "long"}).formatRangeToParts(1, 2)`,
    `new Intl.NumberFormat(${lit(l)}).formatRangeToParts(7, 7)`,
    `[[0, 1], [1, 2], [1, 5], [2, 21], [1, 1], [0, 0], [1.5, 2]].map(([a, b]) => [new Intl.PluralRules(${lit(l)}).selectRange(a, b), new Intl.PluralRules(${lit(l)}, {type: "ordinal"}).selectRange(a, b)])`);
}
cases.push(`new Intl.NumberFormat("en").formatRange(undefined, 1)`, `new Intl.NumberFormat("en").formatRange(1)`,
  `new Intl.NumberFormat("en").formatRange(NaN, 1)`, `new Intl.NumberFormat("en").formatRange(1, "abc")`,
  `new Intl.NumberFormat("en").formatRange(1, {})`, `new Intl.NumberFormat("en").formatRange("1e400", "2e400")`,
  `new Intl.NumberFormat("en").formatRange(5n, 12345678901234567890n)`, `new Intl.NumberFormat("en").formatRange("1.5", "1.50")`,
  `new Intl.NumberFormat("en").formatRangeToParts(NaN, 1)`, `Intl.NumberFormat.prototype.formatRange.call({}, 1, 2)`,
  `new Intl.PluralRules("en").selectRange(NaN, 1)`, `new Intl.PluralRules("en").selectRange(1)`,
  `new Intl.PluralRules("en").selectRange(undefined, 1)`, `new Intl.PluralRules("en").selectRange("1", "2")`);
// The dayPeriod option: flexible day periods with a 12-hour hour, noon
// at 12 sharp, none with a 24-hour one, alone.
for (const l of locales) {
  for (const dayPeriod of ["narrow", "short", "long"]) {
    cases.push(`[0, 3, 7, 12, 15, 19, 23].map((h) => [new Intl.DateTimeFormat(${lit(l)}, ${lit({ dayPeriod, hour: "numeric", timeZone: "UTC" })}).format(Date.UTC(2020, 0, 1, h)), new Intl.DateTimeFormat(${lit(l)}, ${lit({ dayPeriod, timeZone: "UTC" })}).format(Date.UTC(2020, 0, 1, h))])`);
  }
  cases.push(`new Intl.DateTimeFormat(${lit(l)}, {dayPeriod: "short", hour: "numeric", minute: "numeric", timeZone: "UTC"}).formatToParts(Date.UTC(2020, 0, 1, 12, 0))`,
    `new Intl.DateTimeFormat(${lit(l)}, {dayPeriod: "long", hour: "numeric", minute: "numeric", timeZone: "UTC"}).format(Date.UTC(2020, 0, 1, 12, 30))`);
}
// DateTimeFormat's formatRange: CLDR's interval patterns by the
// largest field apart, the fallbacks, a range within one day of a date
// and time, ends that look alike.
const rangeDateOptions = [{}, { dateStyle: "medium" }, { dateStyle: "long" }, { dateStyle: "full" }, { timeStyle: "short" },
  { dateStyle: "medium", timeStyle: "short" }, { dateStyle: "long", timeStyle: "short" }, { hour: "numeric", minute: "numeric" },
  { hour: "numeric", minute: "numeric", hourCycle: "h23" }, { hour: "numeric", minute: "numeric", second: "numeric" },
  { month: "long", day: "numeric" }, { year: "numeric", month: "short" }, { weekday: "short", month: "short", day: "numeric" },
  { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "numeric" }, { hour: "numeric" },
  { hour: "numeric", minute: "numeric", timeZoneName: "short" }, { month: "2-digit", day: "2-digit", year: "numeric" }];
const rangeDates = [["Date.UTC(2020, 0, 1)", "Date.UTC(2020, 0, 5)"], ["Date.UTC(2020, 0, 1)", "Date.UTC(2020, 2, 5)"],
  ["Date.UTC(2020, 0, 1)", "Date.UTC(2021, 0, 5)"], ["Date.UTC(2020, 0, 1, 10)", "Date.UTC(2020, 0, 1, 11, 30)"],
  ["Date.UTC(2020, 0, 1, 10)", "Date.UTC(2020, 0, 1, 22, 30)"], ["Date.UTC(2020, 0, 1, 10)", "Date.UTC(2020, 0, 2, 11, 30)"],
  ["Date.UTC(2020, 0, 1, 10)", "Date.UTC(2020, 0, 1, 10, 0, 5)"], ["Date.UTC(2020, 0, 1)", "Date.UTC(2020, 0, 1)"],
  ["Date.UTC(-50, 0, 1)", "Date.UTC(20, 0, 1)"]];
for (const l of locales) {
  for (const o of rangeDateOptions) {
    const dtf = `new Intl.DateTimeFormat(${lit(l)}, ${lit({ timeZone: "UTC", ...o })})`;
    cases.push(`((f) => [${rangeDates.map(([a, b]) => `f.formatRange(${a}, ${b})`).join(", ")}])(${dtf})`);
  }
  cases.push(`new Intl.DateTimeFormat(${lit(l)}, {timeZone: "UTC", dateStyle: "medium", timeStyle: "short"}).formatRangeToParts(Date.UTC(2020, 0, 1, 10), Date.UTC(2020, 0, 1, 11, 30))`,
    `new Intl.DateTimeFormat(${lit(l)}, {timeZone: "UTC"}).formatRangeToParts(Date.UTC(2020, 0, 1), Date.UTC(2020, 2, 5))`,
    `new Intl.DateTimeFormat(${lit(l)}, {timeZone: "UTC", month: "short", day: "numeric"}).formatRangeToParts(Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 5))`);
}
cases.push(`new Intl.DateTimeFormat("en-US", {timeZone: "America/New_York", dateStyle: "medium", timeStyle: "long"}).formatRange(Date.UTC(2024, 2, 10, 6, 30), Date.UTC(2024, 2, 10, 7, 30))`,
  `new Intl.DateTimeFormat("en-US", {timeZone: "America/New_York", hour: "numeric", minute: "numeric"}).formatRange(Date.UTC(2024, 10, 3, 5, 30), Date.UTC(2024, 10, 3, 6, 30))`,
  `new Intl.DateTimeFormat("en-US", {timeZone: "Asia/Kolkata", hour: "numeric", minute: "numeric"}).formatRange(Date.UTC(2020, 0, 1, 18), Date.UTC(2020, 0, 1, 20))`,
  `new Intl.DateTimeFormat("en").formatRange(undefined, 1)`, `new Intl.DateTimeFormat("en").formatRange(1)`,
  `new Intl.DateTimeFormat("en").formatRange(NaN, 1)`, `new Intl.DateTimeFormat("en").formatRange(1, 8.64e15 + 1)`,
  `new Intl.DateTimeFormat("en", {timeZone: "UTC"}).formatRange(new Date(Date.UTC(2020, 5, 1)), Date.UTC(2019, 5, 1))`,
  `new Intl.DateTimeFormat("en", {timeZone: "UTC"}).formatRangeToParts(0, 0)`, `Intl.DateTimeFormat.prototype.formatRange.call({}, 0, 1)`);
// Segmenter: graphemes, words and sentences by UAX #29 (ICU's
// dictionaries for Chinese, Japanese and Thai words are not Warden's:
// those cases are listed in known.txt).
const texts = ["Hello, world! It's 3.14 — a_b _ e-mail x.", "e\u0301 👨‍👩‍👧 🇫🇷 👍🏽 a\u0308\u0301", "Dr. Smith went home. Did he? Yes!  OK\n\nNext",
  "Größe Übung: straße, 1.000,5 € (ok)", "Привет, мир! Как дела?", "مرحبا بالعالم، كيف حالك؟", "नमस्ते दुनिया। क्षत्रिय",
  "日本語のテキストです。", "中文分词测试。", "한국어 문장입니다. 좋아요!", "สวัสดีครับ", "tab\tnew\r\nline\u2028end", "", "x\uD800y\uDC00z"];
for (const granularity of ["grapheme", "word", "sentence"]) {
  for (const t of texts) {
    cases.push(`Array.from(new Intl.Segmenter("en", ${lit({ granularity })}).segment(${lit(t)}), (s) => [s.segment, s.index, s.isWordLike])`);
  }
}
for (const l of locales) cases.push(`new Intl.Segmenter(${lit(l)}, {granularity: "word"}).resolvedOptions()`);
cases.push(`new Intl.Segmenter().resolvedOptions()`, `new Intl.Segmenter("en", {granularity: "line"})`, `Intl.Segmenter("en")`,
  `((s) => [s.containing(0), s.containing(5), s.containing(6), s.containing(-1), s.containing(99), s.containing(NaN), s.containing(3.9)])(new Intl.Segmenter("en", {granularity: "word"}).segment("hello world"))`,
  `Object.prototype.toString.call(new Intl.Segmenter().segment("x")[Symbol.iterator]())`, `Object.prototype.toString.call(new Intl.Segmenter())`,
  `Object.keys(new Intl.Segmenter("de", {granularity: "word"}).segment("Ein Test").containing(4))`,
  `((it) => [it.next(), it.next(), it.next()])(new Intl.Segmenter().segment("ab")[Symbol.iterator]())`,
  `Intl.Segmenter.supportedLocalesOf(["de-AT", "xx", "ja"])`, `new Intl.Segmenter("en").segment(12345).containing(2)`,
  `Intl.Segmenter.prototype.segment.call({}, "x")`);
// Locale.
const localeFields = (e) => `((l) => [l.toString(), l.baseName, l.language, l.script, l.region, l.calendar, l.hourCycle, l.numeric, l.caseFirst, l.collation, l.numberingSystem])(${e})`;
for (const l of [...locales, "und", "und-TW", "und-Cyrl", "sr", "sr-Latn", "zh-Hant", "es-419", "en-001", "pt-PT", "de-CH", "ar", "hi-Latn",
  "en-u-ca-gregory-hc-h23-kn-nu-latn", "ja-JP-u-ca-japanese", "zh-u-co-pinyin"]) {
  cases.push(localeFields(`new Intl.Locale(${lit(l)})`), `new Intl.Locale(${lit(l)}).maximize().toString()`, `new Intl.Locale(${lit(l)}).minimize().toString()`);
}
// Locale's information getters: CLDR's preferred calendars, hour
// cycles, numbering systems, zones and week data by region; keywords
// answer for themselves.
const localeInfo = (e) => `((l) => [l.calendars, l.hourCycles, l.numberingSystems, l.timeZones, l.textInfo, l.weekInfo])(${e})`;
for (const l of [...locales, "he", "und", "fr", "ar", "de-AT", "en-u-ca-buddhist-hc-h23-nu-thai-co-phonebk", "zh-Hant", "sr-Latn-RS", "es-419", "pt-PT", "en-AU", "ar-MA", "ur-PK"]) {
  cases.push(localeInfo(`new Intl.Locale(${lit(l)})`));
}
cases.push(`new Intl.Locale("de-DE").collations`, `new Intl.Locale("en-US").collations`, `new Intl.Locale("de-u-co-phonebk").collations`);
cases.push(`((l) => [l.calendars === l.calendars, l.weekInfo === l.weekInfo, l.weekInfo.weekend === l.weekInfo.weekend])(new Intl.Locale("en-US"))`,
  `Object.getOwnPropertyNames(Intl.Locale.prototype)`, `Object.getOwnPropertyDescriptor(Intl.Locale.prototype, "weekInfo").get.call({})`);
cases.push(localeFields(`new Intl.Locale("en", {region: "GB", script: "Latn", calendar: "buddhist", hourCycle: "h11", caseFirst: "upper", numeric: false, numberingSystem: "arab", collation: "emoji"})`),
  `new Intl.Locale("x")`, `new Intl.Locale()`, `new Intl.Locale(5)`, `Intl.Locale("en")`, `new Intl.Locale("en", {calendar: "x"})`,
  `new Intl.Locale("en", {region: "USA"})`, `new Intl.Locale("en", {hourCycle: "h25"})`, `Intl.Locale.length`,
  `new Intl.NumberFormat(new Intl.Locale("de-DE")).format(1234.5)`, `Intl.getCanonicalLocales([new Intl.Locale("EN-us"), "de"])`);
const out = cases.map((expr) => {
  try {
    return { expr, value: (0, eval)(`(${expr})`) };
  } catch (e) {
    return { expr, error: { name: e.name, message: e.message } };
  }
});
fs.writeFileSync(__dirname + "/node-table.json", JSON.stringify({
  node: process.version, icu: process.versions.icu, cldr: process.versions.cldr, cases: out,
}, null, 1) + "\n");
console.log(`${out.length} cases from Node ${process.version} (ICU ${process.versions.icu}, CLDR ${process.versions.cldr})`);
