// Parse an INI-style config with sections, comments, quoted values,
// booleans and numbers.
const out = {};
let section = out;
const errors = [];
input.split(/\r?\n/).forEach((raw, i) => {
  const line = raw.replace(/\s+[;#].*$/, "").trim();
  if (!line || line.startsWith(";") || line.startsWith("#")) return;
  const sec = line.match(/^\[([^\]]+)\]$/);
  if (sec) {
    section = sec[1].split(".").reduce((o, k) => (o[k.trim()] ??= {}), out);
    return;
  }
  const kv = line.match(/^([\w.-]+)\s*=\s*(.*)$/);
  if (!kv) return errors.push(`line ${i + 1}: ${raw.trim()}`);
  let v = kv[2];
  if (/^".*"$/.test(v)) v = JSON.parse(v);
  else if (/^(true|yes|on)$/i.test(v)) v = true;
  else if (/^(false|no|off)$/i.test(v)) v = false;
  else if (v !== "" && !isNaN(v)) v = Number(v);
  section[kv[1]] = v;
});
return { config: out, errors };
