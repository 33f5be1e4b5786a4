// Class hierarchy with super calls, overrides, toString and instanceof.
class Shape {
  constructor(name) { this.name = name; }
  area() { return 0; }
  describe() { return `${this.name} with area ${this.area().toFixed(2)}`; }
  toString() { return `[${this.constructor.name} ${this.name}]`; }
}
class Rect extends Shape {
  constructor(w, h) { super("rect"); this.w = w; this.h = h; }
  area() { return this.w * this.h; }
}
class Square extends Rect {
  constructor(s) { super(s, s); this.name = "square"; }
  describe() { return super.describe() + " (regular)"; }
}
class Circle extends Shape {
  constructor(r) { super("circle"); this.r = r; }
  area() { return Math.PI * this.r ** 2; }
}
const shapes = [new Rect(2, 3.5), new Square(4), new Circle(1.5)];
return {
  described: shapes.map((s) => s.describe()),
  strings: shapes.map(String),
  checks: shapes.map((s) => [s instanceof Shape, s instanceof Rect, Object.getPrototypeOf(Object.getPrototypeOf(s)).constructor.name]),
  total: +shapes.reduce((a, s) => a + s.area(), 0).toFixed(4),
  json: JSON.stringify(shapes[1]),
  ownKeys: Object.keys(shapes[2]),
  names: [Shape.name, Square.name, typeof Square, Object.getOwnPropertyNames(Square.prototype)],
};
