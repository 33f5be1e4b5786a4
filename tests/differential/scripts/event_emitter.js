// A small event emitter class: on, once, off, wildcard listeners and
// listener errors collected rather than thrown.
class Emitter {
  #handlers = new Map();
  on(evt, fn) { (this.#handlers.get(evt) ?? this.#handlers.set(evt, []).get(evt)).push(fn); return () => this.off(evt, fn); }
  once(evt, fn) { const w = (...a) => { this.off(evt, w); fn(...a); }; return this.on(evt, w); }
  off(evt, fn) { const l = this.#handlers.get(evt); if (l) this.#handlers.set(evt, l.filter((f) => f !== fn)); }
  emit(evt, ...args) {
    const errors = [];
    for (const fn of [...(this.#handlers.get(evt) ?? []), ...(this.#handlers.get("*") ?? [])]) {
      try { fn(...args, evt); } catch (e) { errors.push(e.message); }
    }
    return errors;
  }
}
const e = new Emitter();
const log = [];
const offA = e.on("data", (x) => log.push(`a:${x}`));
e.once("data", (x) => log.push(`once:${x}`));
e.on("*", (x, evt) => log.push(`*:${evt}:${x}`));
e.on("data", (x) => { if (x === 2) throw new Error(`bad value ${x}`); });
const errs = [e.emit("data", 1), e.emit("data", 2)];
offA();
e.emit("data", 3);
e.emit("other", 4);
return { log, errs };
