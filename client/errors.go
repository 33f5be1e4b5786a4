package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Sentinels for the refusals that are not part of the execution contract
// (an *APIError matches them by status).
var (
	// ErrUnauthenticated: 401, no token or an unknown one.
	ErrUnauthenticated = errors.New("client: unauthenticated")
	// ErrForbidden: 403, the tenant may not do this (a module not on its
	// allow-list, a limit above its cap).
	ErrForbidden = errors.New("client: forbidden")
	// ErrNotFound: 404, no such route, or no such live execution of
	// this tenant (on this replica).
	ErrNotFound = errors.New("client: not found")
)

// APIError is a request the server refused: any status but 200. It
// matches ErrUnauthenticated, ErrForbidden and ErrNotFound by status, and
// unwraps to the body's *contract.Error when the body is a contract
// envelope (400 ContractError, 429 and 503 CapacityError, ...), so
// errors.Is(err, contract.ErrCapacity) holds for a quota refusal.
type APIError struct {
	// Status is the HTTP status code.
	Status int
	// Body is the error the body carried: for a contract refusal its
	// type is one of the contract's; for auth and routing errors it is
	// "AuthError", "NotFound" and the like. Nil when the body held none.
	Body *contract.Error
	// RetryAfter is the server's Retry-After (429, 503), else zero.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	if e.Body == nil {
		return fmt.Sprintf("client: the server answered %d %s", e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("client: the server answered %d: %v", e.Status, e.Body)
}

// Is matches the status sentinels.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrUnauthenticated:
		return e.Status == http.StatusUnauthorized
	case ErrForbidden:
		return e.Status == http.StatusForbidden
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	}
	return false
}

// Unwrap returns the body's error when it is one of the contract's types.
func (e *APIError) Unwrap() error {
	if e.Body == nil || !e.Body.Type.Known() {
		return nil
	}
	return e.Body
}

// refused reads a non-200 response: an *APIError, and the envelope when
// the body is one of the contract's (what `warden run` prints for the
// same refusal made locally).
func refused(resp *http.Response, limit int64) (contract.Result, error) {
	e := &APIError{Status: resp.StatusCode}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			e.RetryAfter = time.Duration(n) * time.Second
		}
	}
	// Refusals are small (no script has run): 1 MiB is plenty, and a
	// body that does not fit is reported without it.
	body, err := readCapped(resp.Body, min(limit, 1<<20))
	var res contract.Result
	if err != nil || json.Unmarshal(body, &res) != nil || res.Error == nil {
		return contract.Result{}, e
	}
	e.Body = res.Error
	if !res.Error.Type.Known() {
		return contract.Result{}, e
	}
	if res.Logs == nil {
		res.Logs = []contract.LogEntry{}
	}
	return res, e
}
