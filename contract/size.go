package contract

// Sizes the contract fixes, which the layers that carry a request (the
// supervisor's wire to a child, ipc.DeriveWireCaps) derive their bounds
// from.

// MaxErrorBytes bounds the description of an error thrown by the guest:
// its name, message and stack, as JSON. The engine describes a thrown
// value within it (or falls back to a fixed message), so a result's error
// carries at most this much besides a sentence of the engine's own.
const MaxErrorBytes = 1 << 20

// MaxIDBytes bounds a request's ID, which every event of the execution
// echoes: a longer one is a ContractError. (The daemon's ids are at most
// 64 bytes.)
const MaxIDBytes = 256

// CodeSize is what a request counts against its code limit: the code,
// and every module's name and source.
func (r Request) CodeSize() int64 {
	size := int64(len(r.Code))
	for name, src := range r.Modules {
		size += int64(len(name) + len(src))
	}
	return size
}

// CheckCodeSize returns the ResourceError of kind code for a request whose
// CodeSize is over limits.CodeBytes, and nil otherwise. The engine and the
// supervisor (before the request crosses the wire) check it alike.
func CheckCodeSize(r Request, limits Limits) *Error {
	if size := r.CodeSize(); size > limits.CodeBytes {
		return ResourceErrorf(KindCode, "code is %d bytes, over the %d-byte limit", size, limits.CodeBytes)
	}
	return nil
}

// CheckID returns the ContractError for an ID over MaxIDBytes.
func CheckID(id string) *Error {
	if len(id) > MaxIDBytes {
		return Errorf(ContractError, "the execution id is %d bytes, over the %d-byte maximum", len(id), MaxIDBytes)
	}
	return nil
}
