// Package seccomp is the child's system-call filter (layer 5 of the
// defence, seccomp_linux.go): a classic-BPF allow-list, built here by a
// small assembler, that the child installs on all its threads before any
// untrusted code runs. The child prepares it at start-up (Prepare) and
// installs it when its execution's stream opens (Install); `warden
// doctor` asks Available whether the kernel can run it. It is a package
// of its own so that the filter can be tested and reviewed apart from the
// child, and so that its only dependency is x/sys.
//
// This is an implementation package of Warden, with no compatibility
// promise: its API changes whenever Warden's internals do. Programs that
// embed Warden use the supervisor and contract packages.
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package seccomp
