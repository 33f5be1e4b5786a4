package engine

import "testing"

// Each web global behaves as Node 20's on the same code (sameAsNode).

func TestDOMExceptionAsNode(t *testing.T) {
	sameAsNode(t, `const e = new DOMException("bad", "InvalidCharacterError");
		return [e.name, e.message, e.code, e instanceof Error, String(e), DOMException.INVALID_CHARACTER_ERR,
			Object.prototype.toString.call(e), typeof e.stack, new DOMException().name, new DOMException().message,
			new DOMException("x", "QuotaExceededError").code, new DOMException("x", "DataCloneError").code,
			new DOMException("x", "AbortError").code, new DOMException("x", "TimeoutError").code, new DOMException("x", "NoSuchName").code,
			Object.keys(e), DOMException.name, DOMException.length, Object.getOwnPropertyNames(DOMException.prototype).sort()]`, "")
	sameAsNode(t, `try { DOMException("x") } catch (e) { return e instanceof TypeError }`, "")
}
