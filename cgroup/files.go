//go:build linux

package cgroup

// Reading and writing cgroupfs: control files, and group directories
// made and removed.

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// mkdirExclusive creates every dir, or none: on failure it removes the ones
// it made. EEXIST is reported as ErrExists.
func mkdirExclusive(dirs []string) error {
	for i, d := range dirs {
		if err := unix.Mkdir(d, 0o755); err != nil {
			for _, made := range dirs[:i] {
				unix.Rmdir(made)
			}
			if errors.Is(err, unix.EEXIST) {
				return fmt.Errorf("%w: %s", ErrExists, d)
			}
			return &os.PathError{Op: "mkdir", Path: d, Err: err}
		}
	}
	return nil
}

// rmdirRetry removes an empty cgroup directory, retrying while the kernel
// still reports it busy. A missing directory is success.
func rmdirRetry(dir string) error {
	delay := time.Millisecond
	var err error
	for range 8 {
		err = unix.Rmdir(dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) && !errors.Is(err, unix.EAGAIN) {
			break
		}
		time.Sleep(delay)
		delay *= 2
	}
	return &os.PathError{Op: "rmdir", Path: dir, Err: err}
}

// checkValue reads a control file back and compares it with what was
// written, so that a kernel (or a fake filesystem) that quietly stores
// something else fails Create.
func checkValue(dir, file, want string) error {
	got, err := readTrim(filepath.Join(dir, file))
	if err != nil {
		return fmt.Errorf("read back %s: %w", file, err)
	}
	if got != want {
		return fmt.Errorf("%s is %q after writing %q", file, got, want)
	}
	return nil
}

func pageRound(n int64) string {
	p := int64(os.Getpagesize())
	return strconv.FormatInt(n/p*p, 10)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// mkdirAllTracked is os.MkdirAll that returns the directories it created,
// innermost first.
func mkdirAllTracked(dir string) ([]string, error) {
	var missing []string
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		if exists(d) {
			break
		}
		missing = append(missing, d)
	}
	var created []string
	for _, d := range slices.Backward(missing) {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			for _, c := range created {
				unix.Rmdir(c)
			}
			return nil, err
		}
		created = append([]string{d}, created...)
	}
	return created, nil
}

func readTrim(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// readUint reads a file holding one unsigned number ("max" reads as the
// largest uint64).
func readUint(path string) (uint64, error) {
	s, err := readTrim(path)
	if err != nil {
		return 0, err
	}
	if s == "max" {
		return ^uint64(0), nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("parse %s: %w", path, err)
	}
	return n, nil
}

// readKey reads the value of key in a "key value" per line file
// (memory.events, memory.oom_control). found is false if the key is absent.
func readKey(path, key string) (v uint64, found bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, val, ok := strings.Cut(s.Text(), " ")
		if !ok || k != key {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return 0, false, fmt.Errorf("parse %s in %s: %w", key, path, err)
		}
		return v, true, nil
	}
	return 0, false, s.Err()
}
