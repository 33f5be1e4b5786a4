package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/regfile"
	"github.com/wardenhq/warden/internal/registry"
	"github.com/wardenhq/warden/recording"
	"github.com/wardenhq/warden/supervisor"
)

// moduleFlags collects repeated --module NAME=FILE flags.
type moduleFlags map[string]string

func (m moduleFlags) String() string { return fmt.Sprint(map[string]string(m)) }

func (m moduleFlags) Set(v string) error {
	name, file, ok := strings.Cut(v, "=")
	if !ok || name == "" || file == "" {
		return fmt.Errorf("want NAME=FILE, got %q", v)
	}
	if _, dup := m[name]; dup {
		return fmt.Errorf("module %q given twice", name)
	}
	src, err := readFileCapped("--module", file, maxCodeFileBytes)
	if err != nil {
		return err
	}
	m[name] = string(src)
	return nil
}

// runOptions is what `warden run` was asked to do.
type runOptions struct {
	req       contract.Request
	data      map[string]json.RawMessage
	cacheDir  string
	wasmFile  string
	inProcess bool
	// modulesDir is a directory of host-approved modules to register.
	modulesDir string
	remote     remoteOptions
	rec        recordOptions
	// handler, when set, answers data requests instead of data.
	handler contract.DataHandler
	// overCode is set (to the bytes read) when the script is over the
	// largest code the caps allow: nothing runs, and the envelope says so.
	overCode int64
}

// readInputAndData takes the script's input (--input or --input-file)
// and the data answers (--data).
func (o *runOptions) readInputAndData(input, inputFile, dataFile string) error {
	switch {
	case input != "":
		o.req.Input = json.RawMessage(input)
	case inputFile != "":
		b, err := readFileCapped("--input-file", inputFile, maxInputFileBytes)
		if err != nil {
			return err
		}
		o.req.Input = b
	}
	if len(o.req.Input) > 0 && !contract.ValidJSON(o.req.Input) {
		return fmt.Errorf("the input is %s", contract.WhyNotJSON(o.req.Input))
	}
	if dataFile != "" {
		var err error
		if o.data, err = readDataFile(dataFile); err != nil {
			return err
		}
	}
	return nil
}

// readDataFile reads --data's JSON object, whose keys answer
// host.request(name, args).
func readDataFile(path string) (map[string]json.RawMessage, error) {
	b, err := readFileCapped("--data", path, maxDataFileBytes)
	if err != nil {
		return nil, err
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(b, &data); err != nil || data == nil {
		return nil, fmt.Errorf("--data %s: want a JSON object: %v", path, err)
	}
	return data, nil
}

// runUsage prints `warden run`'s usage and flags.
func runUsage(stderr io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(stderr, "usage: warden run [--input JSON | --input-file F] [--data F.json] [--timeout D] [--memory BYTES] [--timers N] [--language javascript|typescript] [--format body|module] [--module NAME=FILE]... [--modules DIR] [--wasm FILE] [--server URL [--token-file F]] [--seed N] [--now-ms MS] [--record FILE] FILE.js|FILE.ts|FILE.mjs|-")
	fmt.Fprintln(stderr, "       warden run --replay FILE [--in-process | --server URL [--token-file F]] [--cache-dir D] [--modules DIR] [--wasm FILE]")
	fs.PrintDefaults()
}

func parseRunFlags(args []string, stdin io.Reader, stderr io.Writer) (*runOptions, error) {
	fs := flag.NewFlagSet("warden run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { runUsage(stderr, fs) }
	input := fs.String("input", "", "the script's input, as JSON")
	inputFile := fs.String("input-file", "", "read the script's input JSON from this file")
	dataFile := fs.String("data", "", "a JSON object whose keys answer host.request(name, args)")
	timeout := fs.Duration("timeout", 0, "wall-clock timeout (default 1s)")
	memory := fs.String("memory", "", "memory limit in bytes; KiB/MiB/GiB suffixes allowed (default 16MiB)")
	stack := fs.String("stack", "", "stack limit in bytes (default 512KiB)")
	timers := fs.Int64("timers", 0, "timers pending at once (default 1000)")
	cacheDir := fs.String("cache-dir", defaultCacheDir(), "wazero compilation cache directory of the supervisor (the in-process engine uses DIR-in-process; empty: the supervisor's default, none in process)")
	wasm := wasmFlag(fs)
	inProcess := fs.Bool("in-process", false, "run the engine in this process instead of a child process (no process isolation)")
	language := fs.String("language", "", "the script's language, javascript or typescript (default: typescript for a .ts file, else javascript)")
	format := fs.String("format", "", "the script's form: body (of an async function of input) or module (default: body, or module for a .mjs file or code with import or export declarations)")
	modulesDir := fs.String("modules", "", "a directory of host-approved modules (.js, .mjs, .ts; `make modules` writes one) the script imports by name, preloaded in the heap snapshot")
	remote := remoteFlags(fs)
	record := recordFlags(fs)
	modules := moduleFlags{}
	fs.Var(modules, "module", "NAME=FILE: a module the script may import (repeatable)")
	singleValued(fs, "module")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, err
	}
	o := &runOptions{cacheDir: *cacheDir, wasmFile: *wasm, inProcess: *inProcess}
	if o.remote, err = remote(); err != nil {
		return nil, err
	}
	if o.inProcess && o.remote.server != "" {
		return nil, errors.New("--in-process and --server are exclusive")
	}
	if o.modulesDir = *modulesDir; o.modulesDir != "" && o.remote.server != "" {
		return nil, errors.New("--modules and --server are exclusive: the daemon's modules_dir registers its modules")
	}
	if files, err = record(o, files); err != nil || o.rec.replay != nil {
		return o, err
	}
	if len(files) != 1 {
		fs.Usage()
		return nil, errors.New("want exactly one script file, or - for stdin")
	}
	if *input != "" && *inputFile != "" {
		return nil, errors.New("--input and --input-file are exclusive")
	}
	if o.req.Code, err = readSource(files[0], stdin); err != nil {
		var tooLarge *regfile.TooLargeError
		if !errors.As(err, &tooLarge) {
			return nil, err
		}
		// As every other over-limit input: the contract's envelope.
		o.overCode = tooLarge.Limit
	}
	if err := o.readInputAndData(*input, *inputFile, *dataFile); err != nil {
		return nil, err
	}
	if *timeout < 0 {
		return nil, errors.New("--timeout must be positive")
	}
	o.req.Limits.Timeout = *timeout
	if o.req.Limits.MemoryBytes, err = parseBytes(*memory); err != nil {
		return nil, fmt.Errorf("--memory: %w", err)
	}
	if o.req.Limits.StackBytes, err = parseBytes(*stack); err != nil {
		return nil, fmt.Errorf("--stack: %w", err)
	}
	if *timers < 0 {
		return nil, errors.New("--timers must be positive")
	}
	o.req.Limits.Timers = *timers
	if len(modules) > 0 {
		o.req.Modules = modules
	}
	o.req.Language, o.req.Format = languageAndFormat(files[0], *language, *format)
	return o, nil
}

// languageAndFormat are the flags', or what the script's file name says
// when they are not given: a .ts file is TypeScript, a .mjs file a
// module.
func languageAndFormat(file, language, format string) (string, string) {
	if language == "" && strings.HasSuffix(file, ".ts") {
		language = contract.LanguageTypeScript
	}
	if format == "" && strings.HasSuffix(file, ".mjs") {
		format = contract.FormatModule
	}
	return language, format
}

func readSource(name string, stdin io.Reader) (string, error) {
	if name == "-" {
		b, err := readCapped(stdin, "the script on stdin", maxCodeFileBytes)
		return string(b), err
	}
	b, err := readFileCapped("the script", name, maxCodeFileBytes)
	return string(b), err
}

// The caps on what `warden run` reads, checked before anything is sent,
// so that a huge file fails with a clear message instead of filling
// memory (and one that is not a regular file, a FIFO or /dev/zero, is
// refused before a byte is read).
var (
	// maxCodeFileBytes caps the script and each module: the largest code
	// the caps allow (CodeBytes covers code and modules together, which
	// the engine checks).
	maxCodeFileBytes = contract.DefaultCaps.CodeBytes
	// maxInputFileBytes caps --input-file: what the supervisor accepts.
	maxInputFileBytes int64 = supervisor.DefaultMaxInputBytes
	// maxDataFileBytes caps --data, 64 MiB: the file is parsed and held
	// in memory whole, and each answer taken from it also counts against
	// the execution's DataBytes limit.
	maxDataFileBytes int64 = 64 << 20
)

// readFileCapped reads the file path, given as flag, refusing one over
// limit bytes, and anything but a regular file (regfile: a named pipe
// without a writer is refused at once, not waited on).
func readFileCapped(flag, path string, limit int64) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	defer f.Close()
	return readCapped(f, flag+" "+path, limit)
}

// readCapped reads r, called name in errors, refusing more than limit
// bytes. It never reads more than limit+1.
func readCapped(r io.Reader, name string, limit int64) ([]byte, error) {
	return regfile.ReadCapped(r, name, limit)
}

// parseBytes reads a size flag (contract.ParseSize). Empty means zero:
// the default.
func parseBytes(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	return contract.ParseSize(s)
}

// defaultCacheDir is the --cache-dir default: the supervisor's default,
// or none when there is none (New then says what to set).
func defaultCacheDir() string {
	dir, _ := supervisor.DefaultCacheDir()
	return dir
}

// inProcessCacheDir is the in-process engine's cache: beside the
// supervisor's, not in it. Its entry (compiled with CloseOnContextDone)
// is not one children use, and every file in the supervisor's cache is
// one each child checks against its SHA-256 before starting.
func inProcessCacheDir(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Clean(dir) + "-in-process"
}

// warnLogger logs warnings and errors as text to w.
func warnLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// writeJSON writes v to w as indented JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// dataHandler answers the script's data requests: o.handler (a
// recording's), or --data's.
func (o *runOptions) dataHandler() contract.DataHandler {
	if o.handler != nil {
		return o.handler
	}
	return staticData(o.data)
}

// staticData answers host.request(name) with data[name].
func staticData(data map[string]json.RawMessage) contract.DataHandler {
	if data == nil {
		return nil
	}
	return func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		v, ok := data[name]
		if !ok {
			return nil, fmt.Errorf("no data named %q", name)
		}
		return v, nil
	}
}

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseRunFlags(args, stdin, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "warden run: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run := runSupervised
	if o.inProcess {
		run = runInProcess
	}
	if o.remote.server != "" {
		run = runRemote
	}
	if o.overCode > 0 {
		run = func(context.Context, *runOptions) (contract.Result, error) {
			limits, _, _ := contract.Resolve(o.req.Limits, contract.DefaultLimits, contract.DefaultCaps)
			return contract.Fail(contract.ResourceErrorf(contract.KindCode, "code is more than %d bytes, over the %d-byte limit",
				o.overCode, limits.CodeBytes), limits), nil
		}
	}
	var recorder *recording.Recorder
	switch {
	case o.rec.replay != nil:
		o.handler = recording.Replayer(o.rec.replay)
	case o.rec.record != "":
		recorder = recording.NewRecorder(staticData(o.data))
		o.handler = recorder.Handler()
	}
	res, err := run(ctx, o)
	if err == nil && recorder != nil {
		err = finishRecord(o, recorder, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "warden run: %v\n", err)
		return exitUsage
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		fmt.Fprintf(stderr, "warden run: write envelope: %v\n", err)
		return exitUsage
	}
	if o.rec.replay != nil {
		return reportReplay(stderr, recording.Diff(o.rec.replay.Envelope, res))
	}
	if !res.OK {
		return exitFailed
	}
	return exitOK
}

// runInProcess runs the script on an in-process engine. With nothing
// above it to kill a slow C builtin, CloseOnContextDone is on.
func runInProcess(ctx context.Context, o *runOptions) (contract.Result, error) {
	dir := inProcessCacheDir(o.cacheDir)
	if dir != "" {
		// The parents 0755, as the supervisor makes them: its cache sits
		// beside this one, and its children must be able to search them
		// (a parent made 0700 here broke every later supervised run).
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			dir = ""
		} else if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			dir = ""
		}
	}
	reg, err := inProcessRegistry(o.modulesDir)
	if err != nil {
		return contract.Result{}, err
	}
	wasm, pack := inProcessFiles(o.cacheDir, o.wasmFile)
	eng, err := engine.New(ctx, engine.Config{CacheDir: dir, CloseOnContextDone: true, Registry: reg, WasmFile: wasm, IntlPack: pack})
	if err != nil {
		return contract.Result{}, err
	}
	defer eng.Close(context.WithoutCancel(ctx))
	return eng.Execute(ctx, o.req, engine.RunOptions{Handler: o.dataHandler()}), nil
}

// runSupervised runs the script in a child process, as the daemon does.
func runSupervised(ctx context.Context, o *runOptions) (contract.Result, error) {
	sup, err := supervisor.New(supervisor.Config{
		CacheDir:     o.cacheDir,
		WasmFile:     o.wasmFile,
		ModulesDir:   o.modulesDir,
		PoolSize:     1,
		QueueTimeout: 30 * time.Second,
		Logger:       warnLogger(os.Stderr),
	})
	if err != nil {
		return contract.Result{}, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		sup.Close(cctx)
	}()
	res, _ := sup.Execute(ctx, o.req, o.dataHandler())
	return res, nil
}

// inProcessRegistry is the registry of the modules in dir for the
// in-process engine, under the supervisor's defaults (nil for no dir).
func inProcessRegistry(dir string) (*engine.Registry, error) {
	if dir == "" {
		return nil, nil
	}
	mods, err := registry.FromDir(dir, supervisor.DefaultMaxModulesBytes)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, m := range mods {
		total += int64(len(m.Source))
	}
	set, err := registry.New(mods, 8*total+4<<20)
	if err != nil {
		return nil, err
	}
	return engine.NewRegistry(set), nil
}
