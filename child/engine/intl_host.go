package engine

import (
	"errors"

	"github.com/wardenhq/warden/child/engine/intl"
)

// hostFnIntl serves the prelude's Intl global (web/70-intl.js): an
// operation and its two arguments, all strings; the work is package
// intl's.
const hostFnIntl = "warden_intl"

// maxIntlArg bounds what one Intl call copies out of guest memory: a
// locale list, an options record or a value to format is far smaller
// but for a number string (which Node reads whole: beyond 308 integer
// digits it is an infinity, and fraction digits past the rounding cost
// nothing).
const maxIntlArg = 16 << 20

// hostIntl answers intl.Call's result, or "\0Name\0message" for the
// exception the guest is to see (the prelude throws it).
func (vm *VM) hostIntl(op, a, b guestString) uint32 {
	var args [3]string
	for i, s := range []guestString{op, a, b} {
		if int64(s.n) > maxIntlArg {
			return vm.returnString("\x00RangeError\x00Intl argument over 16 MiB")
		}
		text, err := vm.utf8String(s)
		if err != nil {
			return vm.throwError("warden: bad host call arguments")
		}
		args[i] = text
	}
	out, err := intl.Call(args[0], args[1], args[2])
	var ie *intl.Error
	switch {
	case errors.As(err, &ie):
		return vm.returnString("\x00" + ie.Name + "\x00" + ie.Message)
	case err != nil:
		return vm.throwError("warden: Intl: " + err.Error())
	}
	return vm.returnString(out)
}
