package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wardenhq/warden/client"
	"github.com/wardenhq/warden/internal/attacks"
	"github.com/wardenhq/warden/internal/regfile"
	"github.com/wardenhq/warden/internal/stress"
	"github.com/wardenhq/warden/supervisor"
)

// stressFlagError is a `warden stress` flag with a value it cannot use.
type stressFlagError struct{ flag, msg string }

func (e *stressFlagError) Error() string { return "--" + e.flag + ": " + e.msg }

// stressOptions are `warden stress`'s flags.
type stressOptions struct {
	cfg      stress.Config
	asJSON   bool
	htmlFile string
	heapFile string
	cacheDir string
	wasmFile string
	remote   remoteOptions
}

// cmdStress runs the attack corpus mixed with benign traffic and faults
// through a supervisor, prints the report and exits 0 only when every
// expectation held and nothing was left behind.
func cmdStress(args []string, stdout, stderr io.Writer) int {
	o, err := parseStressFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "warden stress: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if o.remote.server != "" {
		if err := useServer(ctx, &o); err != nil {
			fmt.Fprintf(stderr, "warden stress: %v\n", err)
			return exitUsage
		}
		return runStress(ctx, o, stdout, stderr)
	}
	// A temporary directory of its own, for the socket directories the
	// supervisor makes there, so that the audit sees only its own.
	tmp, err := os.MkdirTemp("", "warden-stress-")
	if err == nil {
		err = os.Chmod(tmp, 0o755) // children, as their own uids, reach their socket directories through it
	}
	if err != nil {
		fmt.Fprintf(stderr, "warden stress: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(tmp)
	oldTmp, hadTmp := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", tmp)
	defer func() {
		if hadTmp {
			os.Setenv("TMPDIR", oldTmp)
		} else {
			os.Unsetenv("TMPDIR")
		}
	}()
	o.cfg.TempDirs = []string{tmp}
	o.cfg.Supervisor = supervisor.Config{CacheDir: o.cacheDir, WasmFile: o.wasmFile}
	return runStress(ctx, o, stdout, stderr)
}

// useServer points the run at the daemon of --server, once it has taken
// the token: a refused token is an error before any execution.
func useServer(ctx context.Context, o *stressOptions) error {
	c, err := client.New(o.remote.server, client.Options{Token: o.remote.token})
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := c.CheckToken(cctx); err != nil {
		if errors.Is(err, client.ErrUnauthenticated) {
			return fmt.Errorf("%s refused the token (--token or --token-file): %w", o.remote.server, err)
		}
		return err
	}
	o.cfg.Remote = c
	o.cfg.RemoteChildren = stress.DaemonChildren(o.remote.server, nil)
	return nil
}

// runStress runs o.cfg and prints the report.
func runStress(ctx context.Context, o stressOptions, stdout, stderr io.Writer) int {
	o.cfg.Progress = progressPrinter(stderr)
	if o.heapFile != "" {
		f, err := os.Create(o.heapFile)
		if err != nil {
			fmt.Fprintf(stderr, "warden stress: --memprofile: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		o.cfg.HeapProfile = f
	}
	rep, err := stress.Run(ctx, o.cfg)
	endProgress(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "warden stress: %v\n", err)
		return exitUsage
	}
	if o.htmlFile != "" {
		if err := writeHTMLReport(o.htmlFile, rep); err != nil {
			fmt.Fprintf(stderr, "warden stress: %v\n", err)
			return exitUsage
		}
	}
	if o.asJSON {
		rep.WriteJSON(stdout)
	} else {
		rep.WriteText(stdout)
	}
	if !rep.OK {
		return exitFailed
	}
	return exitOK
}

func writeHTMLReport(path string, rep *stress.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	if err := rep.WriteHTML(f); err != nil {
		f.Close()
		return fmt.Errorf("--html: %w", err)
	}
	return f.Close()
}

// parseStressFlags parses the flags and loads the corpus.
// setFaults takes --faults (names, or all) and --fault-rate.
func (o *stressOptions) setFaults(faults, faultRate string) error {
	switch {
	case faults == "all" && o.remote.server != "":
		o.cfg.Faults = stress.RemoteFaults // every fault that applies
	case faults == "all":
		o.cfg.Faults = stress.Faults
	default:
		o.cfg.Faults = strings.Split(faults, ",")
	}
	for _, f := range o.cfg.Faults {
		if !slices.Contains(stress.Faults, f) {
			return &stressFlagError{"faults", fmt.Sprintf("unknown fault %q (known: %s)", f, strings.Join(stress.Faults, ", "))}
		}
		if o.remote.server != "" && !slices.Contains(stress.RemoteFaults, f) {
			return &stress.RemoteFaultError{Fault: f}
		}
	}
	var err error
	if o.cfg.FaultRate, err = parseShare(faultRate); err != nil {
		return &stressFlagError{"fault-rate", err.Error()}
	}
	if o.cfg.FaultRate == 0 || o.cfg.FaultRate+o.cfg.AttackShare > 1 {
		return &stressFlagError{"fault-rate", "must be above 0 and fit beside the attacks' share"}
	}
	return nil
}

func parseStressFlags(args []string, stderr io.Writer) (o stressOptions, err error) {
	fs := flag.NewFlagSet("warden stress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: warden stress [--server URL [--token T | --token-file F]] [--corpus DIR] [--duration D | -n N] [-c N] [--mix attacks=30%,benign=70%] [--faults kill-child,...] [--fault-rate 5%] [--json] [--html FILE]")
		fs.PrintDefaults()
	}
	corpus := fs.String("corpus", "", "directory of attack scripts (CATEGORY/NAME.js); default: the corpus built into warden")
	fs.DurationVar(&o.cfg.Duration, "duration", 0, "run for this long (instead of -n)")
	fs.IntVar(&o.cfg.N, "n", 0, "executions in the mixed run (default: enough for every attack to run once)")
	fs.IntVar(&o.cfg.Concurrency, "c", 2, "executions in flight")
	mix := fs.String("mix", "attacks=30%,benign=70%", "shares of attacks and benign scripts in the mixed run (fault victims come out of the benign share)")
	faults := fs.String("faults", "", "faults to inject, comma-separated, or 'all': "+strings.Join(stress.Faults, ", "))
	faultRate := fs.String("fault-rate", "5%", "share of executions that inject a fault (with --faults)")
	fs.IntVar(&o.cfg.Baseline, "baseline", 0, "benign executions run alone first, for the latency baseline (default: n/10 within [40, 400])")
	fs.Float64Var(&o.cfg.MaxSlowdown, "max-slowdown", stress.DefaultMaxSlowdown, "fail when benign p50 latency during the attacks exceeds its baseline by more than this factor")
	seed := fs.Uint64("seed", 0, "seed of the mix and the faults' choices (default: from the clock)")
	fs.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	fs.StringVar(&o.htmlFile, "html", "", "also write the report as a self-contained HTML page to FILE")
	fs.StringVar(&o.cacheDir, "cache-dir", defaultCacheDir(), "wazero compilation cache directory")
	wasm := wasmFlag(fs)
	fs.StringVar(&o.heapFile, "memprofile", "", "write a heap profile of this process (supervisor and runner) to FILE when the mixed run ends (go tool pprof FILE)")
	remote := remoteFlags(fs)
	token := fs.String("token", "", "with --server: the bearer token (--token-file keeps it out of the process list)")
	singleValued(fs)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.remote, err = remote(); err != nil {
		return o, &stressFlagError{"server", err.Error()}
	}
	if *token != "" {
		if o.remote.server == "" || o.remote.token != "" {
			return o, &stressFlagError{"token", "needs --server, and not --token-file"}
		}
		o.remote.token = *token
	}
	if fs.NArg() > 0 {
		return o, &stressFlagError{"", fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if o.cfg.N > 0 && o.cfg.Duration > 0 {
		return o, &stressFlagError{"duration", "give --duration or -n, not both"}
	}
	if o.cfg.N < 0 || o.cfg.Duration < 0 {
		return o, &stressFlagError{"n", "must not be negative"}
	}
	if o.cfg.Concurrency < 1 {
		return o, &stressFlagError{"c", "must be at least 1"}
	}
	if o.cfg.AttackShare, err = parseMix(*mix); err != nil {
		return o, err
	}
	if *faults != "" {
		if err := o.setFaults(*faults, *faultRate); err != nil {
			return o, err
		}
	}
	o.cfg.Seed = *seed
	o.wasmFile = *wasm
	if o.cfg.Seed == 0 {
		o.cfg.Seed = uint64(time.Now().UnixNano())
	}
	if *corpus == "" {
		o.cfg.Scripts, err = attacks.Corpus()
	} else {
		if _, statErr := os.Stat(*corpus); statErr != nil {
			return o, fmt.Errorf("--corpus: %w", statErr)
		}
		o.cfg.Scripts, err = attacks.Load(regfile.DirFS(*corpus))
	}
	return o, err
}

// parseMix reads "attacks=30%,benign=70%" and returns the attacks'
// share; the shares must add up to 100%.
func parseMix(v string) (float64, error) {
	shares := map[string]float64{}
	for _, part := range strings.Split(v, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || (name != "attacks" && name != "benign") {
			return 0, &stressFlagError{"mix", fmt.Sprintf("%q: want attacks=N%% or benign=N%%", part)}
		}
		s, err := parseShare(val)
		if err != nil {
			return 0, &stressFlagError{"mix", err.Error()}
		}
		shares[name] = s
	}
	a, aok := shares["attacks"]
	b, bok := shares["benign"]
	switch {
	case aok && bok && (a+b < 0.999 || a+b > 1.001):
		return 0, &stressFlagError{"mix", "the shares must add up to 100%"}
	case !aok:
		a = 1 - b
	}
	if a <= 0 {
		return 0, &stressFlagError{"mix", "the attacks' share must be above 0"}
	}
	return a, nil
}

// parseShare reads "30%" or "0.3".
func parseShare(v string) (float64, error) {
	pct := strings.HasSuffix(v, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a share", v)
	}
	if pct {
		f /= 100
	}
	if f < 0 || f > 1 {
		return 0, fmt.Errorf("%q is not between 0 and 100%%", v)
	}
	return f, nil
}

// progressPrinter prints the run's progress: one updating line on a
// terminal, a plain line every 10 s otherwise.
func progressPrinter(w io.Writer) func(stress.Progress) {
	tty := isTerminal(w)
	var last time.Time
	return func(p stress.Progress) {
		line := fmt.Sprintf("%s: %d executions, %d failed, %.1f/s, %s", p.Phase, p.Executions, p.Failures, p.Rate, p.Elapsed.Round(time.Second))
		if tty {
			fmt.Fprintf(w, "\r\033[K%s", line)
			return
		}
		if time.Since(last) >= 10*time.Second {
			last = time.Now()
			fmt.Fprintln(w, line)
		}
	}
}

// endProgress ends the updating line on a terminal.
func endProgress(w io.Writer) {
	if isTerminal(w) {
		fmt.Fprint(w, "\r\033[K")
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&fs.ModeCharDevice != 0
}
