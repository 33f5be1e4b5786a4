// Flatten a nested category tree into breadcrumb paths with depth.
const out = [];
function walk(nodes, trail) {
  for (const n of nodes) {
    const path = [...trail, n.name];
    out.push({ id: n.id, path: path.join(" > "), depth: trail.length, leaf: !n.children?.length });
    if (n.children) walk(n.children, path);
  }
}
walk(input.tree, []);
return { total: out.length, leaves: out.filter((n) => n.leaf).map((n) => n.id), rows: out };
