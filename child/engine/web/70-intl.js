// Intl, as far as it is built: getCanonicalLocales, NumberFormat,
// PluralRules and DateTimeFormat, with the toLocaleString methods of
// Number, BigInt and Date going through them. The
// options are read here, in the order ECMA-402 reads them, and
// converted as GetOption converts them; the locale, the validation of
// the values and the formatting are the host's (child/engine/intl, from
// the CLDR version Node 20's ICU ships). A formatter's resolved options,
// as JSON, are its handle: each format call hands it back to the host.
const RangeErrorIntrinsic = RangeError;
const ObjectIntrinsic = Object;
const NumberIntrinsic = Number;
const objectIs = Object.is;
const mathMin = Math.min;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapClear = Map.prototype.clear;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, "size").get;
const MapIntrinsic = Map;
const numberValueOf = Number.prototype.valueOf;
const bigintValueOf = BigInt.prototype.valueOf;
const toStringTag = Symbol.toStringTag;
const isArray = Array.isArray;

// call runs one host operation; the host's errors come back as
// "\0Name\0message" and are thrown as that error.
function call(op, a, b) {
  const r = hostIntl(op, a, b);
  if (r.length > 0 && apply(strCharCodeAt, r, [0]) === 0) {
    const i = apply(strIndexOf, r, ["\0", 1]);
    const name = apply(strSlice, r, [1, i]);
    const message = apply(strSlice, r, [i + 1]);
    throw name === "TypeError" ? new TypeErrorIntrinsic(message) : new RangeErrorIntrinsic(message);
  }
  return r;
}

function dataProperty(obj, key, value) {
  defineProperty(obj, key, { value: value, writable: true, enumerable: true, configurable: true });
}
// methods defines the table's functions on target, non-enumerable as
// ECMA-402's (tables use method syntax: a method is no constructor).
function methods(target, table) {
  const keys = ObjectIntrinsic.keys(table);
  for (let i = 0; i < keys.length; i++) {
    defineProperty(target, keys[i], { value: table[keys[i]], writable: true, enumerable: false, configurable: true });
  }
}
// constructor fixes a constructor's prototype property as ECMA-402's:
// not writable, enumerable or configurable.
function constructorPrototype(C) {
  defineProperty(C, "prototype", { writable: false, enumerable: false, configurable: false });
}
function tag(proto, name) {
  defineProperty(proto, toStringTag, { value: name, writable: false, enumerable: false, configurable: true });
}
function list(values) {
  const a = [];
  for (let i = 0; i < values.length; i++) dataProperty(a, i, values[i]);
  return a;
}

// canonicalLocales is CanonicalizeLocaleList: the tags collected here,
// canonicalized and deduplicated by the host.
function localeTags(locales) {
  if (locales === undefined) return [];
  if (typeof locales === "string") return [locales];
  if (typeof locales === "object" && locales !== null && apply(weakGet, localeParts, [locales]) !== undefined) {
    return [apply(weakGet, localeParts, [locales]).tag];
  }
  const o = ObjectIntrinsic(locales);
  const len = mathMin(NumberIntrinsic(o.length) || 0, 4294967295);
  const tags = [];
  for (let k = 0; k < len; k++) {
    if (!(k in o)) continue;
    const v = o[k];
    if (typeof v !== "string" && (typeof v !== "object" || v === null)) {
      throw new TypeErrorIntrinsic("Language ID should be string or object.");
    }
    const parts = typeof v === "object" ? apply(weakGet, localeParts, [v]) : undefined;
    tags[tags.length] = parts !== undefined ? parts.tag : StringIntrinsic(v);
  }
  return tags;
}
function canonicalLocales(locales) {
  return parse(call("canonicalize", stringify(localeTags(locales)), ""));
}

function optionsObject(options, ctor) {
  if (options === undefined) return ObjectIntrinsic.create(null);
  if (options === null) throw new TypeErrorIntrinsic(ctor + " called on null or undefined");
  return ObjectIntrinsic(options);
}

// readOptions reads each named option once, in order: "s" as a string,
// "n" as String(Number(v)), "g" as useGrouping's boolean or string.
function readOptions(o, spec) {
  const out = ObjectIntrinsic.create(null);
  for (let i = 0; i < spec.length; i += 2) {
    const name = spec[i];
    const v = o[name];
    if (v === undefined) continue;
    switch (spec[i + 1]) {
      case "s": out[name] = StringIntrinsic(v); break;
      case "n": out[name] = StringIntrinsic(NumberIntrinsic(v)); break;
      case "g": out[name] = v === true ? true : !v ? false : StringIntrinsic(v); break;
      case "b": out[name] = !!v; break;
    }
  }
  return out;
}

const digitSpec = ["minimumIntegerDigits", "n", "minimumFractionDigits", "n", "maximumFractionDigits", "n",
  "minimumSignificantDigits", "n", "maximumSignificantDigits", "n", "roundingIncrement", "n",
  "roundingMode", "s", "roundingPriority", "s", "trailingZeroDisplay", "s"];
const numberFormatSpec = ["localeMatcher", "s", "numberingSystem", "s", "style", "s", "currency", "s",
  "currencyDisplay", "s", "currencySign", "s", "unit", "s", "unitDisplay", "s", "notation", "s"];
for (let i = 0; i < digitSpec.length; i++) numberFormatSpec[numberFormatSpec.length] = digitSpec[i];
numberFormatSpec[numberFormatSpec.length] = "compactDisplay";
numberFormatSpec[numberFormatSpec.length] = "s";
numberFormatSpec[numberFormatSpec.length] = "useGrouping";
numberFormatSpec[numberFormatSpec.length] = "g";
numberFormatSpec[numberFormatSpec.length] = "signDisplay";
numberFormatSpec[numberFormatSpec.length] = "s";
const pluralRulesSpec = ["localeMatcher", "s", "type", "s"];
for (let i = 0; i < digitSpec.length; i++) pluralRulesSpec[pluralRulesSpec.length] = digitSpec[i];

// mathematicalValue is ToIntlMathematicalValue, as text for the host.
function mathematicalValue(x) {
  if (typeof x === "object" && x !== null || typeof x === "function") {
    x = NumberIntrinsic(x);
  }
  if (typeof x === "bigint") return "b:" + StringIntrinsic(x);
  if (typeof x === "string") return "s:" + x;
  const n = NumberIntrinsic(x);
  return objectIs(n, -0) ? "n:-0" : "n:" + StringIntrinsic(n);
}

function resolvedCopy(resolved, extra) {
  const out = {};
  const keys = ObjectIntrinsic.keys(resolved);
  for (let i = 0; i < keys.length; i++) dataProperty(out, keys[i], resolved[keys[i]]);
  if (extra) extra(out);
  return out;
}

function supportedLocalesOf(locales, options) {
  const o = options === undefined ? undefined : optionsObject(options, "supportedLocalesOf");
  if (o !== undefined) readOptions(o, ["localeMatcher", "s"]);
  return list(parse(call("supported", stringify(localeTags(locales)), "")));
}

function getterOf(obj, key) { return getOwnPropertyDescriptor(obj, key).get; }

// --- NumberFormat ---

const numberFormats = new WeakMapIntrinsic();
// unwrap is what table keeps for x, the receiver of method (its name
// as V8's errors give it), or V8's TypeError for any other receiver.
function unwrap(table, x, method) {
  const slots = typeof x === "object" && x !== null ? apply(weakGet, table, [x]) : undefined;
  if (slots === undefined) {
    throw new TypeErrorIntrinsic("Method " + method + " called on incompatible receiver " + describeReceiver(x));
  }
  return slots;
}
function numberFormatOf(nf, method) { return unwrap(numberFormats, nf, method); }
function describeReceiver(v) {
  if (v === undefined || v === null || typeof v !== "object" && typeof v !== "function") return StringIntrinsic(v);
  return "#<" + (v.constructor && v.constructor.name || "Object") + ">";
}

function NumberFormat(locales, options) {
  if (new.target === undefined) return new NumberFormat(locales, options);
  const tags = canonicalLocales(locales);
  const opts = readOptions(optionsObject(options, "Intl.NumberFormat"), numberFormatSpec);
  const handle = call("nf.resolve", stringify(tags), stringify(opts));
  const nf = this;
  apply(weakSet, numberFormats, [nf, { handle: handle, resolved: parse(handle), bound: undefined }]);
}
const NumberFormatProto = NumberFormat.prototype;
// ECMA-402's constructors have length 0.
function noLength(C) { defineProperty(C, "length", { value: 0, writable: false, enumerable: false, configurable: true }); }
noLength(NumberFormat);
constructorPrototype(NumberFormat);
methods(NumberFormat, { supportedLocalesOf(locales, options) { return supportedLocalesOf(locales, options); } });
defineProperty(NumberFormatProto, "format", {
  get: getterOf({ get format() {
    const slots = numberFormatOf(this, "get Intl.NumberFormat.prototype.format");
    if (slots.bound === undefined) {
      const handle = slots.handle;
      slots.bound = builtin("", function (x) { return call("nf.format", handle, mathematicalValue(x)); });
      defineProperty(slots.bound, "length", { value: 1, writable: false, enumerable: false, configurable: true });
    }
    return slots.bound;
  } }, "format"),
  enumerable: false,
  configurable: true,
});
methods(NumberFormatProto, {
  formatToParts(x) {
    const slots = numberFormatOf(this, "Intl.NumberFormat.prototype.formatToParts");
    return partsArray(parse(call("nf.parts", slots.handle, mathematicalValue(x))));
  },
  formatRange(start, end) {
    const slots = numberFormatOf(this, "Intl.NumberFormat.prototype.formatRange");
    return call("nf.range", slots.handle, rangeOf(start, end, "start", "end", mathematicalValue));
  },
  formatRangeToParts(start, end) {
    const slots = numberFormatOf(this, "Intl.NumberFormat.prototype.formatRangeToParts");
    return partsArray(parse(call("nf.rangeParts", slots.handle, rangeOf(start, end, "start", "end", mathematicalValue))));
  },
  resolvedOptions() {
    return resolvedCopy(numberFormatOf(this, "Intl.NumberFormat.prototype.resolvedOptions").resolved);
  },
});
// rangeOf is a range's ends for the host: each as convert sends it, then
// each as V8's errors name it (the host throws V8's RangeError for NaN).
function rangeOf(start, end, startName, endName, convert) {
  if (start === undefined) throw new TypeErrorIntrinsic("Invalid " + startName + " : undefined");
  if (end === undefined) throw new TypeErrorIntrinsic("Invalid " + endName + " : undefined");
  return stringify([convert(start), convert(end), describeReceiver(start), describeReceiver(end)]);
}
function numberValue(n) { return "n:" + StringIntrinsic(NumberIntrinsic(n)); }
tag(NumberFormatProto, "Intl.NumberFormat");

// --- PluralRules ---

const pluralRules = new WeakMapIntrinsic();
function PluralRules(locales, options) {
  if (new.target === undefined) throw new TypeErrorIntrinsic("Constructor Intl.PluralRules requires 'new'");
  const tags = canonicalLocales(locales);
  const opts = readOptions(optionsObject(options, "Intl.PluralRules"), pluralRulesSpec);
  const handle = call("pr.resolve", stringify(tags), stringify(opts));
  apply(weakSet, pluralRules, [this, { handle: handle, resolved: parse(handle) }]);
}
function pluralRulesOf(pr, method) { return unwrap(pluralRules, pr, method); }
constructorPrototype(PluralRules);
noLength(PluralRules);
methods(PluralRules, { supportedLocalesOf(locales, options) { return supportedLocalesOf(locales, options); } });
methods(PluralRules.prototype, {
  select(n) {
    const slots = pluralRulesOf(this, "Intl.PluralRules.prototype.select");
    return call("pr.select", slots.handle, numberValue(n));
  },
  selectRange(start, end) {
    const slots = pluralRulesOf(this, "Intl.PluralRules.prototype.selectRange");
    return call("pr.range", slots.handle, rangeOf(start, end, "startRange", "endRange", numberValue));
  },
  resolvedOptions() {
    const slots = pluralRulesOf(this, "Intl.PluralRules.prototype.resolvedOptions");
    const r = slots.resolved;
    const out = {};
    const order = ["locale", "type", "minimumIntegerDigits", "minimumSignificantDigits", "maximumSignificantDigits",
      "minimumFractionDigits", "maximumFractionDigits"];
    for (let i = 0; i < order.length; i++) {
      if (r[order[i]] !== undefined) dataProperty(out, order[i], r[order[i]]);
    }
    dataProperty(out, "pluralCategories", list(parse(call("pr.categories", slots.handle, ""))));
    return out;
  },
});
tag(PluralRules.prototype, "Intl.PluralRules");

// --- DateTimeFormat ---

const dateTimeFormatSpec = ["localeMatcher", "s", "calendar", "s", "numberingSystem", "s", "hour12", "b",
  "hourCycle", "s", "timeZone", "s", "weekday", "s", "era", "s", "year", "s", "month", "s", "day", "s",
  "dayPeriod", "s", "hour", "s", "minute", "s", "second", "s", "fractionalSecondDigits", "n",
  "timeZoneName", "s", "formatMatcher", "s", "dateStyle", "s", "timeStyle", "s"];
const dateTimeFormats = new WeakMapIntrinsic();
const dateNow = Date.now;
const dateValueOf = Date.prototype.valueOf;
function createDateTimeFormat(locales, options, required, defaults) {
  const tags = canonicalLocales(locales);
  const opts = readOptions(optionsObject(options, "Intl.DateTimeFormat"), dateTimeFormatSpec);
  opts.required = required;
  opts.defaults = defaults;
  const handle = call("dtf.resolve", stringify(tags), stringify(opts));
  return { handle: handle, resolved: parse(handle).r, bound: undefined };
}
function dateTimeFormatOf(dtf, method) { return unwrap(dateTimeFormats, dtf, method); }
// timeValue is what format is given, as the host reads it.
function timeValue(date) {
  const x = date === undefined ? dateNow() : NumberIntrinsic(date);
  return StringIntrinsic(x);
}
function timeRange(startDate, endDate) {
  if (startDate === undefined || endDate === undefined) throw new TypeErrorIntrinsic("Invalid time value");
  return stringify([StringIntrinsic(NumberIntrinsic(startDate)), StringIntrinsic(NumberIntrinsic(endDate))]);
}
function DateTimeFormat(locales, options) {
  if (new.target === undefined) return new DateTimeFormat(locales, options);
  apply(weakSet, dateTimeFormats, [this, createDateTimeFormat(locales, options, "any", "date")]);
}
constructorPrototype(DateTimeFormat);
noLength(DateTimeFormat);
methods(DateTimeFormat, { supportedLocalesOf(locales, options) { return supportedLocalesOf(locales, options); } });
defineProperty(DateTimeFormat.prototype, "format", {
  get: getterOf({ get format() {
    const slots = dateTimeFormatOf(this, "get Intl.DateTimeFormat.prototype.format");
    if (slots.bound === undefined) {
      const handle = slots.handle;
      slots.bound = builtin("", function (date) { return call("dtf.format", handle, timeValue(date)); });
      defineProperty(slots.bound, "length", { value: 1, writable: false, enumerable: false, configurable: true });
    }
    return slots.bound;
  } }, "format"),
  enumerable: false,
  configurable: true,
});
function partsArray(parts) {
  const out = [];
  for (let i = 0; i < parts.length; i++) {
    const p = {};
    dataProperty(p, "type", parts[i].type);
    dataProperty(p, "value", parts[i].value);
    if (parts[i].unit !== undefined) dataProperty(p, "unit", parts[i].unit);
    if (parts[i].source !== undefined) dataProperty(p, "source", parts[i].source);
    dataProperty(out, i, p);
  }
  return out;
}
methods(DateTimeFormat.prototype, {
  formatToParts(date) {
    const slots = dateTimeFormatOf(this, "Intl.DateTimeFormat.prototype.formatToParts");
    return partsArray(parse(call("dtf.parts", slots.handle, timeValue(date))));
  },
  formatRange(startDate, endDate) {
    const slots = dateTimeFormatOf(this, "Intl.DateTimeFormat.prototype.formatRange");
    return call("dtf.range", slots.handle, timeRange(startDate, endDate));
  },
  formatRangeToParts(startDate, endDate) {
    const slots = dateTimeFormatOf(this, "Intl.DateTimeFormat.prototype.formatRangeToParts");
    return partsArray(parse(call("dtf.rangeParts", slots.handle, timeRange(startDate, endDate))));
  },
  resolvedOptions() {
    return resolvedCopy(dateTimeFormatOf(this, "Intl.DateTimeFormat.prototype.resolvedOptions").resolved);
  },
});
tag(DateTimeFormat.prototype, "Intl.DateTimeFormat");

// --- Collator ---

const collatorSpec = ["usage", "s", "localeMatcher", "s", "collation", "s", "numeric", "b", "caseFirst", "s",
  "sensitivity", "s", "ignorePunctuation", "b"];
const collators = new WeakMapIntrinsic();
function createCollator(locales, options) {
  const tags = canonicalLocales(locales);
  const opts = readOptions(optionsObject(options, "Intl.Collator"), collatorSpec);
  const handle = call("co.resolve", stringify(tags), stringify(opts));
  const resolved = parse(handle);
  // Keys cannot say upper case first, or compare by case alone.
  const keyed = resolved.caseFirst !== "upper" && resolved.sensitivity !== "case";
  return { handle: handle, resolved: resolved, keyed: keyed, keys: new MapIntrinsic(), bound: undefined };
}
// compareWith compares by sort keys the host makes once per string (a
// sort asks for each string many times), or asks the host per pair
// where keys cannot say it.
function compareWith(slots, x, y) {
  if (!slots.keyed) return NumberIntrinsic(call("co.compare", slots.handle, stringify([x, y])));
  const kx = keyOf(slots, x), ky = keyOf(slots, y);
  return kx < ky ? -1 : kx > ky ? 1 : 0;
}
function keyOf(slots, s) {
  let k = apply(mapGet, slots.keys, [s]);
  if (k === undefined) {
    if (apply(mapSize, slots.keys, []) >= 100000) apply(mapClear, slots.keys, []);
    k = call("co.key", slots.handle, s);
    apply(mapSet, slots.keys, [s, k]);
  }
  return k;
}
function collatorOf(c, method) { return unwrap(collators, c, method); }
function Collator(locales, options) {
  if (new.target === undefined) return new Collator(locales, options);
  apply(weakSet, collators, [this, createCollator(locales, options)]);
}
constructorPrototype(Collator);
noLength(Collator);
methods(Collator, { supportedLocalesOf(locales, options) { return supportedLocalesOf(locales, options); } });
defineProperty(Collator.prototype, "compare", {
  get: getterOf({ get compare() {
    const slots = collatorOf(this, "get Intl.Collator.prototype.compare");
    if (slots.bound === undefined) {
      slots.bound = builtin("", function (x, y) { return compareWith(slots, StringIntrinsic(x), StringIntrinsic(y)); });
      defineProperty(slots.bound, "length", { value: 2, writable: false, enumerable: false, configurable: true });
    }
    return slots.bound;
  } }, "compare"),
  enumerable: false,
  configurable: true,
});
methods(Collator.prototype, {
  resolvedOptions() { return resolvedCopy(collatorOf(this, "Intl.Collator.prototype.resolvedOptions").resolved); },
});
tag(Collator.prototype, "Intl.Collator");

// --- ListFormat and RelativeTimeFormat ---

// simpleFormatter makes a constructor whose instances keep a handle and
// whose methods hand it to the host: name, the options it reads, and
// the methods as {name: [op, argument converter]}.
function simpleFormatter(name, spec, table) {
  const slotsOf = new WeakMapIntrinsic();
  function of(x, method) { return unwrap(slotsOf, x, "Intl." + name + ".prototype." + method); }
  const C = function (locales, options) {
    if (new.target === undefined) throw new TypeErrorIntrinsic("Constructor Intl." + name + " requires 'new'");
    const tags = canonicalLocales(locales);
    const opts = readOptions(optionsObject(options, "Intl." + name), spec);
    const handle = call(table.resolve, stringify(tags), stringify(opts));
    apply(weakSet, slotsOf, [this, { handle: handle, resolved: parse(handle) }]);
  };
  defineProperty(C, "name", { value: name, writable: false, enumerable: false, configurable: true });
  constructorPrototype(C);
  noLength(C);
  methods(C, { supportedLocalesOf(locales, options) { return supportedLocalesOf(locales, options); } });
  methods(C.prototype, {
    format(a, b) { return call(table.format, of(this, "format").handle, table.argument(a, b)); },
    formatToParts(a, b) { return partsArray(parse(call(table.parts, of(this, "formatToParts").handle, table.argument(a, b)))); },
    resolvedOptions() { return resolvedCopy(of(this, "resolvedOptions").resolved); },
  });
  tag(C.prototype, "Intl." + name);
  return C;
}

// stringList is StringListFromIterable.
function stringList(iterable) {
  const out = [];
  if (iterable === undefined) return out;
  for (const v of iterable) {
    if (typeof v !== "string") throw new TypeErrorIntrinsic("Iterable yielded " + StringIntrinsic(v) + " which is not a string");
    out[out.length] = v;
  }
  return out;
}
const ListFormat = simpleFormatter("ListFormat", ["localeMatcher", "s", "type", "s", "style", "s"], {
  resolve: "lf.resolve", format: "lf.format", parts: "lf.parts",
  argument(list) { return stringify(stringList(list)); },
});
const RelativeTimeFormat = simpleFormatter("RelativeTimeFormat", ["localeMatcher", "s", "numberingSystem", "s", "style", "s", "numeric", "s"], {
  resolve: "rtf.resolve", format: "rtf.format", parts: "rtf.parts",
  argument(value, unit) {
    const n = NumberIntrinsic(value);
    return (objectIs(n, -0) ? "-0" : StringIntrinsic(n)) + "\0" + StringIntrinsic(unit);
  },
});

// --- DisplayNames ---

const displayNames = new WeakMapIntrinsic();
function DisplayNames(locales, options) {
  if (new.target === undefined) throw new TypeErrorIntrinsic("Constructor Intl.DisplayNames requires 'new'");
  const tags = canonicalLocales(locales);
  if (options === undefined) throw new TypeErrorIntrinsic("invalid_argument");
  const opts = readOptions(optionsObject(options, "Intl.DisplayNames"),
    ["localeMatcher", "s", "style", "s", "type", "s", "fallback", "s", "languageDisplay", "s"]);
  const handle = call("dn.resolve", stringify(tags), stringify(opts));
  apply(weakSet, displayNames, [this, { handle: handle, resolved: parse(handle) }]);
}
function displayNamesOf(x, method) { return unwrap(displayNames, x, "Intl.DisplayNames.prototype." + method); }
constructorPrototype(DisplayNames);
defineProperty(DisplayNames, "length", { value: 2, writable: false, enumerable: false, configurable: true });
methods(DisplayNames, { supportedLocalesOf(locales, options) { return supportedLocalesOf(locales, options); } });
methods(DisplayNames.prototype, {
  of(code) {
    const slots = displayNamesOf(this, "of");
    const name = call("dn.of", slots.handle, StringIntrinsic(code));
    return name === "\x01" ? undefined : name;
  },
  resolvedOptions() { return resolvedCopy(displayNamesOf(this, "resolvedOptions").resolved); },
});
tag(DisplayNames.prototype, "Intl.DisplayNames");

// --- Locale ---

const localeParts = new WeakMapIntrinsic();
function localeOf(x, method) { return unwrap(localeParts, x, "Intl.Locale.prototype." + method); }
function newLocale(parts) {
  const l = ObjectIntrinsic.create(Locale.prototype);
  apply(weakSet, localeParts, [l, parts]);
  return l;
}
function Locale(tag, options) {
  if (new.target === undefined) throw new TypeErrorIntrinsic("Constructor Intl.Locale requires 'new'");
  if (typeof tag !== "string" && (typeof tag !== "object" || tag === null)) {
    throw new TypeErrorIntrinsic("First argument to Intl.Locale constructor can't be empty or missing");
  }
  const existing = typeof tag === "object" ? apply(weakGet, localeParts, [tag]) : undefined;
  const text = existing !== undefined ? existing.tag : StringIntrinsic(tag);
  const opts = readOptions(options === undefined ? ObjectIntrinsic.create(null) : optionsObject(options, "Intl.Locale"),
    ["language", "s", "script", "s", "region", "s", "calendar", "s", "collation", "s", "hourCycle", "s", "caseFirst", "s",
      "numeric", "b", "numberingSystem", "s"]);
  apply(weakSet, localeParts, [this, parse(call("loc.make", text, stringify(opts)))]);
}
constructorPrototype(Locale);
defineProperty(Locale, "length", { value: 1, writable: false, enumerable: false, configurable: true });
methods(Locale.prototype, {
  toString() { return localeOf(this, "toString").tag; },
  maximize() { return newLocale(parse(call("loc.maximize", localeOf(this, "maximize").tag, ""))); },
  minimize() { return newLocale(parse(call("loc.minimize", localeOf(this, "minimize").tag, ""))); },
});
const localeGetters = ["language", "script", "region", "baseName", "calendar", "caseFirst", "collation", "hourCycle", "numeric", "numberingSystem"];
for (let i = 0; i < localeGetters.length; i++) {
  const name = localeGetters[i];
  const getter = getOwnPropertyDescriptor({ get [name]() {
    const v = localeOf(this, name)[name];
    return v === null ? undefined : v;
  } }, name).get;
  defineProperty(Locale.prototype, name, { get: getter, enumerable: false, configurable: true });
}
// The information getters: a fresh array or object on each read.
const localeInfoGetters = ["calendars", "collations", "hourCycles", "numberingSystems", "textInfo", "timeZones", "weekInfo"];
for (let i = 0; i < localeInfoGetters.length; i++) {
  const name = localeInfoGetters[i];
  const getter = getOwnPropertyDescriptor({ get [name]() {
    const v = parse(call("loc.info", localeOf(this, name).tag, name));
    if (v === null) return undefined;
    if (isArray(v)) return list(v);
    const out = {};
    const keys = ObjectIntrinsic.keys(v);
    for (let k = 0; k < keys.length; k++) dataProperty(out, keys[k], isArray(v[keys[k]]) ? list(v[keys[k]]) : v[keys[k]]);
    return out;
  } }, name).get;
  defineProperty(Locale.prototype, name, { get: getter, enumerable: false, configurable: true });
}
tag(Locale.prototype, "Intl.Locale");

// --- Segmenter ---

// A Segments object's boundaries are the host's, asked for when it is
// first read: each segment's end in code units, word-likeness for words.
const segmenters = new WeakMapIntrinsic();
const segmentsSlots = new WeakMapIntrinsic();
const iteratorSlots = new WeakMapIntrinsic();
const iteratorSymbol = Symbol.iterator;
const IteratorPrototype = getPrototypeOf(getPrototypeOf([][iteratorSymbol]()));
const strSplit = String.prototype.split;
const mathTrunc = Math.trunc;
function Segmenter(locales, options) {
  if (new.target === undefined) throw new TypeErrorIntrinsic("Constructor Intl.Segmenter requires 'new'");
  const tags = canonicalLocales(locales);
  const opts = readOptions(optionsObject(options, "Intl.Segmenter"), ["localeMatcher", "s", "granularity", "s"]);
  apply(weakSet, segmenters, [this, { resolved: parse(call("sg.resolve", stringify(tags), stringify(opts))) }]);
}
constructorPrototype(Segmenter);
noLength(Segmenter);
methods(Segmenter, { supportedLocalesOf(locales, options) { return supportedLocalesOf(locales, options); } });
const SegmentsPrototype = {};
methods(Segmenter.prototype, {
  segment(string) {
    const slots = unwrap(segmenters, this, "Intl.Segmenter.prototype.segment");
    const segments = ObjectIntrinsic.create(SegmentsPrototype);
    apply(weakSet, segmentsSlots, [segments, { input: StringIntrinsic(string), granularity: slots.resolved.granularity, ends: undefined, words: undefined }]);
    return segments;
  },
  resolvedOptions() {
    return resolvedCopy(unwrap(segmenters, this, "Intl.Segmenter.prototype.resolvedOptions").resolved);
  },
});
tag(Segmenter.prototype, "Intl.Segmenter");
function boundaries(slots) {
  if (slots.ends === undefined) {
    const text = call("sg.segment", slots.granularity, slots.input);
    const items = text === "" ? [] : apply(strSplit, text, [","]);
    const ends = [];
    const words = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const word = apply(strCharCodeAt, item, [item.length - 1]) === 119; // "w"
      ends[i] = NumberIntrinsic(word ? apply(strSlice, item, [0, item.length - 1]) : item);
      words[i] = word;
    }
    slots.ends = ends;
    slots.words = words;
  }
  return slots;
}
// segmentData is CreateSegmentDataObject for the k-th segment.
function segmentData(slots, k) {
  const start = k === 0 ? 0 : slots.ends[k - 1];
  const out = {};
  dataProperty(out, "segment", apply(strSlice, slots.input, [start, slots.ends[k]]));
  dataProperty(out, "index", start);
  dataProperty(out, "input", slots.input);
  if (slots.granularity === "word") dataProperty(out, "isWordLike", slots.words[k]);
  return out;
}
methods(SegmentsPrototype, {
  containing(index) {
    const slots = unwrap(segmentsSlots, this, "%Segments.prototype%.containing");
    let n = NumberIntrinsic(index);
    n = n !== n ? 0 : mathTrunc(n);
    if (n < 0 || n >= slots.input.length) return undefined;
    const ends = boundaries(slots).ends;
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= n) lo = mid + 1; else hi = mid;
    }
    return segmentData(slots, lo);
  },
});
const SegmentIteratorPrototype = ObjectIntrinsic.create(IteratorPrototype);
defineProperty(SegmentsPrototype, iteratorSymbol, {
  value: getOwnPropertyDescriptor({ [iteratorSymbol]() {
    const slots = unwrap(segmentsSlots, this, "%Segments.prototype%[@@iterator]");
    const it = ObjectIntrinsic.create(SegmentIteratorPrototype);
    apply(weakSet, iteratorSlots, [it, { segments: slots, next: 0 }]);
    return it;
  } }, iteratorSymbol).value,
  writable: true, enumerable: false, configurable: true,
});
methods(SegmentIteratorPrototype, {
  next() {
    const state = unwrap(iteratorSlots, this, "%SegmentIterator.prototype%.next");
    const slots = boundaries(state.segments);
    if (state.next >= slots.ends.length) return { value: undefined, done: true };
    return { value: segmentData(slots, state.next++), done: false };
  },
});
tag(SegmentIteratorPrototype, "Segmenter String Iterator");

// --- Intl ---

const IntlObject = {};
methods(IntlObject, {
  getCanonicalLocales(locales) { return list(canonicalLocales(locales)); },
  supportedValuesOf(key) { return list(parse(call("values", StringIntrinsic(key), ""))); },
});
methods(IntlObject, {
  Collator: Collator, DateTimeFormat: DateTimeFormat, DisplayNames: DisplayNames, ListFormat: ListFormat, Locale: Locale, NumberFormat: NumberFormat,
  PluralRules: PluralRules, RelativeTimeFormat: RelativeTimeFormat, Segmenter: Segmenter,
});
tag(IntlObject, "Intl");
defineGlobal("Intl", IntlObject, false);

// The toLocaleString methods: a formatter per locale argument when no
// options are given, as engines cache them.
const defaultFormats = new MapIntrinsic();
function formatterFor(locales, options) {
  if (options === undefined && (locales === undefined || typeof locales === "string")) {
    const key = locales === undefined ? "" : "=" + locales;
    let nf = apply(mapGet, defaultFormats, [key]);
    if (nf === undefined) {
      if (apply(mapSize, defaultFormats, []) >= 64) apply(mapClear, defaultFormats, []);
      nf = new NumberFormat(locales, options);
      apply(mapSet, defaultFormats, [key, nf]);
    }
    return nf;
  }
  return new NumberFormat(locales, options);
}
function formatWith(nf, x) {
  return call("nf.format", apply(weakGet, numberFormats, [nf]).handle, mathematicalValue(x));
}
methods(NumberIntrinsic.prototype, {
  toLocaleString(locales, options) {
    let x;
    try { x = apply(numberValueOf, this, []); } catch (e) {
      throw new TypeErrorIntrinsic("Number.prototype.toLocaleString requires that 'this' be a Number");
    }
    return formatWith(formatterFor(locales, options), x);
  },
});
methods(BigInt.prototype, {
  toLocaleString(locales, options) {
    let x;
    try { x = apply(bigintValueOf, this, []); } catch (e) {
      throw new TypeErrorIntrinsic("BigInt.prototype.toLocaleString requires that 'this' be a BigInt");
    }
    return formatWith(formatterFor(locales, options), x);
  },
});

// Date's locale methods: "Invalid Date" for an invalid date, as the
// specification says, else a DateTimeFormat with ToDateTimeOptions'
// required and default components.
function dateLocale(d, locales, options, required, defaults, method) {
  let x;
  try { x = apply(dateValueOf, d, []); } catch (e) {
    throw new TypeErrorIntrinsic("this is not a Date object.");
  }
  if (x !== x) return "Invalid Date";
  return call("dtf.format", createDateTimeFormat(locales, options, required, defaults).handle, StringIntrinsic(x));
}
methods(Date.prototype, {
  toLocaleString(locales, options) { return dateLocale(this, locales, options, "any", "all"); },
  toLocaleDateString(locales, options) { return dateLocale(this, locales, options, "date", "date"); },
  toLocaleTimeString(locales, options) { return dateLocale(this, locales, options, "time", "time"); },
});

// localeCompare through a Collator, one kept per locale argument when no
// options are given.
const defaultCollators = new MapIntrinsic();
methods(StringIntrinsic.prototype, {
  localeCompare(that, locales, options) {
    if (this === undefined || this === null) {
      throw new TypeErrorIntrinsic("String.prototype.localeCompare called on null or undefined");
    }
    const s = StringIntrinsic(this), t = StringIntrinsic(that);
    let slots;
    if (options === undefined && (locales === undefined || typeof locales === "string")) {
      const key = locales === undefined ? "" : "=" + locales;
      slots = apply(mapGet, defaultCollators, [key]);
      if (slots === undefined) {
        if (apply(mapSize, defaultCollators, []) >= 64) apply(mapClear, defaultCollators, []);
        slots = createCollator(locales, undefined);
        apply(mapSet, defaultCollators, [key, slots]);
      }
    } else {
      slots = createCollator(locales, options);
    }
    return compareWith(slots, s, t);
  },
});

// Array.prototype.toLocaleString hands its locales and options to each
// element's toLocaleString, as ECMA-402 says (QuickJS's passes none).
const ArrayProto = Array.prototype;
methods(ArrayProto, {
  toLocaleString(locales, options) {
    if (this === undefined || this === null) {
      throw new TypeErrorIntrinsic("Array.prototype.toLocaleString called on null or undefined");
    }
    const o = ObjectIntrinsic(this);
    const len = mathMin(NumberIntrinsic(o.length) || 0, 9007199254740991);
    let out = "";
    for (let k = 0; k < len; k++) {
      if (k > 0) out += ",";
      const v = o[k];
      if (v !== undefined && v !== null) out += StringIntrinsic(v.toLocaleString(locales, options));
    }
    return out;
  },
});
