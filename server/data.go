package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/strictjson"
)

// answerShape is what a data answer is checked against (names exactly,
// none twice, also inside the value, valid UTF-8, a string error).
type answerShape struct {
	Value json.RawMessage `json:"value"`
	Error string          `json:"error"`
	Park  bool            `json:"park"`
}

var answerType = reflect.TypeFor[answerShape]()

// parseAnswer reads a data answer, `{"value": JSON}`, `{"error":
// "message"}` or `{"park": true}` (park the execution here, when its
// request allows it): exactly one of them, nothing else, decoded
// as strictly as an execution's body (internal/strictjson). The value is
// a slice of b, not a copy: an answer may be as large as the
// execution's data_bytes, and each copy of it is that much more memory
// per answer in flight.
func parseAnswer(b []byte) (dataAnswer, error) {
	if err := strictjson.Check(b, answerType); err != nil {
		return dataAnswer{}, contract.Errorf(contract.ContractError, "body: %v", err)
	}
	// b is one valid JSON object with no name but value and error, each
	// at most once. If its first member's value runs to the closing
	// brace and is itself one valid JSON value, that is its only member.
	rest := bytes.TrimSpace(b)
	inner := bytes.TrimSpace(rest[1 : len(rest)-1])
	key, value, ok := splitMember(inner)
	if !ok || !json.Valid(value) {
		return dataAnswer{}, contract.Errorf(contract.ContractError, `want exactly one field, "value", "error" or "park"`)
	}
	switch key {
	case "value":
		return dataAnswer{value: value}, nil
	case "park":
		if string(value) != "true" {
			return dataAnswer{}, contract.Errorf(contract.ContractError, `"park" must be true`)
		}
		return dataAnswer{err: contract.ErrPark}, nil
	}
	var msg string
	if err := json.Unmarshal(value, &msg); err != nil {
		return dataAnswer{}, contract.Errorf(contract.ContractError, `"error" must be a string: %v`, err)
	}
	return dataAnswer{err: errors.New(msg)}, nil
}

// splitMember splits the members of a valid JSON object's inside at its
// first member: the first name (unescaped) and the rest after its colon.
func splitMember(inner []byte) (key string, value []byte, ok bool) {
	if len(inner) == 0 || inner[0] != '"' {
		return "", nil, false
	}
	end := 1
	for end < len(inner) && inner[end] != '"' {
		if inner[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(inner) || json.Unmarshal(inner[:end+1], &key) != nil {
		return "", nil, false
	}
	after := bytes.TrimSpace(inner[end+1:])
	if len(after) == 0 || after[0] != ':' {
		return "", nil, false
	}
	value = bytes.TrimSpace(after[1:])
	return key, value, len(value) > 0
}

func (s *Server) handleData(w http.ResponseWriter, r *http.Request) {
	t := s.authenticate(w, r)
	if t == nil {
		return
	}
	notFound := func(msg string) {
		s.fail(w, http.StatusNotFound, &contract.Error{Type: NotFound, Message: msg})
	}
	e := s.execs.get(execKey{t.name, r.PathValue("id")})
	if e == nil {
		notFound("no live execution with this id")
		return
	}
	seq, err := strconv.ParseInt(r.PathValue("seq"), 10, 64)
	if err != nil || seq < 1 {
		notFound("no pending data request with this seq")
		return
	}
	// The seq is claimed before a byte of the answer is read: an answer
	// to a seq never asked, or a second one, costs the daemon nothing.
	switch err := e.claim(seq); {
	case errors.Is(err, errAnswered):
		s.fail(w, http.StatusConflict, &contract.Error{Type: contract.ContractError, Kind: KindConflict,
			Message: fmt.Sprintf("data request %d is already answered", seq)})
		return
	case errors.Is(err, errAnswering):
		s.fail(w, http.StatusConflict, &contract.Error{Type: contract.ContractError, Kind: KindConflict,
			Message: fmt.Sprintf("an answer to data request %d is being read", seq)})
		return
	case err != nil:
		notFound("no pending data request with this seq")
		return
	}
	a, ok := s.readAnswer(w, r, t, e.dataLimit()+bodySlack)
	if !ok {
		e.unclaim(seq)
		return
	}
	if len(a.value) >= reclaimAfter {
		e.large.Store(true)
	}
	if err := e.answer(seq, a); err != nil {
		notFound("no pending data request with this seq")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// readAnswer admits, reads and parses a data answer of at most limit
// bytes; on failure it writes the refusal.
func (s *Server) readAnswer(w http.ResponseWriter, r *http.Request, t *tenant, limit int64) (dataAnswer, bool) {
	if !s.checkBodySize(w, r, limit) {
		return dataAnswer{}, false
	}
	done := s.admitBody(w, r, t, limit)
	if done == nil {
		return dataAnswer{}, false
	}
	defer done()
	raw, ok := s.readBody(w, r, limit)
	if !ok {
		return dataAnswer{}, false
	}
	a, err := parseAnswer(raw)
	if err != nil {
		ce := contract.AsError(err)
		ce.Type, ce.Kind = contract.ContractError, KindMalformed
		s.fail(w, http.StatusBadRequest, ce)
		return dataAnswer{}, false
	}
	return a, true
}

// webhookCall is what the daemon POSTs to a tenant's webhook for each
// data request.
type webhookCall struct {
	ExecutionID string          `json:"execution_id"`
	Tenant      string          `json:"tenant"`
	Seq         int64           `json:"seq"`
	Name        string          `json:"name"`
	Args        json.RawMessage `json:"args"`
	// ParkRefused is set when the webhook answered park and the
	// execution could not: the webhook is asked again, and says why.
	ParkRefused string `json:"park_refused,omitempty"`
}

// defaultWebhookTimeout bounds one webhook call when the config does not.
const defaultWebhookTimeout = 2 * time.Second

// webhookHandler answers e's data requests by POSTing each to t's
// webhook: the call is bounded in time (the webhook's timeout and the
// execution's deadline), the answer's body by the execution's data_bytes
// limit, and redirects may not leave the webhook's host.
func (s *Server) webhookHandler(t *tenant, e *execution) contract.DataHandler {
	wh := t.webhook
	timeout := wh.Timeout
	if timeout == 0 {
		timeout = defaultWebhookTimeout
	}
	client := &http.Client{Timeout: timeout, CheckRedirect: sameHostRedirects}
	return func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		a, err := s.callWebhook(ctx, client, wh.URL, webhookCall{ExecutionID: e.key.id, Tenant: t.name,
			Seq: requestSeq(ctx, e), Name: name, Args: args, ParkRefused: parkRefusal(ctx)}, e.dataLimit())
		result := "ok"
		if err != nil || a.err != nil {
			result = "error"
		}
		s.metrics.data.WithLabelValues("webhook", result).Inc()
		if err != nil {
			s.log.Warn("webhook failed", "tenant", t.name, "execution", e.key.id, "error", err)
			return nil, fmt.Errorf("host.request %q: the data webhook failed", name)
		}
		return a.value, a.err
	}
}

func (s *Server) callWebhook(ctx context.Context, client *http.Client, u string, call webhookCall, limit int64) (dataAnswer, error) {
	body, err := json.Marshal(call)
	if err != nil {
		return dataAnswer{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return dataAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return dataAnswer{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return dataAnswer{}, fmt.Errorf("webhook answered %s", resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+bodySlack+1))
	if err != nil {
		return dataAnswer{}, err
	}
	if int64(len(b)) > limit+bodySlack {
		return dataAnswer{}, fmt.Errorf("webhook answer over %d bytes", limit+bodySlack)
	}
	return parseAnswer(b)
}

// sameHostRedirects lets a webhook redirect within its own host (and
// scheme) only, at most 5 times.
func sameHostRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("webhook: too many redirects")
	}
	first := via[0].URL
	if req.URL.Host != first.Host || req.URL.Scheme != first.Scheme {
		return fmt.Errorf("webhook: redirect to another host (%s) refused", req.URL.Host)
	}
	return nil
}

// checkWebhookURL accepts absolute http and https URLs.
func checkWebhookURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("want an absolute http or https URL, got %q", s)
	}
	return nil
}
