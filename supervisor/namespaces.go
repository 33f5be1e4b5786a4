package supervisor

import (
	"fmt"
	"os"
)

// baseNamespaces every child gets: no network at all (a fresh network
// namespace has only a down loopback), its own IPC objects, hostname and
// mount table.
const baseNamespaces = cloneNewNet | cloneNewIPC | cloneNewUTS | cloneNewNS

// isolationNamespaces are added where the kernel allows: in its own PID
// namespace a child is pid 1 and can name no process outside it (kill,
// ptrace, /proc/PID of another child or the supervisor have no target),
// and in its own cgroup namespace it sees its cgroup as the root.
const isolationNamespaces = cloneNewPID | cloneNewCgroup

// startNamespaces chooses the namespaces children get: none with
// Config.NoNamespaces, else what the kernel allows (namespaceFlags).
func (sp *processSpawner) startNamespaces() {
	if sp.cfg.NoNamespaces {
		return
	}
	sp.nsFlags, sp.nsNote = namespaceFlags(sp.cfg.Binary, sp.cfg.ChildArgs)
	if sp.nsNote != "" {
		sp.log.Warn("children get fewer namespaces", "reason", sp.nsNote)
	}
}

// namespaceFlags are the namespaces a child (binary with args) gets, and a note
// when the kernel refused the PID and cgroup namespaces (children then
// get the others). As root no user namespace is needed; without root a
// user namespace makes the others possible.
func namespaceFlags(binary string, args []string) (uintptr, string) {
	f := uintptr(baseNamespaces)
	if os.Geteuid() != 0 {
		f |= cloneNewUser
	}
	if err := probeNamespaces(binary, args, f|isolationNamespaces); err != nil {
		return f, fmt.Sprintf("no PID and cgroup namespaces for children (%v): they can see, and a child without seccomp can signal, processes of their own uid", err)
	}
	return f | isolationNamespaces, ""
}

// probeNamespaces reports whether children can be started in the
// namespaces of flags, by starting the children's own binary in them as
// a probe child and killing it (probeChild). It does not unshare on a
// thread of the supervisor: a goroutine's locked thread can be the main
// thread, which the runtime keeps when the goroutine ends, and
// /proc/self (mountinfo, cgroup) describes the main thread's namespaces,
// so the supervisor would then read its own mounts and cgroups through
// the probe's namespaces.
func probeNamespaces(binary string, args []string, flags uintptr) error {
	return probeChild(binary, args, flags)
}

// privateProc reports whether a child mounts its own /proc, showing only
// its PID namespace: it starts as root in new mount and PID namespaces.
func (sp *processSpawner) privateProc() bool {
	const need = cloneNewNS | cloneNewPID
	return os.Geteuid() == 0 && sp.nsFlags&need == need && sp.nsFlags&cloneNewUser == 0
}
