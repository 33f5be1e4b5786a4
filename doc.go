// Package warden runs untrusted JavaScript (code an LLM wrote as a tool
// call, a user's snippet in a workflow node) in a sandbox and hands back
// a JSON envelope: one prespawned child process per execution, each
// holding a fresh QuickJS WebAssembly instance run by wazero, behind
// namespaces, a cgroup, rlimits and a seccomp filter, killed at its
// deadline. This package holds no code: it says which packages are
// Warden's API.
//
// # The API
//
// These packages are what a Go program may rely on; their exported names
// use only their own types and the standard library's:
//
//   - [github.com/wardenhq/warden/contract]: requests, results (the
//     envelope), limits, error types, events, the data-handler type.
//   - [github.com/wardenhq/warden/supervisor]: run executions in
//     sandboxed children (New, Execute, Stream, Close).
//   - [github.com/wardenhq/warden/client]: the same calls against a
//     `warden serve` daemon over HTTP.
//   - [github.com/wardenhq/warden/recording]: record a deterministic
//     execution (its request, every data answer, its envelope) and
//     replay it over any of the above.
//   - [github.com/wardenhq/warden/child]: only RunIfChild, which a
//     program embedding the supervisor calls at the top of main so that
//     its own binary can serve as the child.
//
// # The implementation
//
// Every other public package is Warden's implementation, not its API:
// its doc says so in one line, and it changes whenever Warden's
// internals do. They are public because a test, the warden binary or
// another implementation package needs them across the module:
// cgroup, child/engine, child/seccomp, ipc, ipc/pb, pool and server.
// The engine alone (child/engine, no process boundary) is not offered as
// an API: without the child process there is no kill at the deadline,
// no cgroup, no seccomp filter and no namespaces, which are most of
// Warden's layers of defence; `warden run --in-process` uses it for
// measuring and debugging. Packages under internal/ (the stress runner,
// the attack corpus, test kits) are the binary's and the tests'.
//
// The README gives the execution contract (what code may do, the limits,
// the error types); ARCHITECTURE.md the map of the packages; RATIONALE.md
// the reasons.
package warden

// promised lists the packages of the API, relative to the module.
var promised = []string{"contract", "supervisor", "client", "recording", "child"}

// implementation lists the other public packages (their doc comment
// carries implementationLine).
var implementation = []string{"cgroup", "child/engine", "child/engine/intl", "child/seccomp", "ipc", "ipc/pb", "pool", "server"}

// implementationLine is the sentence each implementation package's doc
// comment carries.
const implementationLine = "is Warden's implementation, not its API (package warden lists the API)"
