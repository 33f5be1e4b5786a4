package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/recording"
)

// recordJS reads the clock, entropy and a data answer, after a timer.
const recordJS = `
await new Promise((r) => setTimeout(r, 5000));
const user = await host.request("user", { id: 7 });
console.log("at", new Date().toISOString(), Math.random());
return { r: Math.random(), uuid: crypto.randomUUID(), now: Date.now(), user, bytes: Array.from(crypto.getRandomValues(new Uint8Array(4))) };
`

// TestRecordAndReplay: --record writes the request (deterministic, a
// seed and the time drawn), the data answers in order and the envelope;
// --replay of it, in another child (or in process), gives the same
// envelope but for stats and exits 0 even for a failed execution; a
// recording whose answer or code was changed replays to an envelope
// that differs, which --replay lists and exits 1 for.
func TestRecordAndReplay(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte(recordJS), 0o600)
	data := filepath.Join(dir, "d.json")
	os.WriteFile(data, []byte(`{"user": {"name": "ada"}}`), 0o600)
	rec := filepath.Join(dir, "rec.json")
	cache := "--cache-dir=" + cacheDir

	code, out, errOut := runCLI(t, "", "run", cache, "--data", data, "--record", rec, script)
	if code != exitOK {
		t.Fatalf("--record: exit %d, %s %s", code, out, errOut)
	}
	recorded := envelope(t, out)
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	r, err := recording.Read(f, 1<<20)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(rec); fi.Mode().Perm() != 0o600 {
		t.Errorf("the recording is mode %v, want 0600: it holds the input and data answers", fi.Mode().Perm())
	}
	if r.Request.Deterministic == nil || r.Request.Deterministic.NowMS == 0 || len(r.Answers) != 1 ||
		r.Answers[0].Name != "user" || compactJSON(t, r.Answers[0].Value) != `{"name":"ada"}` {
		t.Fatalf("recording: %+v", r)
	}
	var v struct{ Now int64 }
	json.Unmarshal(recorded.Value, &v)
	if v.Now != r.Request.Deterministic.NowMS+5000 {
		t.Errorf("Date.now() after a 5 s timer is %d, want now_ms+5000 = %d", v.Now, r.Request.Deterministic.NowMS+5000)
	}

	for _, mode := range [][]string{{cache}, {cache, "--in-process"}} {
		code, out, errOut := runCLI(t, "", append(append([]string{"run"}, mode...), "--replay", rec)...)
		if code != exitOK || errOut != "" {
			t.Fatalf("--replay %v: exit %d, %s", mode, code, errOut)
		}
		if d := recording.Diff(recorded, envelope(t, out)); d != nil {
			t.Fatalf("--replay %v differs: %v", mode, d)
		}
	}

	// Changed answers or code replay differently, and say where.
	for name, change := range map[string]func(*recording.Recording){
		"answer": func(r *recording.Recording) { r.Answers[0].Value = json.RawMessage(`{"name":"eve"}`) },
		"code":   func(r *recording.Recording) { r.Request.Code = strings.Replace(r.Request.Code, "id: 7", "id: 8", 1) },
		"seed":   func(r *recording.Recording) { r.Request.Deterministic.Seed++ },
	} {
		c := *r
		c.Answers = append([]recording.Answer(nil), r.Answers...)
		d := *r.Request.Deterministic
		c.Request.Deterministic = &d
		change(&c)
		p := filepath.Join(dir, name+".json")
		f, _ := os.Create(p)
		recording.Write(f, &c)
		f.Close()
		code, _, errOut := runCLI(t, "", "run", cache, "--in-process", "--replay", p)
		if code != exitFailed || !strings.Contains(errOut, "differs from the recording") {
			t.Errorf("replay of a changed %s: exit %d, %q", name, code, errOut)
		}
		t.Logf("changed %s: %s", name, errOut)
	}

	// A failed execution replays to exit 0 when it fails the same way.
	os.WriteFile(script, []byte(`throw new Error("at " + Date.now() + " " + Math.random())`), 0o600)
	if code, out, errOut := runCLI(t, "", "run", cache, "--in-process", "--record", rec, script); code != exitFailed {
		t.Fatalf("--record of a throw: exit %d, %s %s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "", "run", cache, "--in-process", "--replay", rec); code != exitOK {
		t.Errorf("--replay of a recorded throw: exit %d, %s", code, errOut)
	}
}

func compactJSON(t *testing.T, b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestRecordFlagsRefused: --replay with a script or a request flag, a
// file that is not a recording, a seed out of range: usage errors that
// say what is wrong, and nothing runs.
func TestRecordFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.js")
	os.WriteFile(script, []byte("return 1"), 0o600)
	notRec := filepath.Join(dir, "n.json")
	os.WriteFile(notRec, []byte(`{"code": "return 1"}`), 0o600)
	plain := filepath.Join(dir, "p.json")
	os.WriteFile(plain, []byte(`{"warden_recording": 1, "request": {"code": "return 1"}, "answers": [], "envelope": {"ok": true}}`), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--replay", notRec, script}, "drop [" + script + "]"},
		{[]string{"--replay", notRec, "--timeout", "1s"}, "drop [--timeout]"},
		{[]string{"--replay", notRec, "--record", plain}, "drop [--record]"},
		{[]string{"--replay", notRec}, "not a recording"},
		{[]string{"--replay", plain}, "not deterministic"},
		{[]string{"--replay", filepath.Join(dir, "missing.json")}, "no such file"},
		{[]string{"--seed", "9007199254740992", script}, "--seed"},
		{[]string{"--seed", "-1", script}, "--seed"},
		{[]string{"--now-ms", "x", script}, "--now-ms"},
	} {
		code, out, errOut := runCLI(t, "", append([]string{"run", "--in-process"}, c.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error naming %q", c.args, code, out, errOut, c.want)
		}
	}
}
