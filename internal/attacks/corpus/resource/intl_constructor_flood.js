// expect: ResourceError/memory | TimeoutError
// category: resource
// memory: 8MiB
// timeout: 3s
// source: original (formatters with distinct options, kept alive, until the memory limit; the host's caches of formatters are bounded whatever the guest makes)
const keep = [];
for (let i = 0; ; i++) {
  keep.push(new Intl.NumberFormat("en-US", { minimumFractionDigits: i % 20, maximumSignificantDigits: 1 + (i % 21), style: i % 2 ? "percent" : "decimal" }));
  keep.push(Intl.getCanonicalLocales("en-US-u-nu-" + (100000 + i)));
}
