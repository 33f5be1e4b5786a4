// expect: ok
// category: leak
// value: "undefined"
// source: original (no Intl to reveal the host's locale)
return typeof Intl;
