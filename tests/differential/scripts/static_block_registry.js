// Static initialisation blocks registering plugins, static inheritance,
// and class fields with arrow functions bound to the instance.
class Plugin {
  static registry = new Map();
  static { this.registry.set("base", this); }
  static register(cls) { Plugin.registry.set(cls.id, cls); return cls; }
  label = `plugin:${this.constructor.id ?? "base"}`;
  run = (x) => `${this.label}(${x})`;
}
class Upper extends Plugin {
  static id = "upper";
  static { Plugin.register(this); }
  run = (x) => String(x).toUpperCase();
}
class Reverse extends Plugin {
  static id = "reverse";
  static { Plugin.register(this); }
  run = (x) => [...String(x)].reverse().join("");
}
const pipeline = ["upper", "reverse", "base"].map((id) => new (Plugin.registry.get(id))());
const detached = pipeline.map((p) => p.run);
return {
  ids: [...Plugin.registry.keys()],
  result: detached.reduce((v, f) => f(v), "hello"),
  labels: pipeline.map((p) => p.label),
  inheritedStatic: [Object.hasOwn(Upper, "registry"), Upper.registry === Plugin.registry, typeof Upper.register],
};
