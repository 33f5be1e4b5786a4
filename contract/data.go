package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrNoDataHandler is the error a guest's host.request gets when its
// execution has no DataHandler.
var ErrNoDataHandler = errors.New("host.request: no data handler is configured")

// CallDataHandler is the one policy for answering a host.request, the
// same in process (child/engine) and supervised (ipc): a nil handler
// answers ErrNoDataHandler; the handler gets args, or JSON null when the
// guest passed none; a nil answer is null; an answer that is not JSON
// (in UTF-8) is an error for the guest. The bounds on the traffic (Limits.DataRequests
// and DataBytes) are the callers' to enforce: they differ in where the
// bytes are counted, not in what the guest sees.
func CallDataHandler(ctx context.Context, h DataHandler, name string, args json.RawMessage) (json.RawMessage, error) {
	if h == nil {
		return nil, ErrNoDataHandler
	}
	if len(args) == 0 {
		args = json.RawMessage("null")
	}
	value, err := h(ctx, name, args)
	switch {
	case err != nil:
		return nil, err
	case len(value) == 0:
		return json.RawMessage("null"), nil
	case !utf8.Valid(value):
		return nil, fmt.Errorf("host.request %q: the data handler answered with JSON that is not valid UTF-8", name)
	case !json.Valid(value):
		return nil, fmt.Errorf("host.request %q: the data handler answered with invalid JSON", name)
	}
	return value, nil
}
