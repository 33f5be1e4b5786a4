// Package pb is the generated code of the wire between the supervisor and
// a child (ipc/proto/; `make proto` rebuilds it).
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package pb
