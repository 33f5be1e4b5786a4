//go:build wardenfaults

package ipc

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/hashicorp/go-plugin"
)

// This file exists only in test builds (go test -tags wardenfaults): it
// lets a child's fault cases (child/faults.go) reach go-plugin's broker,
// which a taken-over child could reach with native code.

var serverBroker atomic.Pointer[plugin.GRPCBroker]

func init() {
	serverBrokerHook = serverBroker.Store
}

// FaultFloodBroker sends n broker messages of size bytes each from the
// child to the supervisor, each for a new service id, as knocks: the
// supervisor's go-plugin keeps one per id for as long as the broker
// lives. go-plugin exports no way to send one, so this reaches the
// broker's unexported stream through reflection.
func FaultFloodBroker(n, size int) error {
	b := serverBroker.Load()
	if b == nil {
		return errors.New("ipc: no broker: the child does not serve")
	}
	f := reflect.ValueOf(b).Elem().FieldByName("streamer")
	streamer := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	send := streamer.MethodByName("Send")
	payload := strings.Repeat("x", size)
	for i := range n {
		msg := reflect.New(send.Type().In(0).Elem()) // *plugin.ConnInfo
		m := msg.Elem()
		m.FieldByName("ServiceId").SetUint(uint64(1_000_000 + i))
		m.FieldByName("Network").SetString("unix")
		m.FieldByName("Address").SetString(payload)
		knock := m.FieldByName("Knock")
		k := reflect.New(knock.Type().Elem())
		k.Elem().FieldByName("Knock").SetBool(true)
		knock.Set(k)
		if out := send.Call([]reflect.Value{msg}); !out[0].IsNil() {
			return fmt.Errorf("ipc: broker message %d: %w", i, out[0].Interface().(error))
		}
	}
	return nil
}
