package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// wireCapsDataBytes is the data_bytes cap of
// TestEveryLimitAtItsCapCrossesTheWire: raised within the contract's cap,
// above the 33 MiB that one message from a child could carry before
// issue 18 (a host.request of 34 MiB then broke the wire), and as high as
// one answer can go under the memory cap without its child's cgroup
// OOM-killing it (the child holds an answer twice outside its heap: 64
// MiB were killed at the 372 MiB cgroup cap).
const wireCapsDataBytes = 40 << 20

// TestEveryLimitAtItsCapCrossesTheWire walks every limit the wire
// carries at its cap, through a real child: the largest value and logs,
// the largest error, input, code with modules, id, data request and data
// answer, and the most data requests. Each ends as the contract says
// (ok, or the guest's own error), never as a SandboxError: the message
// caps (ipc.DeriveWireCaps) and the wire budget (ipc.WireBudget) let
// through all that the limits allow.
func TestEveryLimitAtItsCapCrossesTheWire(t *testing.T) {
	if testing.Short() {
		t.Skip("sends hundreds of MiB through children")
	}
	s := newSup(t, func(c *Config) {
		c.Caps.DataBytes = wireCapsDataBytes
		c.PoolSize = 1
	})
	caps := s.cfg.Caps
	atCaps := contract.Limits{Timeout: caps.Timeout, MemoryBytes: caps.MemoryBytes, OutputBytes: caps.OutputBytes,
		CodeBytes: caps.CodeBytes, DataRequests: caps.DataRequests, DataBytes: caps.DataBytes}
	out := caps.OutputBytes
	// One log entry of t bytes makes logs of t+27 bytes of JSON
	// (contract.LogEntryCost, plus the brackets).
	logText := out - 27
	for _, c := range []struct {
		name    string
		req     contract.Request
		handler contract.DataHandler
		want    string // the value, or the error's message for a UserCodeError
	}{
		{name: "value and logs at the output cap",
			req:  contract.Request{Code: fmt.Sprintf(`console.log("l".repeat(%d)); return "v".repeat(%d)`, logText, out-2)},
			want: `"` + strings.Repeat("v", int(out-2)) + `"`},
		{name: "the largest error with logs at the output cap",
			req:  contract.Request{Code: fmt.Sprintf(`console.log("l".repeat(%d)); throw new Error("e".repeat(%d))`, logText, contract.MaxErrorBytes-4<<10)},
			want: strings.Repeat("e", contract.MaxErrorBytes-4<<10)},
		{name: "input at MaxInputBytes",
			req:  contract.Request{Code: `return input.length`, Input: json.RawMessage(`"` + strings.Repeat("i", int(s.cfg.MaxInputBytes)-2) + `"`)},
			want: strconv.Itoa(int(s.cfg.MaxInputBytes) - 2)},
		{name: "code and modules at the code cap, the id at its maximum",
			req:  codeAtCap(caps.CodeBytes),
			want: `"m00000"`},
		{name: "one data request at data_bytes",
			req: contract.Request{Code: fmt.Sprintf(`return await host.request("r", Array(%d).fill("a".repeat(%d)))`, wireCapsDataBytes>>20-1, 1<<20-3)},
			// The arguments: 63 strings of 1 MiB-3 'a's, quoted, a comma
			// after each but the last, in brackets: 63 MiB and 1 byte,
			// and the name's byte.
			handler: func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(strconv.Itoa(len(name) + len(args))), nil
			},
			want: strconv.Itoa((wireCapsDataBytes>>20-1)<<20 + 2)},
		{name: "one data answer at data_bytes",
			req: contract.Request{Code: `return (await host.request("r")).length`},
			handler: func(_ context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
				// "r" and "null" were sent; the answer fills the rest.
				return json.RawMessage(`"` + strings.Repeat("d", wireCapsDataBytes-len(name)-len("null")-2) + `"`), nil
			},
			want: strconv.Itoa(wireCapsDataBytes - 1 - 4 - 2)},
		{name: "the most data requests",
			req: contract.Request{Code: fmt.Sprintf(`let n = 0; for (let i = 0; i < %d; i++) n += await host.request("r", i); return n`, caps.DataRequests)},
			handler: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`1`), nil
			},
			want: strconv.Itoa(int(caps.DataRequests))},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := c.req
			req.Limits = atCaps
			start := time.Now()
			res, err := s.Execute(context.Background(), req, c.handler)
			t.Logf("%v: %v, child peak %d MiB", time.Since(start).Round(time.Millisecond), err, res.Stats.CgroupPeakBytes>>20)
			got := string(res.Value)
			if res.Error != nil && res.Error.Type == contract.UserCodeError {
				got = res.Error.Message
			} else if err != nil {
				t.Fatalf("want %.40q…, got %v", c.want, err)
			}
			if got != c.want {
				t.Fatalf("got %d bytes %.40q…, want %d bytes %.40q…", len(got), got, len(c.want), c.want)
			}
		})
	}
}

// codeAtCap is a request whose code and modules take exactly codeBytes
// (as contract.Request.CodeSize counts them), in the shape that costs the
// wire the most per byte: as many modules as fit, each a short name with
// an empty source, besides a code padded with a comment. Its id is as long
// as an id may be.
func codeAtCap(codeBytes int64) contract.Request {
	req := contract.Request{ID: strings.Repeat("i", contract.MaxIDBytes), Modules: map[string]string{},
		Code: `return (await import("m00000")).default //`}
	req.Modules["m00000"] = `export default "m00000"`
	for i := 1; int64(i) < codeBytes/12; i++ {
		req.Modules[fmt.Sprintf("m%05d", i)] = ""
	}
	req.Code += strings.Repeat("c", int(codeBytes-req.CodeSize()))
	return req
}

// TestOverTheWireBoundsFailBeforeAChild: what the wire's caps count on
// the supervisor refusing, it refuses before it takes a child: code over
// its limit (the engine's ResourceError, made here), an id over
// contract.MaxIDBytes.
func TestOverTheWireBoundsFailBeforeAChild(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 1 })
	big := codeAtCap(contract.DefaultLimits.CodeBytes)
	big.Code += "c"
	res, err := s.Execute(context.Background(), big, nil)
	if !errors.Is(err, contract.ErrResource) || res.Error.Kind != contract.KindCode || res.Stats.ChildPID != 0 {
		t.Fatalf("code one byte over its limit: %v (child %d)", err, res.Stats.ChildPID)
	}
	res, err = s.Execute(context.Background(), contract.Request{ID: strings.Repeat("i", contract.MaxIDBytes+1), Code: "return 1"}, nil)
	if !errors.Is(err, contract.ErrContract) || !strings.Contains(err.Error(), "id") || res.Stats.ChildPID != 0 {
		t.Fatalf("an id one byte over its maximum: %v (child %d)", err, res.Stats.ChildPID)
	}
}

// Caps whose largest message is over what gRPC carries are refused by
// New, instead of failing each execution that uses them as a
// SandboxError.
func TestCapsTheWireCannotCarryAreRefused(t *testing.T) {
	for _, c := range []Config{
		{Caps: contract.Limits{OutputBytes: 1 << 30}},
		{Caps: contract.Limits{DataBytes: 4 << 30}},
		{MaxInputBytes: 3 << 30},
	} {
		c.CacheDir = cacheDir
		s, err := New(c)
		if err == nil {
			s.Close(context.Background())
			t.Fatalf("%+v: New accepted caps the wire cannot carry", c)
		}
		if !strings.Contains(err.Error(), "gRPC carries") {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
