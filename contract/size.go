package contract

// Sizes the contract fixes, which the layers that carry a request (the
// supervisor's wire to a child, ipc.DeriveWireCaps) derive their bounds
// from, and the one parser of sizes written as text.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

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

// sizeUnits are ParseSize's suffixes, longest first.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}}

// ParseSize reads a size in bytes: "1048576", "16MiB", "512KiB", "1GiB"
// (K, M and G are the same binary units, B is bytes). It refuses what is
// not a positive whole number of units, and a size that does not fit an
// int64 (9223372036854775807 bytes, just under 8 EiB) rather than let it
// wrap: "17179869184GiB" is 2^64 bytes, which wrapped to 0 and ran
// with the default. The one size syntax of Warden's flags and the attack
// corpus's headers.
func ParseSize(s string) (int64, error) {
	digits, mult := s, int64(1)
	for _, u := range sizeUnits {
		if d, ok := strings.CutSuffix(s, u.suffix); ok {
			digits, mult = d, u.mult
			break
		}
	}
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, fmt.Errorf("want a positive size like 16MiB, got %q", s)
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("size %q is over the largest size, %d bytes", s, int64(math.MaxInt64))
	}
	if n == 0 {
		return 0, fmt.Errorf("want a positive size like 16MiB, got %q", s)
	}
	return n * mult, nil
}
