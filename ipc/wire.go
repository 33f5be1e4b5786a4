package ipc

// The supervisor's connection to one child. go-plugin would dial whatever
// address the child's handshake names and read whatever arrives on it:
// its gRPC broker keeps one message per stream id a child invents, for
// seconds or for good, however many ids. So the supervisor dials itself
// (a dial option that replaces go-plugin's dialer): only a Unix socket in
// the directory made for this child, only if the process holding it is
// the child (SO_PEERCRED), and every byte read from it counts against the
// child's wire budget. Past the budget the child is killed and the
// connection closed, so nothing a child sends, in any number of streams
// or messages, can make the supervisor hold more than its budget.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/wardenhq/warden/contract"
)

// wireSlack covers what a child sends outside its execution's events:
// HTTP/2 settings, pings and window updates, the ping's start-up account,
// go-plugin's broker and stdio streams. (The events, and their framing,
// are WireBudget's.)
const wireSlack = 1 << 20

var (
	// ErrWireBudget is what reading from a child past its wire budget
	// returns; the child has been killed.
	ErrWireBudget = errors.New("ipc: the child exceeded its wire budget")
	// ErrPeerNotChild is why a connection to a socket held by another
	// process than the child is refused.
	ErrPeerNotChild = errors.New("ipc: the child's socket is held by another process")
)

// wire dials one child and meters what it sends.
type wireMeter struct {
	budget func(contract.Request) int64

	mu        sync.Mutex
	socketDir string // guarded by mu: the directory made for this child's socket
	addr      string // guarded by mu: the socket the handshake named
	pid       int    // guarded by mu: the child's pid, once started
	refused   error  // guarded by mu: why the last dial was refused

	read  atomic.Int64
	limit atomic.Int64
	over  atomic.Bool
}

func newWireMeter(budget func(contract.Request) int64) *wireMeter {
	if budget == nil {
		budget = WireBudget
	}
	w := &wireMeter{budget: budget}
	w.limit.Store(wireSlack)
	return w
}

// setSocketDir records the directory go-plugin made for the socket.
func (w *wireMeter) setSocketDir(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.socketDir = filepath.Clean(dir)
}

// removeSocketDir removes the directory made for a child that did not
// start: go-plugin's Kill removes it only for a child its runner started
// (a runner that failed, or a program that could not be executed, leaves
// it behind).
func (w *wireMeter) removeSocketDir() {
	w.mu.Lock()
	dir := w.socketDir
	w.mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
	}
}

// setPID records the child's pid.
func (w *wireMeter) setPID(pid int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pid = pid
}

// setAddr checks and records the address the child's handshake names: a
// Unix socket directly in its socket directory.
func (w *wireMeter) setAddr(network, addr string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if network != "unix" {
		return fmt.Errorf("ipc: the child named a %q address; only a Unix socket is accepted", network)
	}
	if w.socketDir == "" || filepath.Dir(filepath.Clean(addr)) != w.socketDir {
		return fmt.Errorf("ipc: the child named socket %q outside its directory %q", addr, w.socketDir)
	}
	w.addr = addr
	return nil
}

// allow sets the budget for the execution of req (on top of the slack
// the spawn had).
func (w *wireMeter) allow(req contract.Request) int64 {
	b := wireSlack + w.budget(req)
	w.limit.Store(b)
	return b
}

// exceeded reports whether the child went over its budget, and the budget.
func (w *wireMeter) exceeded() (bool, int64) { return w.over.Load(), w.limit.Load() }

// refusal is why the last connection was refused, if it was.
func (w *wireMeter) refusal() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.refused
}

// dial is the supervisor's gRPC dialer for the child (grpc.WithContextDialer).
func (w *wireMeter) dial(ctx context.Context, _ string) (net.Conn, error) {
	w.mu.Lock()
	addr, pid := w.addr, w.pid
	w.mu.Unlock()
	if addr == "" || pid <= 0 {
		return nil, errors.New("ipc: dial before the child's handshake")
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", addr)
	if err != nil {
		return nil, err
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("ipc: dial %s: got a %T", addr, c)
	}
	if err := checkPeer(uc, pid); err != nil {
		c.Close()
		w.mu.Lock()
		w.refused = err
		w.mu.Unlock()
		return nil, err
	}
	return &meteredConn{UnixConn: uc, w: w, pid: pid}, nil
}

// meteredConn counts what the child sends against its budget.
type meteredConn struct {
	*net.UnixConn
	w   *wireMeter
	pid int
}

func (c *meteredConn) Read(b []byte) (int, error) {
	n, err := c.UnixConn.Read(b)
	if n > 0 && c.w.read.Add(int64(n)) > c.w.limit.Load() {
		if c.w.over.CompareAndSwap(false, true) {
			// The supervisor kills the child's whole group when the
			// execution fails; this stops it sending at once.
			killPID(c.pid)
		}
		c.UnixConn.Close()
		return 0, ErrWireBudget
	}
	return n, err
}
