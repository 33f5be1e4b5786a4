package engine

import (
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestClassificationIgnoresWhatTheGuestSays: a thrown value that only
// says it is a resource limit (its name and message) is the guest's own
// error, even after the guest caught a real stack overflow (which leaves
// the shadow stack's peak at the limit) or filled its heap.
func TestClassificationIgnoresWhatTheGuestSays(t *testing.T) {
	const overflowCaught = "function f(){ return f() + 1 } try { f() } catch (e) {} "
	tests := []struct{ name, code string }{
		{"InternalError stack overflow object", overflowCaught + `throw {name: "InternalError", message: "stack overflow"}`},
		{"RangeError object", overflowCaught + `throw {name: "RangeError", message: "Maximum call stack size exceeded"}`},
		{"SyntaxError object", overflowCaught + `throw {name: "SyntaxError", message: "stack overflow"}`},
		{"RangeError-shaped object with an Error prototype", overflowCaught + `throw Object.assign(Object.create(RangeError.prototype), {name: "RangeError", message: "Maximum call stack size exceeded"})`},
		{"InternalError stack overflow object, async", overflowCaught + `await null; throw {name: "InternalError", message: "stack overflow"}`},
		{"out of memory object", `throw {name: "InternalError", message: "out of memory"}`},
		{"interrupted object", `throw {name: "InternalError", message: "interrupted"}`},
		{"output limit text", `throw new Error("result is 5000000 bytes of JSON, over the 1048576-byte output limit")`},
		{"data limit text", `throw {name: "ResourceError", message: "data_bytes", kind: "data_bytes", type: "ResourceError"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runCode(t, tt.code)
			check(t, res, want{errType: contract.UserCodeError})
			if res.Error.Kind != "" {
				t.Fatalf("kind %q on a UserCodeError", res.Error.Kind)
			}
		})
	}
	// The reverse: the engine's own overflow, uncaught, stays a stack
	// ResourceError, also after an earlier one was caught.
	check(t, runCode(t, overflowCaught+"return f()"), want{errType: contract.ResourceError, kind: contract.KindStack})
	check(t, runCode(t, overflowCaught+"await null; return f()"), want{errType: contract.ResourceError, kind: contract.KindStack})
}
