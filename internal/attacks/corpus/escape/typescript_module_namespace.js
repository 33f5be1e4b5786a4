// expect: ok
// category: escape
// language: typescript
// format: module
// value: {"ns":3,"enum":"B","decorated":"wrapped"}
// source: original (namespaces, enums and decorators lowered by esbuild run as code, with nothing of the host)
namespace N { export const x = 3; }
enum E { A, B }
function wrap(target: any, ctx: ClassMethodDecoratorContext) { return function () { return "wrapped"; }; }
class C { @wrap m() { return "plain"; } }
export default { ns: N.x, enum: E[1], decorated: new C().m() };
