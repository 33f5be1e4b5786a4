package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/typescript"
)

// The code's forms and languages: a function body or an ES module, in
// JavaScript or TypeScript. TypeScript is turned into JavaScript here,
// in the execution's own child (internal/typescript says why it never
// runs in the supervisor), and positions in stacks are mapped back to
// it through the source map (mapOrigin).

// codeFile is the file name the engine gives the code in either form.
const codeFile = "<code>"

// transpiled is the request's TypeScript made JavaScript, before the
// execution's thread is locked (Run): esbuild runs goroutines of its
// own, and each switch to them from a locked thread is a hand-off
// between OS threads (it tripled a transform's wall time in a child).
type transpiled struct {
	// code is the JavaScript the code runs as; module is set when it is
	// certainly a module (its format says so, or it is TypeScript that
	// parses only as one). JavaScript in the default format is found to
	// be a module later (execute), by QuickJS's parser.
	code   string
	module bool
	err    *contract.Error
	// maps are the source maps back to the TypeScript, by file; modules
	// the JavaScript of each .ts module, and moduleErrs the syntax error
	// of each that did not parse (thrown if it is imported).
	maps       map[string]*typescript.Result
	modules    map[string]string
	moduleErrs map[string]string
}

// transpile strips the types of req's TypeScript: its code, when it is
// TypeScript, and each module whose name ends in ".ts".
func transpile(req contract.Request) *transpiled {
	t := &transpiled{code: req.Code, module: req.Format == contract.FormatModule}
	for name, src := range req.Modules {
		if !contract.IsTypeScriptModule(name) {
			continue
		}
		r, err := typescript.Module(src)
		if err != nil {
			if t.moduleErrs == nil {
				t.moduleErrs = map[string]string{}
			}
			t.moduleErrs[name] = "SyntaxError: " + typeScriptError(name, err).Message + positionOf(err)
			continue
		}
		t.add(name, r)
		if t.modules == nil {
			t.modules = map[string]string{}
		}
		t.modules[name] = r.Code
	}
	if !req.IsTypeScript() {
		return t
	}
	var r *typescript.Result
	var err error
	switch req.Format {
	case contract.FormatModule:
		r, err = typescript.Module(req.Code)
	case contract.FormatBody:
		r, err = typescript.Body(req.Code)
	default:
		r, err = typescript.Body(req.Code)
		if bodyErr, ok := err.(*typescript.SyntaxError); ok {
			if r, err = typescript.Module(req.Code); err == nil {
				t.module = true
			} else if modErr, ok := err.(*typescript.SyntaxError); ok && !after(modErr.Line, modErr.Column, bodyErr.Line, bodyErr.Column) {
				err = bodyErr
			}
		}
	}
	if err != nil {
		t.err = typeScriptError(codeFile, err)
		return t
	}
	t.add(codeFile, r)
	t.code = r.Code
	return t
}

// add records the map back from file's JavaScript to its TypeScript.
func (t *transpiled) add(file string, r *typescript.Result) {
	if t.maps == nil {
		t.maps = map[string]*typescript.Result{}
	}
	t.maps[file] = r
}

// typeScriptError is the envelope's error for TypeScript esbuild could
// not parse: a SyntaxError at the user's position, with Node's arrow
// above its stack, as the engine's own syntax errors have.
func typeScriptError(file string, err error) *contract.Error {
	se, ok := err.(*typescript.SyntaxError)
	if !ok {
		return contract.Errorf(contract.SandboxError, "engine: TypeScript: %v", err)
	}
	e := &contract.Error{Type: contract.UserCodeError, Name: "SyntaxError", Message: se.Message}
	if se.Line < 1 {
		e.Stack = "SyntaxError: " + se.Message
		return e
	}
	caret := make([]byte, 0, se.Column)
	for i, u := 0, 0; i < len(se.LineText) && u < se.Column; i++ {
		if se.LineText[i]&0xc0 == 0x80 {
			continue
		}
		u++
		if se.LineText[i] == '\t' {
			caret = append(caret, '\t')
		} else {
			caret = append(caret, ' ')
		}
	}
	pos := strconv.Itoa(se.Line)
	e.Stack = file + ":" + pos + "\n" + se.LineText + "\n" + string(caret) + "^\n\nSyntaxError: " + se.Message +
		"\n    at " + file + ":" + pos + ":" + strconv.Itoa(se.Column+1)
	if file != codeFile {
		e.Message += " (in module " + strconv.Quote(file) + ")"
	}
	return e
}

// mapOrigin answers the source host function's position form ("L:C",
// 1-based, in the JavaScript the engine ran): "1L:C" in the TypeScript
// file was written in, or "0" for a file that was not TypeScript.
func (x *execution) mapOrigin(file, position string) uint32 {
	var r *typescript.Result
	if x.ts != nil {
		r = x.ts.maps[file]
	}
	l, c, ok := strings.Cut(position, ":")
	line, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	if r == nil || !ok || err1 != nil || err2 != nil || col < 1 {
		return x.vm.returnString("0")
	}
	ol, oc, ok := r.Original(line, col-1)
	if !ok {
		return x.vm.returnString("0")
	}
	return x.vm.returnString("1", strconv.Itoa(ol), ":", strconv.Itoa(oc+1))
}

// setSource makes text the code's, as the source host function answers
// for codeFile.
func (x *execution) setSource(text string) {
	x.source = text
	delete(x.lineStarts, codeFile)
}

// moduleSource is the JavaScript of the request's module name, for the
// loader: its source, or for a TypeScript module the JavaScript its
// types were stripped to (transpile). ok is false, with the message to throw, when
// there is no such module or its TypeScript does not parse.
func (x *execution) moduleSource(name string) (src string, ok bool, message string) {
	if x.ph == phaseDone {
		return "", false, "cannot find module " + strconv.Quote(name) + ": the execution is over"
	}
	// While the code compiles (phaseCompile) a module's imports are
	// loaded, which compiles them: none of their code runs until the
	// code does, with host functions open.
	if x.ts != nil {
		if msg, bad := x.ts.moduleErrs[name]; bad {
			return "", false, msg
		}
		if js, ok := x.ts.modules[name]; ok {
			return js, true, ""
		}
	}
	src, found := x.modules[name]
	if !found {
		return "", false, "cannot find module " + strconv.Quote(name) + ": only the modules given with the request can be imported"
	}
	return src, true, ""
}

// positionOf is " at LINE:COLUMN" of a TypeScript syntax error, or "".
func positionOf(err error) string {
	if se, ok := err.(*typescript.SyntaxError); ok && se.Line > 0 {
		return " at " + strconv.Itoa(se.Line) + ":" + strconv.Itoa(se.Column+1)
	}
	return ""
}

// moduleText is the text of file the engine ran, for the source host
// function: the code's, or a module's as the loader gave it.
func (x *execution) moduleText(file string) (string, bool) {
	if file == codeFile {
		return x.source, true
	}
	if x.ts != nil {
		if js, ok := x.ts.modules[file]; ok {
			return js, true
		}
	}
	src, ok := x.modules[file]
	return src, ok
}

// moduleSourceText wraps module code so that its lines are where the
// body's are in its wrapper: from the second line on, with one line
// after it (the prelude's mapPosition counts on both).
func moduleSourceText(code string) string { return "\n" + code + "\n" }

// compileModule compiles code as a module without running it (host
// functions closed): nil when it compiles, else its error.
func (x *execution) compileModule(code string) *contract.Error {
	x.setSource(moduleSourceText(code))
	x.ph = phaseCompile
	if _, err := x.vm.compileScript(x.source, codeFile, evalFlagModule, 0); err != nil {
		return x.classify(err)
	}
	return nil
}

// executeModule evaluates code as a module, with host functions open
// (its top level is the user's code), and settles the promise of its
// result: the default export, called with input when it is a function.
func (x *execution) executeModule(code, input string) (string, *contract.Error) {
	vm := x.vm
	x.setSource(moduleSourceText(code))
	modeBox, err := vm.newString(x.modeText())
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(modeBox)
	inBox, err := vm.newString(input)
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(inBox)
	x.ph = phaseRun
	if _, err := vm.callFunction(vm.api.setTimers, modeBox); err != nil {
		return "", x.classify(err)
	}
	evaluation, err := vm.evalCode(x.source, codeFile, evalFlagModule)
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(evaluation)
	promise, err := vm.callFunction(vm.api.runModule, evaluation, inBox)
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(promise)
	return x.settleResult(promise)
}

// furthest is, of the errors the code gave compiled as a body (a syntax
// error) and as a module, the one to report. A module's error that is
// not a syntax error in the code itself (a module it imports is missing
// or does not parse) means the code is a module. Otherwise it is the
// syntax error the parser reached further into the code with: the form
// the code was more likely written in; a tie is the body's.
func furthest(body, module *contract.Error) *contract.Error {
	ml, mc, ok := stackPosition(module.Stack)
	if module.Name != "SyntaxError" || !ok {
		return module
	}
	if bl, bc, ok := stackPosition(body.Stack); ok && !after(ml, mc, bl, bc) {
		return body
	}
	return module
}

// after reports whether line:col a is past line:col b.
func after(al, ac, bl, bc int) bool { return al > bl || al == bl && ac > bc }

// stackPosition reads the position of a syntax error's stack: its last
// line, "    at <code>:L:C".
func stackPosition(stack string) (line, col int, ok bool) {
	last := stack[strings.LastIndexByte(stack, '\n')+1:]
	rest, found := strings.CutPrefix(last, "    at "+codeFile+":")
	if !found {
		return 0, 0, false
	}
	l, c, found := strings.Cut(rest, ":")
	line, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	return line, col, found && err1 == nil && err2 == nil
}

// warmUpTypeScript is what WarmTypeScript transforms: the syntax tool
// code is made of (interfaces and type aliases, generics, an enum, a
// class with parameter properties, private and static members and a
// getter, a decorator, arrow functions, destructuring, template
// literals, optional chaining and nullish assignment, async code), so
// that the paths a request's transform takes are warm.
const warmUpTypeScript = `interface Item<T = unknown> { id: string; value?: T; tags: readonly string[] }
type Index<T> = Record<string, Item<T>> & { size: number };
enum Kind { A = "a", B = "b" }
declare const dropped: number;
function logged(target: any, ctx: ClassMethodDecoratorContext) { return target; }
abstract class Base<T> { protected abstract name(): string; static count = 0; #secret = 1; get secret(): number { return this.#secret; } }
class Store<T extends object> extends Base<T> implements Iterable<Item<T>> {
  private readonly items = new Map<string, Item<T>>();
  constructor(public readonly label: string, private limit = 10) { super(); Base.count++; }
  protected name(): string { return ` + "`store ${this.label}`" + `; }
  @logged add(item: Item<T>): this { this.items.set(item.id, item); return this; }
  *[Symbol.iterator](): Iterator<Item<T>> { yield* this.items.values(); }
  async first(): Promise<Item<T> | undefined> { for (const it of this) return it; return undefined; }
}
const pick = <T, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> => Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;
const { a = 1, ...rest }: { a?: number; [k: string]: unknown } = input ?? {};
let cache: Index<number> | null = null;
cache ??= { size: 0 } as Index<number>;
const n = (globalThis as { external?: { n: number } }).external?.n ?? (rest.b as number | undefined) ?? a;
const s = new Store<{ x: number }>("s").add({ id: "1", tags: [Kind.A] });
return { n, first: (await s.first())?.id, picked: pick({ x: 1, y: 2 }, "x"), kinds: Object.values(Kind), size: cache.size } satisfies object;`

// WarmTypeScript runs one small transform, for a child of the
// TypeScript profile during its start-up: esbuild's first transform in
// a process pays for its lazy set-up (about 2 ms here, against 0.7 ms
// for a 3 KB script once warm: BENCHMARKS.md), which no request should.
func WarmTypeScript() error {
	if _, err := typescript.Body(warmUpTypeScript); err != nil {
		return fmt.Errorf("engine: warm the TypeScript transform: %w", err)
	}
	return nil
}
