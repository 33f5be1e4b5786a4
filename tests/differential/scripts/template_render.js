// A mustache-like template: {{path.to.value}}, {{#list}}...{{/list}},
// {{value | upper}} filters, HTML-escaped by default, {{{raw}}} not.
const filters = { upper: (s) => String(s).toUpperCase(), money: (n) => `$${Number(n).toFixed(2)}`, len: (a) => a.length };
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const get = (ctx, path) => path === "." ? ctx : path.split(".").reduce((o, k) => (o == null ? undefined : o[k]), ctx);
function render(tpl, ctx) {
  tpl = tpl.replace(/\{\{#(\w+)\}\}([\s\S]*?)\{\{\/\1\}\}/g, (_, key, inner) => {
    const v = get(ctx, key);
    return Array.isArray(v) ? v.map((item) => render(inner, typeof item === "object" ? { ...ctx, ...item } : { ...ctx, ".": item })).join("") : v ? render(inner, ctx) : "";
  });
  tpl = tpl.replace(/\{\{\{\s*([\w.]+)\s*\}\}\}/g, (_, p) => get(ctx, p) ?? "");
  return tpl.replace(/\{\{\s*([\w.]+)\s*(?:\|\s*(\w+)\s*)?\}\}/g, (_, p, f) => {
    let v = p === "." ? ctx["."] : get(ctx, p);
    if (v === undefined) return "";
    if (f) v = filters[f](v);
    return esc(v);
  });
}
return render(input.template, input.data).split("\n");
