package supervisor

// Parking: an execution whose data handler returns contract.ErrPark at a
// data request (and whose request allows it) ends its child with a
// parked envelope; the engine's state in it is sealed here before it
// leaves the supervisor, and Resume opens it again, before any child
// sees it.

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/registry"
	"github.com/wardenhq/warden/internal/runtimefiles"
)

// A sealed state: sealMagic, the key id's length (1 byte) and the key id,
// a 12-byte nonce, then AES-256-GCM of the plaintext: the header's length
// (4 bytes, little-endian), the header as JSON, the engine's state. The
// additional data binds it to the key id, the scope (the daemon's
// tenant) and the build: a state sealed for another scope, by another
// build or changed by one bit fails to open.
const sealMagic = "warden-sealed-state-1\n"

// DefaultParkTTL is Config.ParkTTL's default.
const DefaultParkTTL = 24 * time.Hour

// sealedHeader is what the supervisor keeps with the engine's state.
type sealedHeader struct {
	// StateID names this state: Resume takes it once (unless it forks).
	StateID  string    `json:"state_id"`
	ParkedAt time.Time `json:"parked_at"`
	// Request is the parked request without its code and input, which
	// the engine's state holds.
	Request contract.Request          `json:"request"`
	Pending []contract.PendingRequest `json:"pending"`
	// LastSeq is the highest data request seq the child sent, DataBytes
	// the data traffic so far, as the supervisor counted them.
	LastSeq   int64 `json:"last_seq"`
	DataBytes int64 `json:"data_bytes"`
	// UsedNS is the time the execution used before it parked, of its
	// timeout, as the supervisor measured it; Logs its logs so far.
	UsedNS int64               `json:"used_ns"`
	Logs   []contract.LogEntry `json:"logs"`
}

// parkKeys are the AEAD keys by id; current seals, every one opens.
type parkKeys struct {
	current string
	aeads   map[string]cipher.AEAD
}

// newParkKeys makes the keys of cfg: ParkKey under ParkKeyID and
// ParkOldKeys; with no ParkKey, a random key only this supervisor knows.
func newParkKeys(cfg *Config) (*parkKeys, error) {
	k := &parkKeys{current: cfg.ParkKeyID, aeads: map[string]cipher.AEAD{}}
	key := cfg.ParkKey
	if key == nil {
		key = make([]byte, 32)
		rand.Read(key)
		if k.current == "" {
			k.current = "process-" + hex.EncodeToString(key[:4])
		}
	}
	if k.current == "" {
		k.current = "default"
	}
	all := map[string][]byte{k.current: key}
	for id, old := range cfg.ParkOldKeys {
		if id == k.current {
			return nil, fmt.Errorf("supervisor: ParkOldKeys has the current key id %q", id)
		}
		all[id] = old
	}
	for id, b := range all {
		if len(id) == 0 || len(id) > 64 {
			return nil, fmt.Errorf("supervisor: park key id %q: want 1 to 64 bytes", id)
		}
		if len(b) != 32 {
			return nil, fmt.Errorf("supervisor: park key %q is %d bytes, want 32 (AES-256)", id, len(b))
		}
		block, _ := aes.NewCipher(b)
		k.aeads[id], _ = cipher.NewGCM(block)
	}
	return k, nil
}

// newBuildDigest names what makes a state: the child binary, the pinned
// QuickJS module and the registered modules. The child is hashed once,
// when the first state is sealed or opened.
func newBuildDigest(binary, registry string) func() string {
	return sync.OnceValue(func() string {
		h := sha256.New()
		fmt.Fprintf(h, "warden build\nwasm %s\nregistry %s\n", runtimefiles.WasmSHA256, registry)
		if f, err := os.Open(binary); err == nil {
			io.Copy(h, f)
			f.Close()
		} else {
			fmt.Fprintf(h, "binary %s unreadable\n", binary)
		}
		return hex.EncodeToString(h.Sum(nil))
	})
}

// registryDigest is set's digest, "" for none.
func registryDigest(set *registry.Set) string {
	if set == nil {
		return ""
	}
	return set.Digest()
}

func additionalData(keyID, scope, build string) []byte {
	return fmt.Appendf(nil, "%skey %s\nscope %q\nbuild %s\n", sealMagic, keyID, scope, build)
}

// seal turns a parked envelope's engine state into a sealed one, with
// the supervisor's header.
func (s *Supervisor) seal(req contract.Request, res *contract.Result, lastSeq, dataBytes int64, used time.Duration) error {
	var id [16]byte
	rand.Read(id[:])
	req.Code, req.Input, req.Modules = "", nil, nil
	h := sealedHeader{StateID: hex.EncodeToString(id[:]), ParkedAt: time.Now().UTC(), Request: req,
		Pending: res.Parked.Pending, LastSeq: lastSeq, DataBytes: dataBytes, UsedNS: int64(used), Logs: res.Logs}
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	plain := make([]byte, 4, 4+len(head)+len(res.Parked.State))
	binary.LittleEndian.PutUint32(plain, uint32(len(head)))
	plain = append(append(plain, head...), res.Parked.State...)
	keyID := s.park.current
	aead := s.park.aeads[keyID]
	out := make([]byte, 0, len(sealMagic)+1+len(keyID)+aead.NonceSize()+len(plain)+aead.Overhead())
	out = append(append(append(out, sealMagic...), byte(len(keyID))), keyID...)
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	out = append(out, nonce...)
	out = aead.Seal(out, nonce, plain, additionalData(keyID, req.ParkScope, s.build()))
	res.Parked.State = out
	return nil
}

// open checks and opens a sealed state for scope: every refusal is a
// ContractError that says why, and nothing of a refused state is read.
func (s *Supervisor) open(sealed []byte, scope string) (*sealedHeader, []byte, error) {
	refuse := func(format string, a ...any) error {
		return contract.Errorf(contract.ContractError, "parked state: "+format, a...)
	}
	if !bytes.HasPrefix(sealed, []byte(sealMagic)) || len(sealed) < len(sealMagic)+1 {
		return nil, nil, refuse("not a state this supervisor seals")
	}
	rest := sealed[len(sealMagic):]
	n := int(rest[0])
	if len(rest) < 1+n {
		return nil, nil, refuse("cut short")
	}
	keyID := string(rest[1 : 1+n])
	aead, ok := s.park.aeads[keyID]
	if !ok {
		return nil, nil, refuse("sealed under key %q, which this supervisor does not hold", keyID)
	}
	rest = rest[1+n:]
	if len(rest) < aead.NonceSize()+aead.Overhead() {
		return nil, nil, refuse("cut short")
	}
	plain, err := aead.Open(nil, rest[:aead.NonceSize()], rest[aead.NonceSize():], additionalData(keyID, scope, s.build()))
	if err != nil {
		return nil, nil, refuse("it does not open: sealed for another scope (tenant) or by another build, or changed since")
	}
	hn := binary.LittleEndian.Uint32(plain)
	if int64(hn) > int64(len(plain)-4) {
		return nil, nil, refuse("header of %d bytes in %d", hn, len(plain)-4)
	}
	var h sealedHeader
	if err := json.Unmarshal(plain[4:4+hn], &h); err != nil {
		return nil, nil, refuse("header: %v", err)
	}
	if age := time.Since(h.ParkedAt); age > s.cfg.ParkTTL {
		return nil, nil, refuse("parked %v ago, longer than the %v a state is kept (ParkTTL)", age.Round(time.Second), s.cfg.ParkTTL)
	}
	return &h, plain[4+hn:], nil
}

// resumed remembers the states Resume took, until they expire, so that
// each is taken once.
type resumed struct {
	mu  sync.Mutex
	ids map[string]time.Time // state id -> when it expires
}

// take reports whether id was not taken before, and takes it.
func (r *resumed) take(id string, expires time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	for k, t := range r.ids {
		if now.After(t) {
			delete(r.ids, k)
		}
	}
	if _, ok := r.ids[id]; ok {
		return false
	}
	if r.ids == nil {
		r.ids = map[string]time.Time{}
	}
	r.ids[id] = expires
	return true
}

// ResumeRequest continues a parked execution (Supervisor.Resume).
type ResumeRequest struct {
	// State is the parked envelope's Parked.State.
	State []byte
	// Answers answer its pending data requests, by seq; those not
	// answered here go to the data handler when the execution asks.
	Answers map[int64]contract.Answer
	// Scope is the ParkScope the request was parked with.
	Scope string
	// Fork resumes a copy: the state stays resumable. Without it a
	// state is resumed once.
	Fork bool
}

// Resume continues a parked execution in a fresh child of its profile:
// the state is opened (refused, as a ContractError, if it was sealed
// for another scope, by another build or with another key, was changed,
// expired, was resumed already, or its limits are over this supervisor's
// caps), the answers settle its pending requests, and it runs to its
// end, the next park or its deadline, with the envelope an execution
// that never parked would have. The time it used before parking counts
// against its timeout; the time parked does not.
func (s *Supervisor) Resume(ctx context.Context, r ResumeRequest, handler contract.DataHandler) (contract.Result, error) {
	return s.ResumeStream(ctx, r, handler, nil)
}

// ResumeStream is Resume that also calls onEvent for every event, as
// Stream does.
func (s *Supervisor) ResumeStream(ctx context.Context, r ResumeRequest, handler contract.DataHandler, onEvent func(contract.Event)) (contract.Result, error) {
	start := time.Now()
	res := s.resume(ctx, r, handler, onEvent, start)
	if onEvent != nil {
		e := res
		onEvent(contract.Event{Type: contract.EventResult, Result: &e})
	}
	s.executions.Add(1)
	if !res.OK && res.Parked == nil {
		s.failures.Add(1)
	}
	return res, res.Err()
}

func (s *Supervisor) resume(ctx context.Context, r ResumeRequest, handler contract.DataHandler, onEvent func(contract.Event), start time.Time) contract.Result {
	h, state, err := s.open(r.State, r.Scope)
	if err != nil {
		return contract.Fail(err, contract.Limits{})
	}
	req := h.Request
	if err := s.checkResume(h, r.Answers); err != nil {
		return contract.Fail(err, req.Limits)
	}
	if s.closed.Load() {
		return contract.Fail(contract.Errorf(contract.CapacityError, "supervisor is closed"), req.Limits)
	}
	if !r.Fork && !s.resumed.take(h.StateID, h.ParkedAt.Add(s.cfg.ParkTTL)) {
		return contract.Fail(contract.Errorf(contract.ContractError, "parked state %s was resumed already (resume a copy with Fork)", h.StateID), req.Limits)
	}
	rj := &resumeJob{state: state, answers: r.Answers, lastSeq: h.LastSeq, dataBytes: h.DataBytes, used: time.Duration(h.UsedNS)}
	return s.attempts(ctx, req, rj, handler, onEvent, start)
}

// checkResume refuses a state whose limits this supervisor would not
// run now (over its caps), which used its whole timeout, or answers
// that do not fit its pending requests.
func (s *Supervisor) checkResume(h *sealedHeader, answers map[int64]contract.Answer) error {
	l := h.Request.Limits
	if err := l.CheckResolved(); err != nil {
		return err
	}
	if _, clamped, err := contract.Resolve(l, s.cfg.Defaults, s.cfg.Caps); err != nil || len(clamped) > 0 {
		return contract.Errorf(contract.ContractError, "parked state: its limits are over this supervisor's caps (%v)", clamped)
	}
	if time.Duration(h.UsedNS) >= l.Timeout {
		return contract.Errorf(contract.ContractError, "parked state: it used its whole %v timeout", l.Timeout)
	}
	pending := map[int64]bool{}
	for _, p := range h.Pending {
		pending[p.Seq] = true
	}
	var size int64
	for seq, a := range answers {
		switch {
		case !pending[seq]:
			return contract.Errorf(contract.ContractError, "an answer to data request %d, which the execution is not waiting on", seq)
		case (a.Value == nil) == (a.Error == ""):
			return contract.Errorf(contract.ContractError, "the answer to data request %d must have exactly one of value and error", seq)
		case a.Value != nil && !contract.ValidJSON(a.Value):
			return contract.Errorf(contract.ContractError, "the answer to data request %d is %s", seq, contract.WhyNotJSON(a.Value))
		}
		size += int64(len(a.Value) + len(a.Error))
	}
	if size > l.DataBytes {
		return contract.ResourceErrorf(contract.KindDataBytes, "the answers are %d bytes, over the %d-byte data_bytes limit", size, l.DataBytes)
	}
	return nil
}
