package recording

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

func TestDiff(t *testing.T) {
	a := contract.Result{OK: true, Value: json.RawMessage(`{"x":[1,2,{"y":"a"}],"big":12345678901234567890}`),
		Logs: []contract.LogEntry{{Level: "log", Text: "hi"}}, Stats: contract.Stats{WallMS: 1}}
	b := a
	b.Stats = contract.Stats{WallMS: 99, ChildPID: 7}
	if d := Diff(a, b); d != nil {
		t.Errorf("envelopes that differ only in stats: %v", d)
	}
	b.Value = json.RawMessage(`{"x":[1,3,{"y":"a"},4],"big":12345678901234567891}`)
	b.Logs = nil
	got := Diff(a, b)
	want := []string{
		"logs: recorded [{\"level\":\"log\",\"text\":\"hi\"}], replayed null",
		"value.big: recorded 12345678901234567890, replayed 12345678901234567891",
		"value.x[1]: recorded 2, replayed 3",
		"value.x[3]: not recorded, replayed 4",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Diff:\n got %q\nwant %q", got, want)
	}
	long := contract.Result{Value: json.RawMessage("[" + strings.Repeat("1,", 99) + "1]")}
	other := contract.Result{Value: json.RawMessage("[" + strings.Repeat("2,", 99) + "2]")}
	if d := Diff(long, other); len(d) != maxDiffs+1 || !strings.Contains(d[maxDiffs], "50 more") {
		t.Errorf("100 differences listed as %d lines, last %q", len(d), d[len(d)-1])
	}
}

// TestRecordThenReplay: the recorder keeps every answer and refusal in
// order; the replayer gives them back, and refuses a request that
// differs from the recorded one or goes past the recording.
func TestRecordThenReplay(t *testing.T) {
	h := func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		if name == "no" {
			return nil, errors.New("refused")
		}
		return json.RawMessage(`{"got":` + string(args) + `}`), nil
	}
	calls := func(h contract.DataHandler) []string {
		var out []string
		for _, c := range []struct{ name, args string }{{"a", `{"k": 1}`}, {"no", ""}, {"b", "[1]"}} {
			// The code reads an answer as JSON.parse does: its value.
			v, err := h(context.Background(), c.name, json.RawMessage(c.args))
			out = append(out, compact(v)+"|"+errString(err))
		}
		return out
	}
	run := func(ctx context.Context, req contract.Request, h contract.DataHandler) contract.Result {
		v, _ := json.Marshal(calls(h))
		return contract.Result{OK: true, Value: v}
	}
	rec := Record(context.Background(), run, contract.Request{Code: "x"}, h)
	if d := rec.Request.Deterministic; d == nil || d.Seed > contract.MaxSafeSeed || d.NowMS == 0 {
		t.Fatalf("Record did not put the request in deterministic mode: %+v", d)
	}
	if len(rec.Answers) != 3 || rec.Answers[1].Error != "refused" || string(rec.Answers[1].Args) != "null" {
		t.Fatalf("answers %+v", rec.Answers)
	}
	var buf bytes.Buffer
	if err := Write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if _, d := Replay(context.Background(), run, back); d != nil {
		t.Fatalf("replay differs: %v", d)
	}
	r := Replayer(back)
	if _, err := r(context.Background(), "a", json.RawMessage(`{"k":2}`)); err == nil || !strings.Contains(err.Error(), `recording's is "a" with {"k":1}`) {
		t.Errorf("other arguments: %v", err)
	}
	r(context.Background(), "no", nil)
	r(context.Background(), "b", json.RawMessage("[1]"))
	if _, err := r(context.Background(), "c", nil); err == nil || !strings.Contains(err.Error(), "was not recorded") {
		t.Errorf("one request past the recording: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestReadRefuses(t *testing.T) {
	for in, want := range map[string]string{
		`{"warden_recording": 2, "request": {"code": "", "deterministic": {"seed": 1}}}`:                                            "version 2",
		`{"warden_recording": 1, "request": {"code": ""}}`:                                                                          "not deterministic",
		`{"warden_recording": 1, "request": {"code": "", "deterministic": {"seed": 9007199254740992}}}`:                             "deterministic.seed",
		`{"warden_recording": 1, "request": {"code": "", "deterministic": {"seed": 1}}, "extra": 1}`:                                "unknown field",
		`{"warden_recording": 1, "request": {"code": "", "deterministic": {"seed": 1}}} {}`:                                         "more than one",
		`{"warden_recording": 1, "request": {"code": "", "deterministic": {"seed": 1}}, "answers": "x"}`:                            "not a recording",
		`{"warden_recording": 1, "request": {"code": "", "language": "cobol", "deterministic": {"seed": 1}}}`:                       "the recording's request",
		`{"warden_recording": 1, "request": {"code": "", "deterministic": {"seed": 1}}, "pad": "` + strings.Repeat("x", 300) + `"}`: "over 256 bytes",
	} {
		if _, err := Read(strings.NewReader(in), 256); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.60s: got %v, want an error with %q", in, err, want)
		}
	}
}
