package faultsuite

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// bodies is an HTTP receiver that keeps every request body and answers
// with answer (nil: 200 "ok", as Slack does).
type bodies struct {
	mu     sync.Mutex
	got    []string
	answer func(w http.ResponseWriter, r *http.Request, body []byte)
}

func (b *bodies) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	b.mu.Lock()
	b.got = append(b.got, string(body))
	b.mu.Unlock()
	if b.answer != nil {
		b.answer(w, r, body)
		return
	}
	_, _ = io.WriteString(w, "ok")
}

func (b *bodies) all() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.got...)
}

// leakedSecrets maps a name to a log line that carries one secret, for
// each shape of issue 33 finding 5; the secret itself always holds
// "Zq7" so a leak of any of it is found by that.
var leakedSecrets = map[string]string{
	"url password, empty user": "redis://:Zq7RedisPw1@redis:6379/0",
	"https token, empty user":  "https://:Zq7HttpsTok@git.example.com/org/repo.git",
	"url password with at":     "amqp://app:p@ssZq7@mq:5672/",
	"SECRET_KEY":               "SECRET_KEY=Zq7DjangoKey",
	"secret_key colon":         "secret_key: Zq7YamlKey",
	"private_key":              "private_key=Zq7PrivKey",
	"passphrase":               "passphrase=Zq7Phrase",
	"credentials":              "credentials=Zq7Creds",
	"cookie":                   "Cookie: session=Zq7Session; csrftoken=Zq7Csrf",
	"set-cookie":               "Set-Cookie: sid=Zq7SetCookie; Path=/",
	"slack bot token":          "xoxb-2345678901-2345678901234-Zq7AbCdEfGhIjKlMn",
	"slack user token":         "xoxp-2345678901-2345678901-Zq7AbCdEfGhIjKlMnOp",
	"google api key":           "AIzaSyZq7b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6",
	"gitlab token":             "glpat-Zq7Cd2Ef3Gh4Ij5Kl6Mn",
	"npm token":                "npm_Zq7Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2",
	"bare jwt":                 "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJacTcifQ.Zq7Signature",
	"pem one line":             `-----BEGIN PRIVATE KEY-----\nMIIEvZq7IBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----`,
	"discord webhook":          "https://discord.com/api/webhooks/123456789012345678/Zq7DiscordHookToken",
	"teams webhook":            "https://contoso.webhook.office.com/webhookb2/Zq7TeamsHook@tenant/IncomingWebhook/abc",
	"url-encoded password":     "body=user%3Dadmin%26password%3DZq7Encoded%26next%3D1",
	"bearer lower case":        "retry with bearer Zq7Bearer123",
	"bearer tab":               "header\tBearer\tZq7TabBearer",
	"multi-word value":         "db_password: correct Zq7 horse",
	"escaped quotes":           `{"password": "pa\"ss Zq7\"word"}`,
}

// Issue 33 finding 5: no secret shape reaches a sink, and a line longer
// than the line bound leaks no part of a value whose key was cut away.
// The alerts go to stdout and to a webhook; neither holds any secret.
func TestIssue33SecretsNeverReachASink(t *testing.T) {
	hook := &bodies{}
	srv := httptest.NewServer(hook)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, fmt.Sprintf("sinks:\n  - {type: stdout}\n  - {type: webhook, name: hook, url: %q}\n", srv.URL))
	var log strings.Builder
	for _, s := range leakedSecrets {
		log.WriteString("Traceback (most recent call last):\n  File \"/app/db.py\", line 3, in connect\n    open_db()\n")
		log.WriteString("ConnectionRefusedError: connect with " + s + " refused\n")
	}
	// A line of 40 KB, over the 16 KB line bound: its key is in the head,
	// the value runs into the tail the cut keeps.
	long := strings.Repeat("Zq7", 40<<10/3)
	log.WriteString("[2026-05-28 00:17:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered password=" + long + " end\n")
	res := run(t, []byte(log.String()), "run", "--config", cfg, "--path", "-", "--state-dir", filepath.Join(dir, "state"), "--http-addr", "", "--group-window", "0")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, "[REDACTED]") || len(hook.all()) == 0 {
		t.Fatalf("no redacted alert on stdout or at the webhook (%d posts):\n%.2000s", len(hook.all()), res.stdout)
	}
	outputs := map[string]string{"stdout": res.stdout, "webhook": strings.Join(hook.all(), "\n"), "stderr": res.stderr}
	for where, out := range outputs {
		for name, s := range leakedSecrets {
			i := strings.Index(s, "Zq7")
			secret := s[i:min(i+8, len(s))]
			if strings.Contains(out, secret) {
				t.Errorf("%s: %s: %q reached it", where, name, secret)
			}
		}
		if strings.Contains(out, "Zq7Zq7") {
			t.Errorf("%s: the tail of the cut line's password reached it", where)
		}
		// Every secret holds "Zq7" and nothing else does: any left is a
		// leak, whatever escaping the output adds around it.
		if i := strings.Index(out, "Zq7"); i >= 0 && !t.Failed() {
			t.Errorf("%s: a secret reached it: %q", where, out[max(i-60, 0):min(i+20, len(out))])
		}
	}
}

// Issue 33 finding 6: state.db holds open incidents and undelivered
// alerts; none of it is unredacted. The webhook is down, so the alerts
// stay queued and the incidents open when logmatch stops; the file is
// then searched byte by byte for every secret.
func TestIssue33NothingUnredactedInStateDB(t *testing.T) {
	down := &bodies{answer: func(w http.ResponseWriter, _ *http.Request, _ []byte) { w.WriteHeader(http.StatusServiceUnavailable) }}
	srv := httptest.NewServer(down)
	defer srv.Close()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	cfg := writeConfig(t, dir, fmt.Sprintf("sinks:\n  - {type: webhook, name: down, url: %q, retry: {initial_backoff: 10ms, max_backoff: 50ms}}\n", srv.URL))
	// One incident per secret: each traceback has an exception type of
	// its own, so every secret is in an open incident's alert.
	var log strings.Builder
	for i, name := range slices.Sorted(maps.Keys(leakedSecrets)) {
		fmt.Fprintf(&log, "Traceback (most recent call last):\n  File \"/app/db.py\", line 3, in connect\n    open_db()\n")
		fmt.Fprintf(&log, "Secret%dError: connect with %s refused\n", i, leakedSecrets[name])
	}
	log.WriteString("[2026-05-28 00:17:01 TP0] RuntimeError: CUDA error: an illegal memory access was encountered password=" + strings.Repeat("Zq7", 40<<10/3) + "\n")
	path := writeFile(t, dir, "server.log", log.String())
	addr := freeAddr(t)
	p := start(t, "run", "--config", cfg, "--path", path, "--start-at", "beginning", "--state-dir", state, "--http-addr", addr)
	if !waitFor(time.Minute, func() bool { return len(down.all()) > 0 }) {
		t.Fatalf("no delivery attempt\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	if _, ok := p.wait(time.Minute); !ok {
		t.Fatalf("no exit after SIGTERM\n%s", p.stderr.String())
	}
	db, err := os.ReadFile(filepath.Join(state, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(db), "[REDACTED]") {
		t.Fatalf("state.db holds no redacted alert: the test stored nothing")
	}
	for name, s := range leakedSecrets {
		i := strings.Index(s, "Zq7")
		if secret := s[i:min(i+8, len(s))]; strings.Contains(string(db), secret) {
			t.Errorf("%s: %q is in state.db", name, secret)
		}
	}
	if strings.Contains(string(db), "Zq7Zq7") {
		t.Errorf("the cut line's password is in state.db")
	}
	if i := strings.Index(string(db), "Zq7"); i >= 0 && !t.Failed() {
		t.Errorf("a secret is in state.db: %q", db[max(i-60, 0):min(i+20, len(db))])
	}
}

// livezLine is a fatal line whose text carries terminal controls (an OSC
// that writes the clipboard and one that retitles the window, a C1 CSI, a
// NUL, bytes that are not UTF-8) and a right-to-left override.
const livezLine = "[2026-05-28 00:17:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered " +
	"\x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;pwned\x07\u009b2J\x00\xff\xfe \u202Edecnuoba\u202C\n"

// Issue 33 finding 7: /livez's body, printed by `curl -s .../livez` to a
// terminal, carries no control sequence from the log.
func TestIssue33LivezBodyHasNoControlSequences(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "server.log", livezLine)
	addr := freeAddr(t)
	p := start(t, "run", "--path", path, "--start-at", "beginning", "--state-dir", filepath.Join(dir, "state"), "--http-addr", addr)
	var code int
	var body string
	if !waitFor(time.Minute, func() bool {
		code, body = get("http://" + addr + "/livez")
		return code == http.StatusServiceUnavailable
	}) {
		t.Fatalf("/livez never failed: %d %q\n%s", code, body, p.stderr.String())
	}
	if c := terminalControls(body); len(c) > 0 {
		t.Errorf("/livez passes terminal controls %v:\n%q", c, body)
	}
	if b := bidiControls(body); len(b) > 0 {
		t.Errorf("/livez passes bidirectional controls %v:\n%q", b, body)
	}
	if !utf8.ValidString(body) {
		t.Errorf("/livez passes bytes that are not UTF-8:\n%q", body)
	}
}

// bidiControls returns the Unicode bidirectional controls in s.
func bidiControls(s string) []string {
	var out []string
	for _, r := range s {
		if r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			out = append(out, fmt.Sprintf("%U", r))
		}
	}
	return out
}

// Issue 33 finding 9: log text with "*bold*" does not nest in Slack's bold
// headline, and bidirectional controls reach neither Slack nor scan's and
// test's text output.
func TestIssue33SlackAndTextEscapeEmphasisAndBidi(t *testing.T) {
	const line = "[2026-05-28 00:17:00 TP0] RuntimeError: CUDA out of memory. *bold* ~gone~ \u202Eevil\u202C Tried to allocate 2.00 GiB\n\n"
	slack := &bodies{}
	srv := httptest.NewServer(slack)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, fmt.Sprintf("sinks:\n  - {type: slack, url: %q}\n", srv.URL+"/services/T0/B0/x"))
	res := run(t, []byte(line), "run", "--config", cfg, "--path", "-", "--state-dir", filepath.Join(dir, "state"), "--http-addr", "", "--group-window", "0")
	if res.code != 0 || len(slack.all()) == 0 {
		t.Fatalf("exit %d, %d Slack posts\n%s", res.code, len(slack.all()), res.stderr)
	}
	for _, post := range slack.all() {
		var msg struct {
			Text   string `json:"text"`
			Blocks []struct {
				Text *struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"text"`
				Fields   []struct{ Type, Text string } `json:"fields"`
				Elements []struct{ Type, Text string } `json:"elements"`
			} `json:"blocks"`
		}
		if err := json.Unmarshal([]byte(post), &msg); err != nil {
			t.Fatalf("Slack post is not JSON: %v\n%s", err, post)
		}
		texts := []string{msg.Text}
		for _, b := range msg.Blocks {
			if b.Text != nil {
				texts = append(texts, b.Text.Text)
			}
			for _, f := range b.Fields {
				texts = append(texts, f.Text)
			}
			for _, e := range b.Elements {
				texts = append(texts, e.Text)
			}
		}
		for _, s := range texts {
			if b := bidiControls(s); len(b) > 0 {
				t.Errorf("Slack text passes bidirectional controls %v: %q", b, s)
			}
			if strings.Contains(s, "*bold*") && !strings.Contains(s, "```") {
				t.Errorf("log text's emphasis markers reach Slack's mrkdwn: %q", s)
			}
		}
	}
	log := writeFile(t, dir, "server.log", line)
	for _, args := range [][]string{{"scan", "--catalog-cache", "off", log}, {"test", "--catalog-cache", "off", log}} {
		out := run(t, nil, args...)
		if out.code != 0 || !strings.Contains(out.stdout, "out of memory") {
			t.Fatalf("%v: exit %d\n%s%s", args, out.code, out.stdout, out.stderr)
		}
		if b := bidiControls(out.stdout); len(b) > 0 {
			t.Errorf("%v: text output passes bidirectional controls %v", args, b)
		}
	}
}

// Issue 33 finding 9: a receiver that answers 400 with the request echoed
// (its URL, which holds the webhook's token, and its headers) does not
// put them in logmatch's log.
func TestIssue33SinkErrorAnswerIsScrubbed(t *testing.T) {
	echo := &bodies{answer: func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "rejected %s %s http://%s%s auth=%s", r.Method, r.URL.String(), r.Host, r.URL.RequestURI(), r.Header.Get("Authorization"))
	}}
	srv := httptest.NewServer(echo)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, fmt.Sprintf("sinks:\n  - {type: webhook, name: echo, url: %q, headers: {Authorization: \"Bearer Zq7HeaderTok\"}}\n",
		srv.URL+"/hook/Zq7PathTok?token=Zq7QueryTok"))
	res := run(t, []byte(oomLine), "run", "--config", cfg, "--path", "-", "--state-dir", filepath.Join(dir, "state"), "--http-addr", "", "--group-window", "0")
	if len(echo.all()) == 0 {
		t.Fatalf("the webhook got nothing; exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "400") {
		t.Fatalf("the rejection is not logged:\n%s", res.stderr)
	}
	for _, s := range []string{"Zq7PathTok", "Zq7QueryTok", "Zq7HeaderTok"} {
		if strings.Contains(res.stderr, s) {
			t.Errorf("the log holds %q:\n%s", s, grep(res.stderr, s))
		}
	}
}
