// Package ipc is the wire between the supervisor and a child process: the
// go-plugin handshake and plugin type, the gRPC service, and the adapters
// that carry contract values across it.
//
// One execution is one bidirectional gRPC stream (Child.Execute, defined in
// proto/warden.proto). The supervisor sends the request; the child streams
// started, log and data_request events and then the result; the supervisor
// answers each data_request on the same stream. The child side serves a
// Runner and runs at most one execution in its life; the supervisor side is
// a *Client.
//
// Only this package imports go-plugin, gRPC and protobuf, so it also holds
// both ends of the process: Serve for the child's main, Start for the
// supervisor. The child's configuration (ChildConfig) is part of the
// contract too: the supervisor imports ipc, never the child package.
// Everything that crosses the wire is a contract type, converted in
// convert.go and nowhere else. The generated code in ipc/pb is committed;
// generate.sh rebuilds it.
//
// A file per side: client.go is the supervisor's (Client, and its checks
// of everything the child sends); server.go is the child's (Serve, Runner,
// the gRPC server of its one execution); process.go starts a child
// (Start, Process) with launcher.go's process launcher for go-plugin;
// wire.go is the supervisor's connection to a child and its meter (the
// wire budget), wirecaps.go the message caps derived from the limits.
//
// This is an implementation package of Warden, with no compatibility
// promise: its API changes whenever Warden's internals do. Programs that
// embed Warden use the supervisor and contract packages.
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package ipc

//go:generate sh generate.sh

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/wardenhq/warden/ipc/pb"
)

// handshake is shared by the supervisor and its children. A binary
// started without the cookie in its environment is not being run as a
// child. It is unexported so that no importer can change it for all the
// others: ChildEnv and IsChild are its only uses outside go-plugin.
var handshake = plugin.HandshakeConfig{
	ProtocolVersion:  1,
	MagicCookieKey:   "WARDEN_CHILD",
	MagicCookieValue: "9c8d1e70a94ab5248f0df3cb6372b4ef",
}

// ChildEnv is the environment that marks a process as a Warden child,
// for a child started outside Start (the compile child): go-plugin adds it
// to the children Start starts.
func ChildEnv() []string {
	return []string{handshake.MagicCookieKey + "=" + handshake.MagicCookieValue}
}

// IsChild reports whether this process's environment marks it as a
// Warden child.
func IsChild() bool {
	return os.Getenv(handshake.MagicCookieKey) == handshake.MagicCookieValue
}

// PluginName is the name a child serves its Runner under.
const PluginName = "child"

// clientPluginMap is the plugin set the supervisor dispenses from. Its
// ChildPlugin has no Runner: it can build clients but serves nothing. A
// child serves ServerPluginMap(r) instead. A fresh map each call, so
// that no caller can change another's.
func clientPluginMap() map[string]plugin.Plugin {
	return map[string]plugin.Plugin{PluginName: &ChildPlugin{}}
}

// ServerPluginMap is the plugin set a child serves: the supervisor's,
// with r as the Runner.
func ServerPluginMap(r Runner) map[string]plugin.Plugin {
	return map[string]plugin.Plugin{PluginName: &ChildPlugin{Runner: r}}
}

// Startup is a child's account of its own start-up.
type Startup struct {
	// MainAt is when the child's main began; exec-to-main is timed
	// against it by the supervisor, which knows when it started the
	// process.
	MainAt time.Time
	Phases []StartupPhase
}

// StartupPhase is one phase of a child's start-up, as the child measured
// it: wall time, and its own CPU time and page faults (getrusage).
type StartupPhase struct {
	Name       string
	WallMS     float64
	CPUMS      float64
	PageFaults int64
}

// ChildPlugin is the go-plugin plugin of a child. It speaks gRPC only.
type ChildPlugin struct {
	plugin.NetRPCUnsupportedPlugin

	// Runner is what GRPCServer serves. The supervisor leaves it nil.
	Runner Runner
}

var _ plugin.GRPCPlugin = (*ChildPlugin)(nil)

// serverBrokerHook is set only in test builds (faults.go, build tag
// wardenfaults): it gives fault cases the child's go-plugin broker.
var serverBrokerHook func(*plugin.GRPCBroker)

// errNoRunner is returned when a Runner-less ChildPlugin is served.
var errNoRunner = errors.New("ipc: ChildPlugin has no Runner to serve")

// GRPCServer registers the Child service, serving p.Runner, on s.
func (p *ChildPlugin) GRPCServer(b *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Runner == nil {
		return errNoRunner
	}
	if serverBrokerHook != nil {
		serverBrokerHook(b)
	}
	pb.RegisterChildServer(s, newGRPCServer(p.Runner))
	return nil
}

// GRPCClient returns a *Client on c. done is go-plugin's context that ends
// when the child process exits; every call made through the client ends
// with it.
func (p *ChildPlugin) GRPCClient(done context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return newClient(pb.NewChildClient(c), done), nil
}
