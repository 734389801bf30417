package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// ruleByRule is Redact as it was before the hint index: each hinted rule
// searches the lower-cased text for each of its own hints with
// strings.Index and applies its regex to the lines holding one. Redact
// must give the same text for every input.
func ruleByRule(r *Redactor, s string) string {
	if s == "" {
		return s
	}
	lower := asciiLower(s)
	for i := range r.rules {
		ru := &r.rules[i]
		var out string
		var changed bool
		if len(ru.hints) == 0 {
			out, changed = ru.apply(s)
		} else {
			out, changed = ruleByRuleHinted(ru, s, lower)
		}
		if changed {
			s, lower = out, asciiLower(out)
		}
	}
	return s
}

// ruleByRuleHinted applies ru to each line of s that holds one of its
// hints, found with strings.Index; lower is asciiLower(s).
func ruleByRuleHinted(ru *rule, s, lower string) (string, bool) {
	next := make([]int, len(ru.hints)) // -2 unknown, -1 absent
	for i := range next {
		next[i] = -2
	}
	var b strings.Builder
	done, pos := 0, 0
	changed := false
	for pos < len(s) {
		at := -1
		for i, h := range ru.hints {
			if next[i] == -2 || (next[i] >= 0 && next[i] < pos) {
				if j := strings.Index(lower[pos:], h); j >= 0 {
					next[i] = pos + j
				} else {
					next[i] = -1
				}
			}
			if next[i] >= 0 && (at < 0 || next[i] < at) {
				at = next[i]
			}
		}
		if at < 0 {
			break
		}
		start := strings.LastIndexByte(s[:at], '\n') + 1
		end := len(s)
		if j := strings.IndexByte(s[at:], '\n'); j >= 0 {
			end = at + j
		}
		if ru.keyed && !ruleByRuleKeyIn(ru, lower[start:end]) {
			pos = end + 1
			continue
		}
		if out, ok := ru.apply(s[start:end]); ok {
			b.WriteString(s[done:start])
			b.WriteString(out)
			done, changed = end, true
		}
		pos = end + 1
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[done:])
	return b.String(), true
}

// ruleByRuleKeyIn reports whether one of ru's hints occurs in line,
// lower-cased, followed by a key's separator, searching for each hint with
// strings.Index.
func ruleByRuleKeyIn(ru *rule, line string) bool {
	for _, h := range ru.hints {
		for i := 0; ; {
			j := strings.Index(line[i:], h)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(h)
			if separated(line[i:], reSpace) && (!ru.wordKey || startsWord(line, at)) {
				return true
			}
		}
	}
	return false
}

// hintPieces are fragments text is built from in the differential tests:
// a secret of every built-in kind, near misses that hold a hint but no
// secret, hints cut short, and plain sglang text.
var hintPieces = []string{
	"Authorization: Bearer " + jwt, "authorization=token abc123def456", "AUTHORIZATION: BASIC dXNlcjpwYXNz",
	"Bearer " + jwt, "bearer token expired", "BEARER abcdefghijkl0123",
	"api_key='s3cr3t-value'", "X-API-Key: 0123456789abcdef", "APIKEY=abc", `{"api_key": "abc123xyz"}`,
	"--api-key abc123xyz --port 30000", "--api-key --port 1", "--API-KEY=k",
	openAIKey, "SK-PROJ-4fQ9xZr2LmN8pV3tW7yB1cD5eF6gH0jK", "sk-short",
	hfToken, "HF_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "hf_config=LlamaConfig",
	ghToken, "gho_abcdefghijklmnopqrstuvwxyz0123456789", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "GHS_x",
	"AKIAIOSFODNN7EXAMPLE", "ASIAY34FZKBOKMUTVV7A", "akiaiosfodnn7example", "AKIA123",
	"aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY: short",
	"?revision=main&token=abc.def-123", "password=hunter2&db=0", "PASSWD=x", "pwd=y", "sig=abc", "signature=zz", "secret=s",
	"http://root:Pa55w0rd@10.0.0.5:2379", "HTTP://U:P@H/", "http://10.0.0.5:2379/v3/kv",
	slackHook, "HTTPS://HOOKS.SLACK.COM/services/T0/B0/x1",
	"password: hunter2", `{"password": "hunter3"}`, "{'password': 'x'}", "PGPASSWORD=hunter4", "db_password: s3cret!",
	"client_secret: abc123", `"secret":"a b"`, "GITHUB_TOKEN=abc", "access_token: ya29", "TOKEN\t= x",
	"password: None", `"secret": null`, "api_key=[REDACTED]", "token: [REDACTED]",
	"#token: 1234", "#new-token: 32768", "token usage: 0.98", "max_new_tokens=128", "tokenizer_path='/m'",
	"cfg.password: x", "-token: x", "password authentication failed", "api key missing",
	"passw", "passwor", "secre", "toke", "api_", "api-", "bearer", "authorizatio", "sk-", "hf_", "gh", "akia", "asi", ":/", "://",
	"hooks.slack.co", "aws_secret_access_ke", "token=", "sig",
	"[2026-03-01 12:00:00 TP0] Decode batch. #running-req: 1, #token: 3456, gen throughput (token/s): 1.5",
	"Traceback (most recent call last):", `  File "/sgl/scheduler.py", line 12, in run_batch`,
	"torch.OutOfMemoryError: CUDA out of memory.", "é", "\xff", "ſecret: x", "\u212aey",
	// A key's separator after white space of every kind, or past the
	// line's end (keyed's line bounds).
	"-----BEGIN RSA PRIVATE KEY-----MIIEowIBAAKCAQEAx4Yc", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF\n-----END PRIVATE KEY-----",
	"-----BEGIN CERTIFICATE-----", "----BEGIN", "internal-0123abcd", "corp_pass: hunter5",
	"token \f= x", "\"token\"\t: v", "'Password' \r: v", ".TOKEN: v", "x.api_key = y", "#Token:\n: v", "token\n= v",
}

// hintText builds a text from n pieces of hintPieces joined by a random
// separator: space, new line, ", ", nothing, '=' or ": ".
func hintText(rng *rand.Rand, n int) string {
	seps := []string{" ", "\n", ", ", "", "=", ": ", "\r\n"}
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		p := hintPieces[rng.IntN(len(hintPieces))]
		switch rng.IntN(4) {
		case 0:
			p = strings.ToUpper(p)
		case 1:
			p = strings.ToLower(p)
		}
		b.WriteString(p)
	}
	return b.String()
}

// redactors are the Redactors the differential tests compare: the
// built-in rules, built-in plus extra patterns, and extra patterns only.
func redactors(tb testing.TB) map[string]*Redactor {
	extra := []string{`internal-[0-9a-f]{8}`, `corp_pass: (?P<secret>\S+)`, `(?i)sk-[a-z]{3}`}
	all := map[string]*Redactor{}
	var err error
	if all["builtin"], err = New(nil); err != nil {
		tb.Fatal(err)
	}
	if all["builtin+extra"], err = New(extra); err != nil {
		tb.Fatal(err)
	}
	if all["extra"], err = NewExtra(extra); err != nil {
		tb.Fatal(err)
	}
	return all
}

// TestRedactMatchesRuleByRule compares Redact with ruleByRule on texts
// built from secrets, near misses and plain lines, in upper, lower and
// mixed case, on one line and on many.
func TestRedactMatchesRuleByRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var texts []string
	texts = append(texts, hintPieces...)
	for range 3000 {
		texts = append(texts, hintText(rng, 1+rng.IntN(12)))
	}
	for name, r := range redactors(t) {
		changed := 0
		for _, s := range texts {
			want := ruleByRule(r, s)
			if got := r.Redact(s); got != want {
				t.Errorf("%s: Redact(%q) = %q, rule by rule gives %q", name, s, got, want)
			}
			if want != s {
				changed++
			}
		}
		// The texts must exercise the built-in rules, not only the clean
		// path; the extra patterns alone match few of them.
		if name != "extra" && changed < len(texts)/4 {
			t.Errorf("%s: only %d of %d texts held a secret", name, changed, len(texts))
		}
	}
}

// TestHintIndex checks the hint table: every hint of every built-in rule
// is lower case, at least two bytes long and in the index.
func TestHintIndex(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ru := range r.rules {
		for _, h := range ru.hints {
			if len(h) < 2 || asciiLower(h) != h {
				t.Errorf("rule %s: hint %q must be lower case and two bytes or more", ru.name, h)
			}
			occ, seen := r.hints.find("x "+strings.ToUpper(h)+" y", nil)
			if seen&ru.hintSet == 0 || len(occ) == 0 || occ[0].at != 2 {
				t.Errorf("rule %s: hint %q not found in upper case: %v", ru.name, h, occ)
			}
		}
	}
}

// findEveryPlace is hintIndex.find by trying every hint at every place.
func findEveryPlace(x *hintIndex, s string) []occurrence {
	var occ []occurrence
	for i := range len(s) {
		for k, h := range x.hints {
			if hasFoldedPrefix(s[i:], h) {
				occ = append(occ, occurrence{at: i, hint: uint8(k)})
			}
		}
	}
	slices.SortStableFunc(occ, func(a, b occurrence) int { return a.at - b.at })
	return occ
}

// TestHintFindEveryPlace checks find against findEveryPlace with each
// hint, in either case, at every place of texts of 1 to 40 bytes, alone,
// overlapping another and at the text's ends.
func TestHintFindEveryPlace(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	x := r.hints
	for _, h := range x.hints {
		for _, w := range []string{h, strings.ToUpper(h), h + x.hints[0], h[:len(h)-1]} {
			for n := len(w); n <= 40; n++ {
				for at := 0; at+len(w) <= n; at++ {
					s := strings.Repeat("a", at) + w + strings.Repeat("s", n-at-len(w))
					got, _ := x.find(s, nil)
					if want := findEveryPlace(x, s); !slices.Equal(got, want) {
						t.Fatalf("find(%q) = %v, every place gives %v", s, got, want)
					}
				}
			}
		}
	}
}

// FuzzHintFind holds hintIndex.find to findEveryPlace.
func FuzzHintFind(f *testing.F) {
	for _, p := range hintPieces {
		f.Add(p)
	}
	r, err := New(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, seen := r.hints.find(s, nil)
		want := findEveryPlace(r.hints, s)
		if !slices.Equal(got, want) {
			t.Fatalf("find(%q) = %v, every place gives %v", s, got, want)
		}
		var wantSeen uint64
		for _, o := range want {
			wantSeen |= 1 << o.hint
		}
		if seen != wantSeen {
			t.Fatalf("find(%q) saw %b, every place %b", s, seen, wantSeen)
		}
	})
}

// FuzzRedactHints compares Redact with ruleByRule on arbitrary text.
func FuzzRedactHints(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, p := range hintPieces {
		f.Add(p)
	}
	for range 40 {
		f.Add(hintText(rng, 2+rng.IntN(8)))
	}
	all := redactors(f)
	f.Fuzz(func(t *testing.T, s string) {
		for name, r := range all {
			if got, want := r.Redact(s), ruleByRule(r, s); got != want {
				t.Fatalf("%s: Redact(%q) = %q, rule by rule gives %q", name, s, got, want)
			}
		}
	})
}

// TestHintKeyed checks which hints keyed finds followed by a key's
// separator, and starting a word: sglang's counters and prose hold
// credentialKey's hints without being keys.
func TestHintKeyed(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	token := uint64(0)
	for k, h := range r.hints.hints {
		if h == "token" {
			token = 1 << k
		}
	}
	for _, c := range []struct {
		text        string
		keyed, word bool
	}{
		{"Decode batch, #token: 3456, token usage: 0.98, gen throughput (token/s): 1.5", true, false},
		{"max_new_tokens=128 tokenizer_path='/m'", false, false},
		{"[TP0] TOKEN: abc", true, true},
		{`{"access_token" : "x"}`, true, true},
		{"cfg.token= x", true, false},
		{"token\n: x", false, false},
		{"token\t\f\r= x", true, true},
	} {
		occ, _ := r.hints.find(c.text, nil)
		keyed, word := r.hints.keyed(c.text, occ)
		if got := keyed&token != 0; got != c.keyed {
			t.Errorf("%q: token keyed %v, want %v", c.text, got, c.keyed)
		}
		if got := word&token != 0; got != c.word {
			t.Errorf("%q: token keyed starting a word %v, want %v", c.text, got, c.word)
		}
	}
}
