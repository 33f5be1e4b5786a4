// expect: ok
// category: leak
// value: ["en-US","1,234.5","en","en-US"]
// source: original (Intl reveals no locale of the host: with none asked for it is en-US, whatever LANG or LC_ALL the supervisor has)
return [new Intl.NumberFormat().resolvedOptions().locale, (1234.5).toLocaleString(), new Intl.PluralRules().resolvedOptions().locale, Intl.NumberFormat.supportedLocalesOf(["en-US"])[0]];
