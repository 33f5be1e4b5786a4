package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/wardenhq/warden/server"
)

// serveFlags is what `warden serve` was given: the config file and the
// flags set on the command line (one per config key), applied over the
// file, at start and again at every SIGHUP.
type serveFlags struct {
	config string
	print  bool
	set    map[string]string
}

func parseServeFlags(args []string, stderr io.Writer) (*serveFlags, error) {
	fs := flag.NewFlagSet("warden serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: warden serve [--config FILE] [--listen ADDR] [--tokens FILE] [--print-config] [--KEY VALUE]...")
		fmt.Fprintln(stderr, "every key of the config file is a flag of the same dotted name (tenants only in the file)")
		fs.PrintDefaults()
	}
	sf := &serveFlags{set: map[string]string{}}
	fs.StringVar(&sf.config, "config", "", "YAML config file (default: none, flags only)")
	fs.BoolVar(&sf.print, "print-config", false, "print the effective config as YAML and exit")
	fs.String("tokens", "", "alias of --tokens_file")
	def := server.DefaultConfig()
	for _, kv := range def.Keys() {
		fs.String(kv.Key, kv.Value, "config key "+kv.Key)
	}
	singleValued(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	var tokens []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "tokens" || f.Name == "tokens_file" {
			tokens = append(tokens, "--"+f.Name)
		}
	})
	if len(tokens) > 1 {
		return nil, fmt.Errorf("%s and %s are the same flag, given twice", tokens[0], tokens[1])
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "config", "print-config":
		case "tokens":
			sf.set["tokens_file"] = f.Value.String()
		default:
			sf.set[f.Name] = f.Value.String()
		}
	})
	return sf, nil
}

// load builds the effective config: defaults, then the file, then flags.
func (sf *serveFlags) load() (server.Config, error) {
	cfg := server.DefaultConfig()
	if sf.config != "" {
		if err := server.LoadConfigFile(sf.config, &cfg); err != nil {
			return cfg, err
		}
	}
	for k, v := range sf.set {
		if err := cfg.SetKey(k, v); err != nil {
			return cfg, err
		}
	}
	return cfg, cfg.Validate()
}

func cmdServe(args []string, stdout, stderr io.Writer) int {
	sf, err := parseServeFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "warden serve: %v\n", err)
		return exitUsage
	}
	cfg, err := sf.load()
	if err != nil {
		fmt.Fprintf(stderr, "warden serve: %v\n", err)
		return exitUsage
	}
	if sf.print {
		b, err := cfg.Marshal()
		if err != nil {
			fmt.Fprintf(stderr, "warden serve: %v\n", err)
			return exitUsage
		}
		stdout.Write(b)
		return exitOK
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	// Signals are caught before the daemon starts, so that a SIGTERM
	// during warm-up drains too.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, os.Interrupt)
	defer signal.Stop(sigs)
	d, err := server.Start(cfg, log)
	if err != nil {
		log.Error("start failed", "error", err)
		return exitUsage
	}
	for sig := range sigs {
		if sig != syscall.SIGHUP {
			log.Info("signal: draining", "signal", sig.String())
			break
		}
		next, err := sf.load()
		if err == nil {
			err = d.Reload(next)
		}
		if err != nil {
			log.Error("reload refused; keeping the tenants in force", "error", err)
			continue
		}
		log.Info("reloaded tenants and quotas", "tenants", len(next.Tenants))
	}
	if err := d.Shutdown(); err != nil {
		log.Error("shutdown", "error", err)
		return exitFailed
	}
	return exitOK
}
