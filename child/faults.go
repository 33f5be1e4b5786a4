//go:build wardenfaults

package child

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/wardenhq/warden/contract"
)

// This file and faults_*.go exist only in test builds (go test -tags
// wardenfaults): they let tests make the child's Go side misbehave in
// ways no script can, to prove that the layers below the interpreter hold
// on their own. A request whose code starts with "//fault:NAME" runs
// fault NAME (its input is the fault's argument) instead of the script.
func init() {
	faultHook = runFault
}

// A fault runs with its argument. It returns the result the child sends,
// or nil for `"fault NAME succeeded"`; an error is sent as the fault's
// UserCodeError.
type fault func(ctx context.Context, arg string) (*contract.Result, error)

// faults is every fault by name: the ones that report what the child can
// see or do (faults_probe.go), that try to leave the sandbox
// (faults_escape.go), and that overload the child or break its result
// (faults_overload.go).
var faults = map[string]fault{
	// faults_probe.go
	"uid":      probeUID,
	"rlimits":  probeRlimits,
	"dumpable": probeDumpable,
	"pagemap":  probePagemap,
	"pidview":  probePidView,
	// faults_escape.go
	"exec":       escapeExec,
	"fork":       escapeFork,
	"forkbomb":   escapeForkBomb,
	"connect":    escapeConnect,
	"write":      escapeWrite,
	"neighbours": escapeNeighbours,
	// faults_overload.go
	"burn":      overloadBurn,
	"oom":       overloadOOM,
	"broker":    overloadBroker,
	"flood":     resultFlood,
	"badvalue":  resultBadValue,
	"wtf8value": resultWTF8Value,
	"parkjunk":  parkJunk,
	"parkhuge":  parkHuge,
}

// runFault is faultHook: it runs the fault req names, if it names one.
func runFault(ctx context.Context, req contract.Request) (contract.Result, bool) {
	name, ok := strings.CutPrefix(strings.SplitN(req.Code, "\n", 2)[0], "//fault:")
	if !ok {
		return contract.Result{}, false
	}
	var arg string
	if len(req.Input) > 1 {
		arg = strings.Trim(string(req.Input), `"`)
	}
	run, ok := faults[name]
	if !ok {
		return faultFailed(name, os.ErrInvalid), true
	}
	res, err := run(ctx, arg)
	switch {
	case err != nil:
		return faultFailed(name, err), true
	case res == nil:
		return faultValue([]byte(`"fault ` + name + ` succeeded"`)), true
	}
	return *res, true
}

func faultFailed(name string, err error) contract.Result {
	return contract.Result{Error: &contract.Error{Type: contract.UserCodeError, Message: "fault " + name + ": " + err.Error()}, Logs: []contract.LogEntry{}}
}

// faultValue is a fault's successful result with value as it is (JSON or
// not: some faults send a broken one on purpose).
func faultValue(value []byte) contract.Result {
	return contract.Result{OK: true, Value: value, Logs: []contract.LogEntry{}}
}

// quoted is a result whose value is the JSON string s.
func quoted(s string) (*contract.Result, error) {
	res := faultValue([]byte(strconv.Quote(s)))
	return &res, nil
}

// report is a result whose value is v as JSON.
func report(v any) (*contract.Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	res := faultValue(b)
	return &res, nil
}
