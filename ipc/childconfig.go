package ipc

// The child's configuration is part of the wire contract: the supervisor
// writes it and the child reads it, so it lives here rather than in
// child/, which the supervisor does not import (importing it would link
// the engine, wazero and the seccomp filter into every embedder).

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// ChildConfigEnv is the environment variable that carries a child's
// ChildConfig as JSON: a child's environment is otherwise empty.
const ChildConfigEnv = "WARDEN_CHILD_CONFIG"

// ChildConfig is what the supervisor tells a child when it starts it. It
// holds no secrets, only the child's memory profile, its hardening and
// the cache directory.
//
// Limits are not part of it: each request carries its own, resolved by
// the supervisor, and the child enforces them as they come.
type ChildConfig struct {
	// MemoryBytes is the memory profile this child is prepared for (its
	// linear-memory cap, contract.LinearMemoryCap); the request's exact
	// memory limit may be lower. Required.
	MemoryBytes int64 `json:"memory_bytes"`
	// CacheDir is the wazero compilation cache shared by all children.
	CacheDir string `json:"cache_dir"`
	// CacheDigests is the CacheDigest of every file in CacheDir, by
	// path relative to it, as the supervisor recorded them after the
	// compile child ran. When set, the child refuses to start unless the
	// cache holds exactly these files with these digests. The cache is
	// then warm, so the engine only reads it.
	CacheDigests map[string]string `json:"cache_digests,omitempty"`
	// CompileOnly makes the process a compile child: it compiles the
	// module into CacheDir (or loads it from there) and exits 0, without
	// serving. The supervisor runs one, as its own uid, before the first
	// child.
	CompileOnly bool `json:"compile_only,omitempty"`
	// Probe makes the process exit 0 at once: the supervisor starts one
	// in the namespaces it means to give children, to learn whether the
	// kernel allows them (only whether it starts matters).
	Probe  bool      `json:"probe,omitempty"`
	Harden Hardening `json:"harden"`
	// Wire is the largest message each way on the child's connection, as
	// the supervisor derived them (DeriveWireCaps).
	Wire WireCaps `json:"wire"`
	// KeepWarmMS, when positive, makes the child re-read its resident
	// memory every so many milliseconds while it waits for its execution
	// (child/keepwarm.go), at most every MinKeepWarm.
	KeepWarmMS int64 `json:"keep_warm_ms,omitempty"`
	// WarmTypeScript makes the child run one small TypeScript transform
	// during start-up: it serves the TypeScript profile, and esbuild's
	// first transform in a process costs milliseconds the request would
	// otherwise wait for.
	WarmTypeScript bool `json:"warm_typescript,omitempty"`
	// Registry names the registered modules (the supervisor's
	// Config.Modules): nil for none.
	Registry *RegistryRef `json:"registry,omitempty"`
	// Sealed lists the cache files this child reads from sealed memory
	// files the supervisor filled and checked once, instead of from
	// CacheDir: by path relative to CacheDir, the descriptor the child
	// holds each as (exec.Cmd.ExtraFiles: 3 and up). The child checks
	// that each is sealed and neither reads these files from disk nor
	// hashes them. SealedView is a directory the supervisor made whose
	// entries, by the same relative paths, are symbolic links to
	// /proc/self/fd/N: wazero's file cache opens the compiled module by
	// path.
	Sealed     map[string]int `json:"sealed,omitempty"`
	SealedView string         `json:"sealed_view,omitempty"`
}

// CompileReport is what a compile child prints on its stdout, as one
// JSON object, when it succeeds: the cache files, by path relative to
// CacheDir, that a serving child of its configuration reads (the
// compiled module, the heap snapshot, the Intl pack), which the
// supervisor seals into memory files (ChildConfig.Sealed).
type CompileReport struct {
	ChildFiles []string `json:"child_files"`
}

// MaxCompileReport bounds the compile child's stdout the supervisor
// reads.
const MaxCompileReport = 64 << 10

// RegistryRef is what a child is told of the registered modules: the
// file in CacheDir that holds them (read only by a child that evaluates
// them itself, for want of a heap snapshot, and refused unless its
// content has Digest), their names and their heap allowance.
type RegistryRef struct {
	File      string   `json:"file"`
	Digest    string   `json:"digest"`
	Names     []string `json:"names"`
	HeapBytes int64    `json:"heap_bytes"`
}

// Hardening selects the child's self-hardening steps.
type Hardening struct {
	// NoNewPrivs sets PR_SET_NO_NEW_PRIVS before anything untrusted runs.
	NoNewPrivs bool `json:"no_new_privs"`
	// RlimitDataBytes caps the data segment (all private writable
	// mappings) when there is no cgroup to cap memory. Zero: no cap.
	RlimitDataBytes int64 `json:"rlimit_data_bytes,omitempty"`
	// RlimitCPUSeconds caps the child's CPU time over its whole life
	// (RLIMIT_CPU, soft = hard: the kernel SIGKILLs it there) when there
	// is no cgroup, so that a child the supervisor's kill misses still
	// dies. Zero: no cap.
	RlimitCPUSeconds int64 `json:"rlimit_cpu_seconds,omitempty"`
	// RlimitNProc caps the tasks (threads included) of the child's real
	// uid (RLIMIT_NPROC) when there is no cgroup pids cap. The kernel
	// counts every task of that uid, so the cap is per child only when
	// each child has a uid of its own. Zero: no cap.
	RlimitNProc int64 `json:"rlimit_nproc,omitempty"`
	// Rlimits, after start-up: no core files, no file writes
	// (RLIMIT_FSIZE 0), few descriptors.
	Rlimits bool `json:"rlimits"`
	// Seccomp installs the system-call filter before the execution runs.
	Seccomp bool `json:"seccomp"`
	// PrivateProc: the child was started as root in new mount and PID
	// namespaces, and mounts a /proc of its own, which shows no process
	// but itself.
	PrivateProc bool `json:"private_proc,omitempty"`
	// UID and GID, when UID is positive: the child was started as root
	// and switches to them (with no supplementary groups) first thing.
	UID int `json:"uid,omitempty"`
	GID int `json:"gid,omitempty"`
	// NotDumpable clears PR_SET_DUMPABLE once start-up has opened what
	// it needs of /proc/self: no process of the child's uid can then
	// ptrace it or read its /proc/PID/mem and environ.
	NotDumpable bool `json:"not_dumpable,omitempty"`
}

// MinKeepWarm bounds how often a child's keep-warm pass runs. The
// supervisor raises its Config.KeepWarm to it before sending it; the
// child applies it again.
const MinKeepWarm = 100 * time.Millisecond

// CacheDigest is the digest ChildConfig.CacheDigests records of a cache
// file's content: its SHA-256, in hex. The supervisor computes it after
// the compile child, the child before loading.
func CacheDigest(content io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, content); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Env is the environment variable that carries c to a child
// (ChildConfigEnv=JSON).
func (c ChildConfig) Env() (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("ipc: child configuration: %w", err)
	}
	return ChildConfigEnv + "=" + string(b), nil
}
