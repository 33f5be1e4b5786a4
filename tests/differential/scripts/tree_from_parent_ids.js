// Build a nested tree from flat rows with parentId, as comment threads or
// org charts come out of a database, and compute subtree sizes.
const byId = new Map(input.map((r) => [r.id, { ...r, children: [] }]));
const roots = [];
for (const node of byId.values()) {
  const parent = node.parentId == null ? null : byId.get(node.parentId);
  if (parent) parent.children.push(node);
  else roots.push(node);
}
const size = (n) => 1 + n.children.reduce((s, c) => s + size(c), 0);
const render = (n, depth = 0) => [`${"  ".repeat(depth)}${n.name} (${size(n)})`, ...n.children.flatMap((c) => render(c, depth + 1))];
return roots.flatMap((r) => render(r));
