// structuredClone keeps shared references and cycles, and drops class
// identity (a class instance becomes a plain object).
class Node { constructor(name) { this.name = name; this.links = []; } get upper() { return this.name.toUpperCase(); } }
const a = new Node("a"), b = new Node("b");
a.links.push(b); b.links.push(a); a.self = a;
const shared = { v: 1 };
const holder = { x: shared, y: shared, nodes: [a, b] };
const c = structuredClone(holder);
return {
  cycle: c.nodes[0].links[0].links[0] === c.nodes[0],
  self: c.nodes[0].self === c.nodes[0],
  shared: c.x === c.y && c.x !== shared,
  classLost: [c.nodes[0] instanceof Node, Object.getPrototypeOf(c.nodes[0]) === Object.prototype, c.nodes[0].upper === undefined],
  keys: Object.keys(c.nodes[0]),
};
