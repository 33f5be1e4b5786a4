//go:build wardenfaults

package tests

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// These tests attack the wire from a taken-over child (fault cases in
// child/faults.go): the supervisor trusts nothing a child sends.

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestBrokerFloodIsKilled: a child sends 128 MiB through go-plugin's
// broker, 1 MiB per message, each for a new stream id (go-plugin keeps
// one message per id). The supervisor must kill it at its wire budget
// (a few MiB for these limits), end the execution with a SandboxError
// that says so, and not hold what the child sent.
func TestBrokerFloodIsKilled(t *testing.T) {
	s := newSupervisor(t, nil)
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatalf("warm-up: %v", err)
	}
	before := heapAfterGC()
	in, _ := json.Marshal("128,1048576")
	req := contract.Request{Code: "//fault:broker", Input: in, Limits: contract.Limits{
		Timeout: 10 * time.Second, OutputBytes: 64 << 10, DataRequests: 10, DataBytes: 64 << 10}}
	done := make(chan contract.Result, 1)
	start := time.Now()
	go func() {
		res, _ := s.Execute(context.Background(), req, nil)
		done <- res
	}()
	var res contract.Result
	var finished bool
	select {
	case res = <-done:
		finished = true
	case <-time.After(4 * time.Second):
	}
	// Measured while a child that was not stopped would still be alive.
	during := heapAfterGC()
	if !finished {
		res = <-done
	}
	t.Logf("after %v: %+v; supervisor heap %d -> %d bytes", time.Since(start), res.Error, before, during)
	if res.OK || res.Error.Type != contract.SandboxError || !strings.Contains(res.Error.Message, "wire budget") {
		t.Errorf("want a SandboxError about the wire budget, got %+v", res.Error)
	}
	if during > before+32<<20 {
		t.Errorf("the supervisor's heap grew by %d MiB while the child flooded its broker", (during-before)>>20)
	}
	requireServing(t, s)
}

// TestNonJSONResultIsSandboxError: a result value that is not JSON never
// reaches the caller.
func TestNonJSONResultIsSandboxError(t *testing.T) {
	s := newSupervisor(t, nil)
	res := fault(t, s, "badvalue", "")
	if res.OK || res.Error.Type != contract.SandboxError || !strings.Contains(res.Error.Message, "not JSON") {
		t.Fatalf("want a SandboxError about a value that is not JSON, got ok=%t value=%s error=%+v", res.OK, res.Value, res.Error)
	}
	if res.Value != nil {
		t.Errorf("the caller got the child's value %q", res.Value)
	}
}

// TestNonUTF8ResultIsSandboxError: a result value that is JSON but not
// UTF-8 (what a taken-over child could send; the engine escapes lone
// surrogates) never reaches the caller either.
func TestNonUTF8ResultIsSandboxError(t *testing.T) {
	s := newSupervisor(t, nil)
	res := fault(t, s, "wtf8value", "")
	if res.OK || res.Error.Type != contract.SandboxError || !strings.Contains(res.Error.Message, "not valid UTF-8") {
		t.Fatalf("want a SandboxError about a value that is not UTF-8, got ok=%t value=%q error=%+v", res.OK, res.Value, res.Error)
	}
	if res.Value != nil {
		t.Errorf("the caller got the child's value %q", res.Value)
	}
}
