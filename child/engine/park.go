package engine

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"
	"unsafe"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/pagemap"
)

// A parked execution's state, as the engine writes it: parkMagic, the
// header's length (4 bytes, little-endian), the header as JSON, then the
// memory it carries, compressed (DEFLATE). The memory is the pages that
// differ from the heap snapshot the VM was restored from: on Linux the
// pages the kernel says were written (private, not the snapshot file's
// own), elsewhere all of it. The resumed VM is restored from the same
// snapshot and gets these pages on top. Everything else the execution
// holds outside linear memory is in the header.
//
// The engine checks a state's shape (sizes, ranges, versions), never its
// origin: under the supervisor a state is sealed (AEAD) before it leaves
// the supervisor, and what a child could put into one only reaches a
// later child of the same execution, sandboxed as the first was.

const (
	parkMagic = "warden-parked-1\n"
	// parkHeaderMax bounds the header's JSON: the request's code and
	// modules (capped by code_bytes), logs (by output_bytes), pending
	// requests (by data_bytes), with room.
	parkHeaderMax = 64 << 20
)

type parkHeader struct {
	Wasm     string `json:"wasm"`
	Snapshot string `json:"snapshot"` // the snapshot's key (prelude, wasm, registry)
	// Request is the request without its input (which is in memory).
	Request      contract.Request          `json:"request"`
	Source       string                    `json:"source"`
	Pages        uint32                    `json:"pages"`
	StackPointer uint32                    `json:"stack_pointer"`
	Promise      uint32                    `json:"promise"`
	Requests     int                       `json:"requests"`
	DataBytes    int64                     `json:"data_bytes"`
	Logs         []contract.LogEntry       `json:"logs"`
	LogBytes     int64                     `json:"log_bytes"`
	LogsCut      bool                      `json:"logs_cut"`
	Pending      []contract.PendingRequest `json:"pending"`
	WallNS       int64                     `json:"wall_ns"`
	CPUNS        int64                     `json:"cpu_ns"`
	MonotonicNS  int64                     `json:"monotonic_ns"`
	Det          *parkedDeterminism        `json:"det,omitempty"`
	// Runs are the memory ranges the data holds, in order.
	Runs []pageRun `json:"runs"`
}

type parkedDeterminism struct {
	Stream    []byte `json:"stream"`
	NowNS     int64  `json:"now_ns"`
	ElapsedNS int64  `json:"elapsed_ns"`
}

type pageRun struct {
	Offset uint32 `json:"offset"`
	Len    uint32 `json:"len"`
}

// saveState encodes x's state at a point where no WebAssembly frame is
// live (the loop, between calls).
func (x *execution) saveState() ([]byte, error) {
	vm := x.vm
	if vm.snapshotKey == "" {
		return nil, errors.New("the execution's VM ran init itself: there is no heap snapshot to save its memory against")
	}
	sp, ok := vm.mod.ExportedGlobal("__stack_pointer").(interface{ Get() uint64 })
	if !ok {
		return nil, errors.New("the module has no __stack_pointer")
	}
	mem, _ := vm.mod.Memory().Read(0, vm.mod.Memory().Size())
	h := parkHeader{
		Wasm: WasmSHA256, Snapshot: vm.snapshotKey, Request: x.req, Source: x.source,
		Pages: uint32(len(mem) / wasmPage), StackPointer: uint32(sp.Get()), Promise: x.promise,
		Requests: x.requests, DataBytes: x.dataBytes, Logs: x.logs, LogBytes: x.logBytes, LogsCut: x.logsCut,
		Pending: x.queued, WallNS: int64(time.Since(x.started)), CPUNS: int64(threadCPU() - x.cpu0),
	}
	h.Request.Input = nil
	h.MonotonicNS, _ = clockNS(x, 1)
	if d := x.det; d != nil {
		stream, err := d.stream.MarshalBinary()
		if err != nil {
			return nil, err
		}
		h.Det = &parkedDeterminism{Stream: stream, NowNS: d.nowNS, ElapsedNS: int64(d.elapsed)}
	}
	h.Runs = writtenRuns(mem)
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteString(parkMagic)
	binary.Write(&out, binary.LittleEndian, uint32(len(head)))
	out.Write(head)
	zw, _ := flate.NewWriter(&out, flate.BestSpeed)
	for _, r := range h.Runs {
		zw.Write(mem[r.Offset : r.Offset+r.Len])
		if int64(out.Len()) > x.limits.ParkBytes {
			return nil, fmt.Errorf("the state is over the %d-byte park_bytes limit", x.limits.ParkBytes)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// writtenRuns are the ranges of mem a state must carry: the pages
// written since the snapshot was mapped (anonymous, not the file's), or
// all of mem when the kernel cannot say.
func writtenRuns(mem []byte) []pageRun {
	all := []pageRun{{0, uint32(len(mem))}}
	pageSize := os.Getpagesize()
	if len(mem) == 0 || uintptr(unsafe.Pointer(&mem[0]))%uintptr(pageSize) != 0 {
		return all
	}
	first := uintptr(unsafe.Pointer(&mem[0])) / uintptr(pageSize)
	entries, ok := pagemap.Entries(first, uintptr(len(mem)/pageSize))
	if !ok {
		return all
	}
	var runs []pageRun
	for i, e := range entries {
		if e&(pagemap.Present|pagemap.Swapped) == 0 || e&pagemap.FilePage != 0 {
			continue
		}
		off := uint32(i * pageSize)
		if n := len(runs); n > 0 && runs[n-1].Offset+runs[n-1].Len == off {
			runs[n-1].Len += uint32(pageSize)
			continue
		}
		runs = append(runs, pageRun{off, uint32(pageSize)})
	}
	return runs
}

// stateLimits reads only the limits of a state's header.
func stateLimits(state []byte) (contract.Limits, error) {
	head, err := stateHeader(state)
	if err != nil {
		return contract.Limits{}, err
	}
	var h struct {
		Request struct {
			Limits contract.Limits `json:"limits"`
		} `json:"request"`
	}
	if err := json.Unmarshal(head, &h); err != nil {
		return contract.Limits{}, contract.Errorf(contract.ContractError, "parked state: header: %v", err)
	}
	return h.Request.Limits, nil
}

// stateHeader is a state's header JSON.
func stateHeader(state []byte) ([]byte, error) {
	if !bytes.HasPrefix(state, []byte(parkMagic)) || len(state) < len(parkMagic)+4 {
		return nil, contract.Errorf(contract.ContractError, "parked state: not a state this engine writes")
	}
	rest := state[len(parkMagic)+4:]
	n := binary.LittleEndian.Uint32(state[len(parkMagic):])
	if n > parkHeaderMax || int64(n) > int64(len(rest)) {
		return nil, contract.Errorf(contract.ContractError, "parked state: a header of %d bytes in %d", n, len(rest))
	}
	return rest[:n], nil
}

// decodeState reads a state's header and memory, refusing one whose
// shape is wrong: maxPages is the profile's cap on linear memory.
func decodeState(state []byte, maxPages uint32) (*parkHeader, []byte, error) {
	bad := func(format string, a ...any) error {
		return contract.Errorf(contract.ContractError, "parked state: "+format, a...)
	}
	head, err := stateHeader(state)
	if err != nil {
		return nil, nil, err
	}
	body := state[len(parkMagic)+4+len(head):]
	var h parkHeader
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, nil, bad("header: %v", err)
	}
	if h.Pages == 0 || h.Pages > maxPages {
		return nil, nil, bad("%d pages of memory, this profile holds at most %d", h.Pages, maxPages)
	}
	if h.Promise == 0 || h.Promise >= h.Pages*wasmPage {
		return nil, nil, bad("the result's promise at %d is outside memory", h.Promise)
	}
	if h.Requests < 0 || h.DataBytes < 0 || h.LogBytes < 0 || h.WallNS < 0 || h.CPUNS < 0 || h.Det != nil && h.Det.ElapsedNS < 0 {
		return nil, nil, bad("a negative count")
	}
	prev := int64(0)
	for _, p := range h.Pending {
		if p.Seq <= prev || p.Seq > int64(h.Requests) {
			return nil, nil, bad("pending request %d out of order or past the %d made", p.Seq, h.Requests)
		}
		prev = p.Seq
	}
	var total, end uint64
	for _, r := range h.Runs {
		if uint64(r.Offset) < end || uint64(r.Offset)+uint64(r.Len) > uint64(h.Pages)*wasmPage {
			return nil, nil, bad("memory range %d+%d out of order or past %d pages", r.Offset, r.Len, h.Pages)
		}
		end = uint64(r.Offset) + uint64(r.Len)
		total += uint64(r.Len)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(body)), int64(total)+1))
	if err != nil || uint64(len(data)) != total {
		return nil, nil, bad("the memory is %d bytes, its ranges say %d (%v)", len(data), total, err)
	}
	if h.Det != nil {
		var c rand.ChaCha8
		if err := c.UnmarshalBinary(h.Det.Stream); err != nil {
			return nil, nil, bad("deterministic stream: %v", err)
		}
	}
	return &h, data, nil
}
