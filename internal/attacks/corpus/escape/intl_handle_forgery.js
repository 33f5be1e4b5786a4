// expect: ok
// value: ["TypeError","TypeError","TypeError","TypeError",true]
// category: escape
// source: original (an Intl object's handle lives in a closure the guest cannot reach: methods refuse other receivers, and a prototype swapped onto a plain object gives it no handle)
const out = [];
const fake = Object.create(Intl.NumberFormat.prototype);
try { fake.formatToParts(1); } catch (e) { out.push(e.name); }
try { Intl.DateTimeFormat.prototype.formatToParts.call({ handle: "{}" }, 0); } catch (e) { out.push(e.name); }
try { Object.getOwnPropertyDescriptor(Intl.Collator.prototype, "compare").get.call(fake); } catch (e) { out.push(e.name); }
try { new Intl.ListFormat("en").format.call(new Intl.NumberFormat(), ["a"]); } catch (e) { out.push(e.name); }
// A real formatter is unchanged by its prototype being tampered with.
const nf = new Intl.NumberFormat("en-US");
Intl.NumberFormat.prototype.resolvedOptions = () => ({ locale: "evil" });
out.push(nf.format(1234.5) === "1,234.5");
return out;
