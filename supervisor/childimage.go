package supervisor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/wardenhq/warden/internal/childimage"
	"github.com/wardenhq/warden/internal/memfd"
	"github.com/wardenhq/warden/ipc"
)

// leanChild is the lean child binary this executable carries (`make
// build` appends cmd/warden-child to bin/warden: internal/childimage),
// in a sealed memory file every child is executed from. RATIONALE.md, "A
// lean child, carried in the warden binary", says why and what each
// fallback costs.
type leanChild struct {
	file *os.File
	size int64
}

// childImageFD is the lowest descriptor number the image's memory file
// takes: above every descriptor a child is given (its stdio and
// ExtraFiles), which the fork renumbers onto 0..n before exec and would
// otherwise clobber.
const childImageFD = 100

// findChildImage is os.Executable's child image; a variable so that
// tests can give a supervisor an image without building bin/warden.
var findChildImage = func() (*os.File, *childimage.Image, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, nil, err
	}
	// Its bytes are checked as startLeanChild copies them.
	img, err := childimage.Open(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, img, nil
}

// startLeanChild seals this executable's child image into a memory file
// and checks that a child starts from it. It returns nil, with why, when
// there is none to use: this executable carries no image (a go build or
// an embedder's program), or the machine cannot make sealed memory files
// or execute one (vm.memfd_noexec, no /proc); children are then this
// executable, as before. An image that is there but damaged is an error:
// the binary is not what the build wrote.
func startLeanChild() (*leanChild, string, error) {
	exe, img, err := findChildImage()
	if errors.Is(err, childimage.ErrNone) {
		return nil, "this executable carries no lean child (built without make): children re-execute it", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("supervisor: the child image in this executable: %w", err)
	}
	defer exe.Close()
	f, err := memfd.NewChecked("warden-child", img.Data, img.Size, img.SHA256[:])
	if errors.Is(err, memfd.ErrMismatch) {
		return nil, "", fmt.Errorf("supervisor: the child image in this executable: its bytes do not match the SHA-256 in its trailer: %w", err)
	}
	if err != nil {
		// No sealed memory file here. The image is still checked, so
		// that a damaged binary fails New on every machine.
		if verr := img.Verify(); verr != nil {
			return nil, "", fmt.Errorf("supervisor: the child image in this executable: %w", verr)
		}
		return nil, fmt.Sprintf("no sealed memory file for the lean child (%v): children re-execute this executable", err), nil
	}
	lc := &leanChild{file: f, size: img.Size}
	err = lc.raise()
	if err == nil {
		err = probeChild(lc.path(), nil, 0)
	}
	if err != nil {
		lc.close()
		return nil, fmt.Sprintf("the lean child does not start from a sealed memory file here (%v): children re-execute this executable", err), nil
	}
	return lc, "", nil
}

// raise moves the memory file's descriptor to childImageFD or above.
func (lc *leanChild) raise() error {
	fd, err := dupAbove(lc.file.Fd(), childImageFD)
	if err != nil {
		return fmt.Errorf("move the descriptor above %d: %w", childImageFD, err)
	}
	lc.file.Close()
	lc.file = os.NewFile(fd, "memfd:warden-child")
	return nil
}

// path is what a child's exec runs: the memory file, through the
// forked child's own descriptor table (the descriptor is close-on-exec,
// so the child holds it only until its exec succeeds).
func (lc *leanChild) path() string { return fmt.Sprintf("/proc/self/fd/%d", lc.file.Fd()) }

// childInfo says what children run (CacheInfo.Child).
func (sp *processSpawner) childInfo() string {
	if sp.lean != nil {
		return fmt.Sprintf("the lean child this executable carries (%.1f MiB), from a sealed memory file", float64(sp.lean.size)/(1<<20))
	}
	return sp.leanNote
}

func (lc *leanChild) close() {
	if lc != nil {
		lc.file.Close()
	}
}

// probeChild starts binary as a probe child (ipc.ChildConfig.Probe: it
// exits at once) in the namespaces of flags, and reports whether clone
// and exec succeeded: that is the answer, so the probe needs nothing but
// the binary children run (an image need not carry a /bin/true).
func probeChild(binary string, args []string, flags uintptr) error {
	env, err := ipc.ChildConfig{Probe: true}.Env()
	if err != nil {
		return err
	}
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{env}, ipc.ChildEnv()...)
	cmd.SysProcAttr = procAttr(false, flags)
	if err := cmd.Start(); err != nil {
		return err
	}
	cmd.Process.Kill()
	cmd.Wait()
	return nil
}
