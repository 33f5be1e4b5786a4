package main

import (
	"context"
	"errors"
	"flag"
	"strings"

	"github.com/wardenhq/warden/client"
	"github.com/wardenhq/warden/contract"
)

// remoteOptions say where `warden run --server` sends the script.
type remoteOptions struct {
	server string // the daemon's base URL; empty runs locally
	token  string
}

// maxTokenFileBytes caps --token-file: a token is a line, not a file.
const maxTokenFileBytes = 4096

// remoteFlags defines --server and --token-file on fs; the function it
// returns reads them once fs is parsed.
func remoteFlags(fs *flag.FlagSet) func() (remoteOptions, error) {
	server := fs.String("server", "", "run the script on the warden serve daemon at this URL (http://HOST:PORT) instead of locally")
	tokenFile := fs.String("token-file", "", "with --server: read the bearer token from this file (default: no token)")
	return func() (remoteOptions, error) {
		o := remoteOptions{server: *server}
		if *tokenFile == "" {
			return o, nil
		}
		if o.server == "" {
			return o, errors.New("--token-file needs --server")
		}
		b, err := readFileCapped("--token-file", *tokenFile, maxTokenFileBytes)
		if err != nil {
			return o, err
		}
		o.token = strings.TrimSpace(string(b))
		return o, nil
	}
}

// runRemote runs the script on a daemon. It always streams, so that the
// script's data requests are answered here (from --data, or refused as
// a local run without --data refuses them) rather than left to the
// daemon. Its envelope is printed as a local run's is; a refusal that
// carries no envelope (auth, a wrong URL, the network) is an error, as
// a local set-up error is.
func runRemote(ctx context.Context, o *runOptions) (contract.Result, error) {
	c, err := client.New(o.remote.server, client.Options{Token: o.remote.token})
	if err != nil {
		return contract.Result{}, err
	}
	res, err := c.Stream(ctx, o.req, o.dataHandler(), nil)
	var envelope *contract.Error
	if err != nil && !errors.As(err, &envelope) {
		return contract.Result{}, err
	}
	return res, nil
}
