// expect: TimeoutError
// category: resource
// timeout: 500ms
// source: original (Intl.supportedValuesOf in an endless loop, each list kept: the host answers each from its tables, the lists are the guest's memory, and the deadline ends it)
const keep = [];
for (;;) {
  keep.push(Intl.supportedValuesOf("timeZone"), Intl.supportedValuesOf("currency"));
  if (keep.length > 200) keep.length = 0;
}
