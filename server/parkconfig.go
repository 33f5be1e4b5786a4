package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wardenhq/warden/internal/regfile"
	"github.com/wardenhq/warden/supervisor"
)

// ParkConfig configures parked executions (docs/daemon.md, "Parked
// executions").
type ParkConfig struct {
	// Dir is the directory that keeps parked states, per tenant; empty
	// keeps them in memory, lost when the daemon stops. Replicas that
	// resume each other's executions share it (or a store of the same
	// interface) and the key.
	Dir string `yaml:"dir"`
	// TTL is how long a state stays resumable; MaxStates and MaxBytes
	// cap each tenant's. Defaults 24h, 1000 and 1 GiB.
	TTL       time.Duration `yaml:"ttl"`
	MaxStates int           `yaml:"max_states"`
	MaxBytes  int64         `yaml:"max_bytes"`
	// KeyFile holds the AES-256 key that seals states: 32 bytes, or 64
	// hex digits. KeyID names it in each state. OldKeyFile and
	// OldKeyID, when set, are the key before it, which still opens the
	// states it sealed (rotation). Default: with Dir, a key kept in it
	// (.park-key, made on the first start); without, a random key, so
	// only this daemon, until it stops, resumes its states.
	KeyFile    string `yaml:"key_file"`
	KeyID      string `yaml:"key_id"`
	OldKeyFile string `yaml:"old_key_file"`
	OldKeyID   string `yaml:"old_key_id"`
}

// storeLimits are the store's limits, defaults filled in.
func (p ParkConfig) storeLimits() StoreLimits {
	l := DefaultStoreLimits
	if p.TTL > 0 {
		l.TTL = p.TTL
	}
	if p.MaxStates > 0 {
		l.MaxStates = p.MaxStates
	}
	if p.MaxBytes > 0 {
		l.MaxBytes = p.MaxBytes
	}
	return l
}

// dirParkKey is the key file kept in a store's directory, made (a
// random key, 0600) if there is none: of two replicas starting at once,
// one makes it and the other reads it.
func dirParkKey(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("config: park.dir: %w", err)
	}
	path := filepath.Join(dir, ".park-key")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		return path, nil
	case err != nil:
		return "", fmt.Errorf("config: park key: %w", err)
	}
	key := make([]byte, 32)
	rand.Read(key)
	_, err = fmt.Fprintln(f, hex.EncodeToString(key))
	if err = errors.Join(err, f.Close()); err != nil {
		os.Remove(path)
		return "", fmt.Errorf("config: park key: %w", err)
	}
	return path, nil
}

// readParkKey reads a key file: 32 bytes, or 64 hex digits and space.
func readParkKey(path string) ([]byte, error) {
	b, err := regfile.ReadFile(path, 4096)
	if err != nil {
		return nil, fmt.Errorf("config: park key: %w", err)
	}
	if len(b) == 32 {
		return b, nil
	}
	k, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(k) != 32 {
		return nil, fmt.Errorf("config: park key %s: want 32 bytes or 64 hex digits", path)
	}
	return k, nil
}

// parkKeys sets sc's park keys from p: key_file's, else, with a
// directory store, the key kept in it (made on the first start, so
// that states outlive a restart and replicas sharing the directory
// share the key), else none (the supervisor's random one).
func (p ParkConfig) parkKeys(sc *supervisor.Config) error {
	keyFile := p.KeyFile
	if keyFile == "" && p.Dir != "" {
		var err error
		if keyFile, err = dirParkKey(p.Dir); err != nil {
			return err
		}
	}
	if keyFile == "" {
		if p.OldKeyFile != "" {
			return errors.New("config: park.old_key_file needs park.key_file")
		}
		return nil
	}
	k, err := readParkKey(keyFile)
	if err != nil {
		return err
	}
	sc.ParkKey, sc.ParkKeyID = k, p.KeyID
	if p.OldKeyFile != "" {
		old, err := readParkKey(p.OldKeyFile)
		if err != nil {
			return err
		}
		if p.OldKeyID == "" {
			return errors.New("config: park.old_key_file needs park.old_key_id")
		}
		sc.ParkOldKeys = map[string][]byte{p.OldKeyID: old}
	}
	return nil
}
