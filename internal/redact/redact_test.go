package redact

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/sinks"
)

// Secrets below are made up but shaped like real ones.
const (
	openAIKey = "sk-proj-4fQ9xZr2LmN8pV3tW7yB1cD5eF6gH0jK"
	hfToken   = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
	ghToken   = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
	jwt       = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl"
	slackHook = "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/q1w2e3r4t5y6u7i8o9p0AbCd"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"authorization header", "Authorization: Bearer " + jwt, "Authorization: Bearer [REDACTED]"},
		{"authorization basic", `headers={'Authorization': 'Basic dXNlcjpwYXNzd29yZA=='}`, `headers={'Authorization': 'Basic [REDACTED]'}`},
		{"bare bearer", "curl -H 'x: Bearer " + jwt + "' failed", "curl -H 'x: Bearer [REDACTED]' failed"},
		{"api_key assignment", "ServerArgs(model_path='/m', api_key='s3cr3t-value', port=30000)", "ServerArgs(model_path='/m', api_key='[REDACTED]', port=30000)"},
		{"admin api key", "admin_api_key='adm1n-key-123', api_key=None", "admin_api_key='[REDACTED]', api_key=None"},
		{"api-key header", "X-API-Key: 0123456789abcdef", "X-API-Key: [REDACTED]"},
		{"api key json", `{"api_key": "abc123xyz"}`, `{"api_key": "[REDACTED]"}`},
		{"api key flag with space", "python -m sglang.launch_server --api-key abc123xyz --port 30000", "python -m sglang.launch_server --api-key [REDACTED] --port 30000"},
		{"api key flag with equals", "launch --api-key=abc123xyz --tp 2", "launch --api-key=[REDACTED] --tp 2"},
		{"api key flag without value", "launch --api-key --port 30000", "launch --api-key --port 30000"},
		{"env var", "OPENAI_API_KEY=" + openAIKey, "OPENAI_API_KEY=[REDACTED]"},
		{"openai key alone", "using key " + openAIKey + " for upstream", "using key sk-proj-[REDACTED] for upstream"},
		{"hugging face token", "HfHubHTTPError: 401 token " + hfToken + " invalid", "HfHubHTTPError: 401 token hf_[REDACTED] invalid"},
		{"github token", "clone with " + ghToken, "clone with ghp_[REDACTED]"},
		{"aws access key", "AccessDenied for AKIAIOSFODNN7EXAMPLE", "AccessDenied for AKIA[REDACTED]"},
		{"aws session key", "ASIAY34FZKBOKMUTVV7A expired", "ASIA[REDACTED] expired"},
		{"aws secret", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key=[REDACTED]"},
		{"query token", "GET https://hub.example/model?revision=main&token=abc.def-123 404", "GET https://hub.example/model?revision=main&token=[REDACTED] 404"},
		{"query password", "connect redis://cache?password=hunter2&db=0", "connect redis://cache?password=[REDACTED]&db=0"},
		{"url userinfo", "etcd at http://root:Pa55w0rd@10.0.0.5:2379 unreachable", "etcd at http://root:[REDACTED]@10.0.0.5:2379 unreachable"},
		{"token flag", "--token=abc123", "--token=[REDACTED]"},
		{"slack webhook", "posting to " + slackHook + " failed", "posting to https://hooks.slack.com/services/[REDACTED] failed"},
		{"several in one line", "api_key=aaa111 and token=bbb222", "api_key=[REDACTED] and token=[REDACTED]"},
		{"password colon", "login failed: password: hunter2, user admin", "login failed: password: [REDACTED], user admin"},
		{"password colon multi-word", "login failed: password: correct horse battery user: admin", "login failed: password: [REDACTED] user: admin"},
		{"password json", `{"user": "admin", "password": "hunter3"}`, `{"user": "admin", "password": "[REDACTED]"}`},
		{"password json with spaces", `{"password":"correct horse battery"}`, `{"password":"[REDACTED]"}`},
		{"password python dict", `{'password': 'x', 'host': 'db'}`, `{'password': '[REDACTED]', 'host': 'db'}`},
		{"password env", "PGPASSWORD=hunter4 psql -h db", "PGPASSWORD=[REDACTED] psql -h db"},
		{"password env prefixed", "MYSQL_ROOT_PASSWORD=hunter5", "MYSQL_ROOT_PASSWORD=[REDACTED]"},
		{"password yaml", "  db_password: s3cret!", "  db_password: [REDACTED]"},
		{"secret colon", "client_secret: abc123", "client_secret: [REDACTED]"},
		{"secret json", `{"secret": "shh"}`, `{"secret": "[REDACTED]"}`},
		{"secret env", "AWS_SECRET=xyz", "AWS_SECRET=[REDACTED]"},
		{"token colon", "auth failed, token: abc.def.ghi", "auth failed, token: [REDACTED]"},
		{"token json", `{"access_token": "ya29.a0AfH6"}`, `{"access_token": "[REDACTED]"}`},
		{"token env", "HF_TOKEN=hf_short GITHUB_TOKEN=ghshort", "HF_TOKEN=[REDACTED] GITHUB_TOKEN=[REDACTED]"},
		{"token single quoted", `{'token': 'tok en'}`, `{'token': '[REDACTED]'}`},
		{"api key colon", "api_key: k-123", "api_key: [REDACTED]"},
		{"api key quoted key", `'apiKey': 'abc'`, `'apiKey': '[REDACTED]'`},
		{"api key env", "OPENAI_API_KEY=short", "OPENAI_API_KEY=[REDACTED]"},
		{"password none", `password: None, "secret": null`, `password: None, "secret": null`},
		{"new token counter", "Prefill batch, #new-seq: 1, #new-token: 32768, #cached-token: 0, token usage: 0.98", "Prefill batch, #new-seq: 1, #new-token: 32768, #cached-token: 0, token usage: 0.98"},
		{"password prose", "password authentication failed for user \"app\"", "password authentication failed for user \"app\""},
		{"multi-line entry", "Traceback:\n  x = 1\nValueError: bad key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA\n", "Traceback:\n  x = 1\nValueError: bad key sk-ant-[REDACTED]\n"},

		// Near misses: ordinary sglang text must survive unchanged.
		{"token in prose", "Decode batch. #running-req: 1, #token: 1234, token usage: 0.05", "Decode batch. #running-req: 1, #token: 1234, token usage: 0.05"},
		{"tokens arguments", "max_new_tokens=128, num_tokens=5, max_total_tokens=80000", "max_new_tokens=128, num_tokens=5, max_total_tokens=80000"},
		{"tokenizer", "tokenizer_path='/models/llama', skip_tokenizer_init=False", "tokenizer_path='/models/llama', skip_tokenizer_init=False"},
		{"bearer in prose", "the bearer token expired, refresh it", "the bearer token expired, refresh it"},
		{"api key missing", "api key missing for upstream", "api key missing for upstream"},
		{"api key none", "api_key=None, admin_api_key=None", "api_key=None, admin_api_key=None"},
		{"sk in words", "task-scheduler disk-usage sk-short", "task-scheduler disk-usage sk-short"},
		{"hf config", "hf_config=LlamaConfig, hf_model_path=/m", "hf_config=LlamaConfig, hf_model_path=/m"},
		{"aws-like but short", "AKIA123", "AKIA123"},
		{"url without password", "http://10.0.0.5:2379/v3/kv", "http://10.0.0.5:2379/v3/kv"},
		{"empty", "", ""},
	}
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := r.Redact(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Redact(%q) (-want +got):\n%s", tc.in, diff)
			}
			if again := r.Redact(got); again != got {
				t.Errorf("Redact is not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestExtraPatterns(t *testing.T) {
	r, err := New([]string{`internal-[0-9a-f]{8}`, `corp_pass: (?P<secret>\S+)`})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Redact("node internal-deadbeef said corp_pass: s3cret ok")
	want := "node [REDACTED] said corp_pass: [REDACTED] ok"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNewRejectsBadPatterns(t *testing.T) {
	_, err := New([]string{`ok`, `(unclosed`, `a*`})
	if err == nil {
		t.Fatal("New succeeded, want errors")
	}
	for _, want := range []string{"extra pattern 1:", "extra pattern 2: matches the empty string"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestRedactAlert(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	catalog := []string{"Rotate the key", "Check token=... in the config"}
	a := &sinks.Alert{
		Record: sinks.Record{ID: "r1", Documentation: "set token=... in the config", Solutions: catalog},
		Match: sinks.Match{
			Text:   "auth failed for token=abc123",
			Groups: map[string]string{"1": "abc123", "key": openAIKey},
			Exception: &sinks.Exception{
				Type:       "PermissionError",
				Message:    "bad key " + hfToken,
				Stacktrace: "File x.py\n  call(api_key='zzz999')",
				RootCause:  "HTTPError: Authorization: Bearer " + jwt,
			},
		},
		Source: sinks.Source{Path: "/var/log/sglang.log"},
		Entry:  "auth failed for token=abc123\nbad key " + hfToken,
	}
	r.RedactAlert(a)
	want := &sinks.Alert{
		Record: sinks.Record{ID: "r1", Documentation: "set token=... in the config", Solutions: []string{"Rotate the key", "Check token=[REDACTED] in the config"}},
		Match: sinks.Match{
			Text:   "auth failed for token=[REDACTED]",
			Groups: map[string]string{"1": "abc123", "key": "sk-proj-[REDACTED]"},
			Exception: &sinks.Exception{
				Type:       "PermissionError",
				Message:    "bad key hf_[REDACTED]",
				Stacktrace: "File x.py\n  call(api_key='[REDACTED]')",
				RootCause:  "HTTPError: Authorization: Bearer [REDACTED]",
			},
		},
		Source: sinks.Source{Path: "/var/log/sglang.log"},
		Entry:  "auth failed for token=[REDACTED]\nbad key hf_[REDACTED]",
	}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("RedactAlert (-want +got):\n%s", diff)
	}
	if catalog[1] != "Check token=... in the config" {
		t.Errorf("RedactAlert wrote into the record's shared solutions: %q", catalog)
	}
	// The headline, the matched text itself or another line, is
	// redacted either way.
	for _, h := range []string{"auth failed for token=abc123", "bad key " + hfToken, ""} {
		c := &sinks.Alert{Headline: h, Match: sinks.Match{Text: "auth failed for token=abc123"}}
		r.RedactAlert(c)
		if want := r.Redact(h); c.Headline != want || c.Match.Text != "auth failed for token=[REDACTED]" {
			t.Errorf("headline %q: redacted to %q (text %q), want %q", h, c.Headline, c.Match.Text, want)
		}
	}
	// A solution that quotes the log (a path or id an unclassified
	// failure's step names) is redacted like the log.
	b := &sinks.Alert{Record: sinks.Record{Solutions: []string{"Check that '/models/x/" + hfToken + "' exists"}}}
	r.RedactAlert(b)
	if got := b.Record.Solutions[0]; strings.Contains(got, hfToken) {
		t.Errorf("solution %q keeps the token", got)
	}
}

// FuzzRedact checks that redaction never panics, keeps UTF-8 valid, is
// idempotent, and hides a secret planted anywhere in arbitrary text.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		"", "plain sglang line #token: 12", "Authorization: Bearer " + jwt, "api_key=abc",
		"--api-key x --port 1", openAIKey, hfToken, slackHook, "http://u:p@h/", "token=[REDACTED]",
		"AKIAIOSFODNN7EXAMPLE", "é\xff api_key: ", "bearer bearer bearer 1234567890abc",
		"password: hunter2", `{"password": "hunter3"}`, "'password': 'x'", "PGPASSWORD=hunter4",
		`"secret":"a b"`, "GITHUB_TOKEN=abc", "x-api-key: 'k'", "#token: 12 token: 34",
		"#new-token: 3340, #cached-token: 2964, token usage: 0.20", `0"password :abc`,
		"cfg.password: x", "-token: x", "TOKEN\t= x", "a__token: x", "my-api-key = 'k'",
	} {
		f.Add(s)
	}
	r, err := New(nil)
	if err != nil {
		f.Fatal(err)
	}
	planted := []string{
		"api_key=Zq7Zq7Zq7Zq7", "password: Zq7Zq7Zq7Zq7", `{"password": "Zq7Zq7Zq7Zq7"}`,
		"'secret': 'Zq7Zq7Zq7Zq7'", "PGPASSWORD=Zq7Zq7Zq7Zq7", "GITHUB_TOKEN=Zq7Zq7Zq7Zq7",
		"redis://:Zq7Zq7Zq7Zq7@redis:6379/0", "SECRET_KEY=Zq7Zq7Zq7Zq7", "Set-Cookie: sid=Zq7Zq7Zq7Zq7",
		"password%3DZq7Zq7Zq7Zq7", "bearer Zq7Zq7Zq7Zq7", `{"password": "a\"Zq7Zq7Zq7Zq7"}`,
		"passphrase: a Zq7Zq7Zq7Zq7", "https://u:p@Zq7Zq7Zq7Zq7@host/",
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := r.Redact(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("valid UTF-8 became invalid: %q -> %q", s, got)
		}
		if again := r.Redact(got); again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, got, again)
		}
		if ref := referenceRedact(r, s); ref != got {
			t.Fatalf("hints skipped a match: Redact(%q) = %q, every line searched gives %q", s, got, ref)
		}
		for _, p := range planted {
			withSecret := s + " " + p + "\n"
			if out := r.Redact(withSecret); strings.Contains(out, "Zq7Zq7Zq7Zq7") {
				t.Fatalf("planted secret survived: %q", out)
			}
		}
	})
}

// referenceRedact is Redact without the hint shortcut: every hinted rule
// searches every line. Any difference means a hint misses text its regex
// matches.
func referenceRedact(r *Redactor, s string) string {
	for i := range r.rules {
		ru := &r.rules[i]
		if len(ru.hints) == 0 {
			s, _ = ru.apply(s)
			continue
		}
		lines := strings.Split(s, "\n")
		for j, l := range lines {
			lines[j], _ = ru.apply(l)
		}
		s = strings.Join(lines, "\n")
	}
	return s
}

func BenchmarkRedact(b *testing.B) {
	r, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	clean := strings.Repeat("[2026-03-01 12:00:00 TP0] Decode batch. #running-req: 12, #token: 3456, token usage: 0.42, gen throughput (token/s): 1234.5\n", 40)
	secret := clean + "Authorization: Bearer " + jwt + " api_key='abc123' " + hfToken + "\n"
	// plain holds no hint of any rule, as most alert text does.
	plain := strings.Repeat("[2026-03-01 12:00:00 TP0] Scheduler hit an exception: RuntimeError: CUDA error: an illegal memory access was encountered\n", 40)
	for _, bc := range []struct {
		name string
		text string
	}{{"clean-5KB", clean}, {"secrets-5KB", secret}, {"plain-5KB", plain}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				_ = r.Redact(bc.text)
			}
		})
	}
}
