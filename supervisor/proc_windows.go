//go:build !unix

package supervisor

import (
	"os"
	"time"
)

// Off unix the package only has to build: New refuses to start
// (ErrUnsupportedPlatform), so none of these runs.

func killGroupOf(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

func kernelUsage(any) (time.Duration, int64, bool) { return 0, 0, false }

func killedBySeccomp(any) bool { return false }

func prepareCacheDir(string, int, int) (string, error) { return "", ErrUnsupportedPlatform }

func checkCacheTree(string, bool, bool) (map[string]string, error) {
	return nil, ErrUnsupportedPlatform
}

func openNoFollow(string) (*os.File, error) { return nil, ErrUnsupportedPlatform }
