package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/recording"
)

// recordOptions are `warden run`'s deterministic mode, --record and
// --replay.
type recordOptions struct {
	record string // --record FILE: write the recording there
	replay *recording.Recording
}

// maxRecordingBytes caps --replay's file: the request and the data
// answers, each under its own cap, and the envelope.
const maxRecordingBytes = 256 << 20

// requestFlags are the flags that make the request: --replay takes it
// from the recording instead.
var requestFlags = []string{"input", "input-file", "data", "timeout", "memory", "stack", "timers",
	"language", "format", "module", "seed", "now-ms", "record"}

// recordFlags defines --seed, --now-ms, --record and --replay on fs; the
// function it returns reads them once fs is parsed, and sets o.req's
// deterministic mode (for --replay, o.req itself).
func recordFlags(fs *flag.FlagSet) func(o *runOptions, files []string) ([]string, error) {
	seed := fs.String("seed", "", "run deterministically: Math.random and crypto draw from a PRNG with this seed (0 to 2^53-1)")
	nowMS := fs.String("now-ms", "", "run deterministically: the virtual clock starts here, in ms since the Unix epoch (default 0, or the current time with --record)")
	record := fs.String("record", "", "run deterministically (a random seed and the current time unless given) and write the request, every data answer and the envelope to FILE")
	replay := fs.String("replay", "", "run the recording in FILE again with its recorded answers: exit 0 if the envelope is the same but for stats, else print the differences and exit 1")
	return func(o *runOptions, files []string) ([]string, error) {
		if *replay != "" {
			var set []string
			fs.Visit(func(f *flag.Flag) {
				for _, r := range requestFlags {
					if f.Name == r {
						set = append(set, "--"+f.Name)
					}
				}
			})
			if len(set) > 0 || len(files) > 0 {
				return nil, fmt.Errorf("--replay takes the script and its request from the recording: drop %v", append(set, files...))
			}
			rec, err := readRecording(*replay)
			if err != nil {
				return nil, err
			}
			o.req, o.rec.replay = rec.Request, rec
			return nil, nil
		}
		o.rec.record = *record
		var det contract.Deterministic
		on := *record != ""
		if *seed != "" {
			s, err := strconv.ParseUint(*seed, 10, 64)
			if err != nil || s > contract.MaxSafeSeed {
				return nil, fmt.Errorf("--seed %q: want an integer from 0 to %d", *seed, uint64(contract.MaxSafeSeed))
			}
			det.Seed, on = s, true
		} else if *record != "" {
			det.Seed = recording.Deterministic(contract.Request{}).Deterministic.Seed
		}
		if *nowMS != "" {
			n, err := strconv.ParseInt(*nowMS, 10, 64)
			if err != nil || n < 0 || n > contract.MaxNowMS {
				return nil, fmt.Errorf("--now-ms %q: want an integer from 0 to %d", *nowMS, int64(contract.MaxNowMS))
			}
			det.NowMS, on = n, true
		} else if *record != "" {
			det.NowMS = recording.Deterministic(contract.Request{}).Deterministic.NowMS
		}
		if on {
			o.req.Deterministic = &det
		}
		return files, nil
	}
}

func readRecording(path string) (*recording.Recording, error) {
	b, err := readFileCapped("--replay", path, maxRecordingBytes)
	if err != nil {
		return nil, err
	}
	rec, err := recording.Read(bytes.NewReader(b), maxRecordingBytes)
	if err != nil {
		return nil, fmt.Errorf("--replay %s: %w", path, err)
	}
	return rec, nil
}

// finishRecord writes the recording --record asked for. The file is
// written whole or not at all (a temporary file renamed), readable by
// its owner only: it holds the script's input and data answers.
func finishRecord(o *runOptions, rec *recording.Recorder, res contract.Result) error {
	tmp, err := os.CreateTemp(filepath.Dir(o.rec.record), ".warden-recording-*")
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := errors.Join(recording.Write(tmp, rec.Recording(o.req, res)), tmp.Close()); err != nil {
		return fmt.Errorf("--record %s: %w", o.rec.record, err)
	}
	if err := os.Rename(tmp.Name(), o.rec.record); err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	return nil
}

// reportReplay says how the replay went: nothing when the envelope is
// the recorded one, else each difference, and the exit code.
func reportReplay(stderr io.Writer, diff []string) int {
	if len(diff) == 0 {
		return exitOK
	}
	fmt.Fprintf(stderr, "warden run: the replay's envelope differs from the recording's, stats aside (%d):\n", len(diff))
	for _, d := range diff {
		fmt.Fprintln(stderr, "  "+d)
	}
	return exitFailed
}
