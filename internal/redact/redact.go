package redact

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/logmatch/logmatch/sinks"
)

// Mask replaces each secret.
const Mask = "[REDACTED]"

// rule finds secrets with re. When re has a group named "secret" only that
// group is replaced; otherwise the whole match is. keep, when set, is asked
// about each candidate secret and may spare it (values such as None, or
// words that merely follow "Bearer" in prose).
type rule struct {
	name string
	re   *regexp.Regexp
	// hints are lower-case literals one of which every match contains.
	// The regex runs only on the lines holding a hint, which keeps a long
	// clean entry cheap; no hints means the whole text is searched. Hints
	// fold ASCII case only, so a key name spelt with Unicode look-alikes
	// that (?i) would fold (ſ for s, the Kelvin sign for k) is not a key.
	hints []string
	// keyed says every match holds a hint followed by what separates a
	// key from its value (an optional quote, white space, ':' or '='): a
	// line where no hint is followed so is not searched. The catalog's own
	// words ("max_new_tokens", "token usage") then cost a few byte
	// comparisons, not a failed regex search of the line.
	keyed bool
	// wordKey adds, for a keyed rule, that the key starts a word: the
	// letters, digits, '_' and '-' before the hint follow the start of
	// the line or a byte other than those, '.' or '#' (credentialKey; see
	// startsWord). sglang's "#new-token: 5" is not searched.
	wordKey bool
	keep    func(secret string) bool
	secret  int // index of the "secret" group, or 0 for the whole match
	// prefix is re's literal prefix (regexp.LiteralPrefix), which every
	// match begins with: a text without it is not searched. The regexp
	// package's backtracker clears a bitmap of the text's length times
	// the program's before it looks for the prefix, so the PEM rule, run
	// on every text, cost some 2,400 instructions a text that holds none.
	prefix string
	// hintSet has bit i set when hints holds the Redactor's hint i
	// (hintIndex.hints).
	hintSet uint64
}

// builtin are the rules every Redactor applies. Each keeps the key name
// or a short recognisable prefix and hides the rest.
func builtin() []rule {
	return []rule{
		{
			// "password = x", "DB_PASSWORD=x", "--token=x": an equals sign
			// ends the value at the end of the word, as a shell or a
			// query string does. Quoted values are the rules below. The
			// key-value rules come first: a key-value pair is the most
			// specific reading, and a later rule must not take the key
			// for a token.
			name:    "credential value",
			hints:   credentialHints,
			keyed:   true,
			wordKey: true,
			re:      regexp.MustCompile(credentialKey + `\s*=\s*(?P<secret>[^\s"',;&)}\]]+)`),
			keep:    isPlaceholder,
		},
		{
			// "password: x y", YAML, HTTP headers and log prose: after a
			// colon the value runs over its words up to a delimiter or
			// the next key ("user: admin"), so a multi-word value is
			// hidden whole rather than its first word only.
			name:    "credential colon value",
			hints:   credentialHints,
			keyed:   true,
			wordKey: true,
			re:      regexp.MustCompile(credentialKey + `\s*:[ \t]*(?P<secret>[^\s"',;&)}\]]+(?:[ \t]+[^\s"',;&)}\]:=]+)*)`),
			keep:    isPlaceholder,
		},
		{
			// JSON and Python dicts: "password": "x y", 'token': 'x', with
			// escaped quotes inside the value ("pa\"ss").
			name:    "quoted credential value",
			hints:   credentialHints,
			keyed:   true,
			wordKey: true,
			re:      regexp.MustCompile(credentialKey + `\s*[:=]\s*"(?P<secret>(?:[^"\\\n]|\\[^\n])+)"`),
			keep:    isPlaceholder,
		},
		{
			name:    "single-quoted credential value",
			hints:   credentialHints,
			keyed:   true,
			wordKey: true,
			re:      regexp.MustCompile(credentialKey + `\s*[:=]\s*'(?P<secret>(?:[^'\\\n]|\\[^\n])+)'`),
			keep:    isPlaceholder,
		},
		{
			// Cookie and Set-Cookie headers: every pair in them may be a
			// session, so the rest of the line is hidden.
			name:  "cookie header",
			hints: []string{"cookie"},
			keyed: true,
			re:    regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_.#\-])["']?(?:set-)?cookie["']?\s*[:=]\s*["']?(?P<secret>[^\s"'][^\n"']*)`),
			keep:  isPlaceholder,
		},
		{
			// Authorization headers: whatever follows the scheme is secret.
			name:  "authorization header",
			hints: []string{"authorization"},
			keyed: true,
			re:    regexp.MustCompile(`(?i)\bauthorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|bot)\s+(?P<secret>[^\s"',;]+)`),
			keep:  isPlaceholder,
		},
		{
			// A bare "Bearer <token>", in any case, after a space, a tab,
			// ':' or '=': in prose ("bearer token expired") the next
			// word is not secret, so a word of letters only is spared.
			name:  "bearer token",
			hints: []string{"bearer"},
			re:    regexp.MustCompile(`(?i)\bbearer(?:\s*[:=]\s*|\s+)["']?(?P<secret>[A-Za-z0-9\-._~+/]+=*)`),
			keep:  notTokenLike,
		},
		{
			name:  "api key",
			hints: []string{"apikey", "api_key", "api-key"},
			keyed: true,
			re:    regexp.MustCompile(`(?i)\b(?:[a-z0-9]+[_-])?api[_-]?key["']?\s*[:=]\s*["']?(?P<secret>[^\s"',;&)}\]]+)`),
			keep:  isPlaceholder,
		},
		{
			name:  "api key flag",
			hints: []string{"api-key"},
			re:    regexp.MustCompile(`(?i)--(?:[a-z0-9]+-)?api-key\s+["']?(?P<secret>[^\s"',;)]+)`),
			keep:  isFlag,
		},
		{
			name:  "openai key",
			hints: []string{"sk-"},
			re:    regexp.MustCompile(`\bsk-(?:proj-|ant-|live-|test-|svcacct-|admin-)?(?P<secret>[A-Za-z0-9_\-]{20,})`),
		},
		{
			name:  "hugging face token",
			hints: []string{"hf_"},
			re:    regexp.MustCompile(`\bhf_(?P<secret>[A-Za-z0-9]{30,})`),
		},
		{
			name:  "github token",
			hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			re:    regexp.MustCompile(`\b(?:gh[pousr]|github_pat)_(?P<secret>[A-Za-z0-9_]{30,})`),
		},
		{
			name:  "aws access key id",
			hints: []string{"akia", "asia"},
			re:    regexp.MustCompile(`\b(?:AKIA|ASIA)(?P<secret>[A-Z0-9]{16})\b`),
		},
		{
			name:  "aws secret access key",
			hints: []string{"aws_secret_access_key"},
			keyed: true,
			re:    regexp.MustCompile(`(?i)\baws_secret_access_key["']?\s*[:=]\s*["']?(?P<secret>[A-Za-z0-9/+=]{16,})`),
		},
		{
			// Query values, key=value pairs and --flag=value. The key must
			// start a word, so max_new_tokens=128 and num_tokens=5 stay.
			name:  "password or token value",
			hints: []string{"password=", "passwd=", "pwd=", "token=", "secret=", "sig=", "signature="},
			re:    regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_.])(?:password|passwd|pwd|token|access_token|auth_token|refresh_token|id_token|secret|client_secret|sig|signature)=(?P<secret>[^\s&"',;)#]+)`),
			keep:  isPlaceholder,
		},
		{
			// URL-encoded pairs, as in a form body or a nested query
			// ("q=user%3Dx%26password%3Dy"): the value ends at an
			// encoded '&' (%26) or a delimiter.
			name:  "url-encoded credential",
			hints: []string{"%3d"},
			re:    regexp.MustCompile(`(?i)(?:password|passwd|pwd|token|secret|key)%3D(?P<secret>(?:[^\s&"',;%]|%[013-9A-Fa-f][0-9A-Fa-f]|%2[0-57-9A-Fa-f])+)`),
			keep:  isPlaceholder,
		},
		{
			// "scheme://user:password@host" and "redis://:password@host"
			// (no user). A password may hold '@': the authority ends at
			// the last '@' before the path.
			name:  "url password",
			hints: []string{"://"},
			re:    regexp.MustCompile(`://[^\s/:@]*:(?P<secret>[^\s/]+)@[^\s/@]*`),
		},
		{
			name:  "slack webhook",
			hints: []string{"hooks.slack.com"},
			re:    regexp.MustCompile(`(?i)https?://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_\-/]+)`),
		},
		{
			name:  "discord webhook",
			hints: []string{"discord"},
			re:    regexp.MustCompile(`(?i)https?://(?:[a-z]+\.)?discord(?:app)?\.com/api/(?:v[0-9]+/)?webhooks/(?P<secret>[0-9]+/[A-Za-z0-9_\-]+)`),
		},
		{
			// Microsoft Teams incoming webhooks, old and new hosts
			// ("x.webhook.office.com/webhookb2/...",
			// "outlook.office.com/webhook/..."). Power Automate's
			// workflow URLs carry their secret in sig=, which the
			// "password or token value" rule hides.
			name:  "teams webhook",
			hints: []string{"office.com/webhook"},
			re:    regexp.MustCompile(`(?i)office\.com/webhook(?:b2)?/(?P<secret>[^\s"'<>]+)`),
		},
		{
			name:  "slack token",
			hints: []string{"xox", "xapp-"},
			re:    regexp.MustCompile(`\b(?:xox[abposre]|xapp)-(?P<secret>[0-9A-Za-z][0-9A-Za-z\-]{8,})`),
		},
		// Provider tokens with a documented prefix. Comparing with
		// gitleaks' rule set (GITLEAKS.md) found these in the providers
		// LLM serving stacks call; each keeps its prefix.
		{
			name:  "stripe key",
			hints: []string{"k_live_", "k_test_"},
			re:    regexp.MustCompile(`\b[rs]k_(?:live|test)_(?P<secret>[0-9A-Za-z]{16,})`),
		},
		{
			name:  "sendgrid key",
			hints: []string{"sg."},
			re:    regexp.MustCompile(`\bSG\.(?P<secret>[0-9A-Za-z_\-]{16,}\.[0-9A-Za-z_\-]{16,})`),
		},
		{
			name:  "pypi token",
			hints: []string{"pypi-"},
			re:    regexp.MustCompile(`\bpypi-(?P<secret>AgE[0-9A-Za-z_\-]{40,})`),
		},
		{
			name:  "digitalocean token",
			hints: []string{"_v1_"},
			re:    regexp.MustCompile(`\bdo[opr]_v1_(?P<secret>[0-9a-f]{64})\b`),
		},
		{
			name:  "shopify token",
			hints: []string{"shp"},
			re:    regexp.MustCompile(`\bshp(?:at|ca|pa|ss)_(?P<secret>[0-9a-fA-F]{32})\b`),
		},
		{
			name:  "databricks token",
			hints: []string{"dapi"},
			re:    regexp.MustCompile(`\bdapi(?P<secret>[0-9a-f]{32})(?:-[0-9]+)?\b`),
		},
		{
			name:  "grafana token",
			hints: []string{"glsa_", "glc_"},
			re:    regexp.MustCompile(`\bgl(?:sa|c)_(?P<secret>[0-9A-Za-z+/_=\-]{32,})`),
		},
		{
			// Azure storage connection strings: AccountKey=...; and
			// SharedAccessKey=... of Service Bus and Event Hubs.
			name:  "azure account key",
			hints: []string{"accountkey=", "sharedaccesskey="},
			re:    regexp.MustCompile(`(?i)\b(?:AccountKey|SharedAccessKey)=(?P<secret>[^\s;"']+)`),
		},
		{
			name:  "google api key",
			hints: []string{"aiza"},
			re:    regexp.MustCompile(`\bAIza(?P<secret>[0-9A-Za-z_\-]{35})`),
		},
		{
			name:  "gitlab token",
			hints: []string{"glp", "gldt-", "glrt-"},
			re:    regexp.MustCompile(`\bgl(?:pat|dt|rt|ptt)-(?P<secret>[0-9A-Za-z_\-]{20,})`),
		},
		{
			name:  "npm token",
			hints: []string{"npm_"},
			re:    regexp.MustCompile(`\bnpm_(?P<secret>[A-Za-z0-9]{36})\b`),
		},
		{
			// A JSON Web Token: two base64url JSON objects ("eyJ" is
			// `{"` encoded) and a signature. Hidden whole: its claims
			// name the user.
			name:  "json web token",
			hints: []string{"eyj"},
			re:    regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*`),
		},
		{
			// A PEM private key, on one line (a JSON service-account
			// file, an environment variable with literal "\n") or on its
			// own lines: the base64 body up to the END marker, or to the
			// end of the body when the marker is not there (a cut line).
			// Without hints: the body spans lines, and the regexp's
			// literal prefix makes a text without one cheap to search.
			name: "pem private key",
			re:   regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY-----(?P<secret>[A-Za-z0-9+/=\\ \t]*(?:\r?\n[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*)*)`),
		},
	}
}

// credentialKey matches the name of a credential as a key: password,
// secret, token or api key, alone or with a prefix (db_password,
// client_secret, GITHUB_TOKEN, x-api-key, env-style PGPASSWORD), quoted or
// not. The name must start a word and must not follow '#' or '-', so
// sglang's "#token: 1234" and "#new-token: 5" stay; it must end at the
// separator, so "tokens", "tokenizer" and "token usage" stay too.
const credentialKey = `(?i)(?:^|[^A-Za-z0-9_.#\-])["']?` +
	`(?:(?:[a-z0-9]+[_-])*[a-z0-9]*(?:password|passwd|passphrase|secret(?:[_-]?key)?|private[_-]?key|credentials?)` +
	`|(?:[a-z0-9]+[_-])*(?:pwd|token|api[_-]?key))` +
	`["']?`

// credentialHints are the literals every credentialKey match holds; for
// a keyed search, one of them is followed by the separator, so the key
// forms that go on after "secret" are hints of their own.
var credentialHints = []string{
	"password", "passwd", "passphrase", "secret", "secret_key", "secret-key", "secretkey",
	"private_key", "private-key", "privatekey", "credential", "credentials",
	"pwd", "token", "api_key", "api-key", "apikey",
}

// notTokenLike spares words that follow "Bearer" in prose ("bearer token
// expired", "Bearer realm"): a word of letters only, shorter than a token.
// A token mixes in digits or punctuation, or is long.
func notTokenLike(s string) bool {
	if isPlaceholder(s) {
		return true
	}
	// "realm=" in a challenge is a parameter name, not base64 padding.
	s = strings.TrimRight(s, "=")
	if len(s) >= 24 {
		return false
	}
	return !strings.ContainsAny(s, "0123456789-_.~+/")
}

// isPlaceholder spares values that are not secrets: Python's None, null,
// empty markers, values already masked, and a next key ("api_key:
// password: x" has no api key; apply then looks at "password: x").
func isPlaceholder(s string) bool {
	if strings.HasSuffix(s, ":") {
		return true
	}
	switch strings.ToLower(s) {
	case "none", "null", "nil", "''", `""`, "<none>", "***", "true", "false", strings.ToLower(Mask):
		return true
	case "bearer", "basic":
		// "api_key= Bearer x": the scheme is not the secret; the bearer
		// token rule hides what follows it.
		return true
	}
	return strings.HasPrefix(s, "[REDACTED")
}

// isFlag spares "--api-key --port 30000": the value is the next flag, so
// the key was given without one.
func isFlag(s string) bool {
	return strings.HasPrefix(s, "-") || isPlaceholder(s)
}

// Redactor replaces secrets in text. It is safe for concurrent use.
type Redactor struct {
	rules []rule
	hints *hintIndex
	// unhinted are the indexes of the rules without hints, in order.
	unhinted []int
}

// New returns a Redactor with the built-in rules plus extra, Go regular
// expressions (RE2 syntax). An extra pattern with a group named "secret"
// hides only that group; otherwise it hides its whole match. Errors name
// the pattern's index in extra.
func New(extra []string) (*Redactor, error) {
	return build(builtin(), extra)
}

// NewExtra returns a Redactor with only the extra patterns, for operators
// who turn the built-in rules off (redact.builtin: false).
func NewExtra(extra []string) (*Redactor, error) {
	return build(nil, extra)
}

func build(rules []rule, extra []string) (*Redactor, error) {
	r := &Redactor{rules: rules}
	for i := range r.rules {
		r.rules[i].secret = max(r.rules[i].re.SubexpIndex("secret"), 0)
	}
	r.hints = newHintIndex(r.rules)
	var errs []error
	for i, expr := range extra {
		re, err := regexp.Compile(expr)
		if err != nil {
			errs = append(errs, fmt.Errorf("redact: extra pattern %d: %w", i, err))
			continue
		}
		if re.MatchString("") {
			errs = append(errs, fmt.Errorf("redact: extra pattern %d: matches the empty string", i))
			continue
		}
		r.rules = append(r.rules, rule{name: fmt.Sprintf("extra %d", i), re: re, secret: max(re.SubexpIndex("secret"), 0)})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for i := range r.rules {
		r.rules[i].prefix, _ = r.rules[i].re.LiteralPrefix()
		if len(r.rules[i].hints) == 0 {
			r.unhinted = append(r.unhinted, i)
		}
	}
	return r, nil
}

// Redact returns s with every secret replaced by Mask. Rules with hints
// match within one line.
//
// One pass over s finds where every hint of every rule occurs; a rule none
// of whose hints occurs is skipped, so text without a hint (most log text)
// costs that pass and the rules without hints. A keyed rule is skipped
// too when none of its hints is followed by a key's separator (and, for a
// wordKey rule, starts a word) anywhere in s: keyIn would refuse every
// line of s, so the rule cannot change it. sglang's batch lines ("#token:
// 5", "token usage") hold credentialKey's hints on every line; they skip
// the four credential rules here, without a lower-cased copy of s. When a
// rule changes s the pass is made again on the new text.
func (r *Redactor) Redact(s string) string {
	if s == "" {
		return s
	}
	var buf [16]occurrence
	occ, seen := r.hints.find(s, buf[:0])
	from := 0 // the rules before from are applied
	if seen == 0 {
		// Only the rules without hints can change s (most texts): they
		// are tried alone, up to the first that does.
		for _, i := range r.unhinted {
			if out, changed := r.rules[i].apply(s); changed {
				s, from = out, i+1
				occ, seen = r.hints.find(s, occ[:0])
				break
			}
		}
		if from == 0 {
			return s
		}
	}
	keyed, word := r.hints.keyed(s, occ)
	lower := "" // asciiLower(s) once a hinted rule needs it
	for i := from; i < len(r.rules); i++ {
		ru := &r.rules[i]
		var out string
		var changed bool
		switch {
		case len(ru.hints) == 0:
			out, changed = ru.apply(s)
		case seen&ru.hintSet == 0,
			ru.keyed && keyed&ru.hintSet == 0,
			ru.keyed && ru.wordKey && word&ru.hintSet == 0:
			continue
		default:
			if lower == "" {
				lower = asciiLower(s)
			}
			out, changed = ru.applyHinted(s, lower, occ, r.hints.hints)
		}
		if changed {
			s, lower = out, ""
			occ, seen = r.hints.find(s, occ[:0])
			keyed, word = r.hints.keyed(s, occ)
		}
	}
	return s
}

// asciiLower lower-cases ASCII letters only, so byte offsets in the result
// are offsets in s (strings.ToLower may change lengths).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// applyHinted applies ru to each line of s that contains one of its hints;
// lower is asciiLower(s) and occ is where the hints of every rule occur in
// it (hintIndex.find, whose hints are hints).
func (ru *rule) applyHinted(s, lower string, occ []occurrence, hints []string) (string, bool) {
	var b strings.Builder
	done, pos := 0, 0 // s[:done] is written to b; search resumes at pos
	changed := false
	for i, o := range occ {
		if o.at < pos || ru.hintSet&(1<<o.hint) == 0 {
			continue
		}
		at := o.at
		start := strings.LastIndexByte(s[:at], '\n') + 1
		end := len(s)
		if j := strings.IndexByte(s[at:], '\n'); j >= 0 {
			end = at + j
		}
		// No hint of ru occurs in the line before at: pos, where the
		// search resumed, is at most start.
		if ru.keyed && !ru.keyIn(lower[start:end], start, occ[i:], hints) {
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

// isKey reports whether rest, the text after a candidate secret, makes the
// candidate a key rather than a value: a separator follows it, after an
// optional closing quote ("api_key: 'secret': 'x'").
func isKey(rest string) bool { return separated(rest, " \t") }

// separated reports whether rest starts with an optional quote, then any
// of the bytes in space, then ':' or '='.
func separated(rest, space string) bool {
	if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
		rest = rest[1:]
	}
	rest = strings.TrimLeft(rest, space)
	return rest != "" && (rest[0] == ':' || rest[0] == '=')
}

// startsWord reports whether a credentialKey key can end with the hint at
// line[at:]: walking back over the key's letters, digits, '_' and '-', the
// line starts or a byte credentialKey takes for a boundary comes (a quote
// is one). Bytes outside ASCII count as a boundary, as they may be letters
// (?i) folds into the key.
func startsWord(line string, at int) bool {
	k := at
	for k > 0 && isKeyByte(line[k-1]) {
		k--
	}
	return k == 0 || line[k-1] != '.' && line[k-1] != '#'
}

// afterCounter reports whether the credentialKey match at s[at:] (its
// boundary byte first, unless it starts s) names the second word of a
// counter: "#full token: 5120", "#swa token: 12" in sglang's batch lines.
func afterCounter(s string, at int) bool {
	if at > 0 || at < len(s) && !isKeyByte(lowerASCII[s[at]]) {
		at++ // past the boundary byte
	}
	if at < 2 || s[at-1] != ' ' {
		return false
	}
	k := at - 1
	for k > 0 && isKeyByte(lowerASCII[s[k-1]]) {
		k--
	}
	return k < at-1 && k > 0 && s[k-1] == '#'
}

// isNumber reports whether s is a decimal number, as a counter's value is.
func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return s != ""
}

// isKeyByte reports whether c, of lower-cased text, may be in a key.
func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// reSpace is what \s matches in the rules' regexes.
const reSpace = " \t\n\f\r"

// keyIn reports whether one of ru's hints occurs in line, lower-cased as
// the hints are, followed by a key's separator: what every match of a
// keyed rule holds. line starts at offset start of the text whose hint
// occurrences are occ (from the first of ru's in line on; hints are
// theirs). Hints hold no new line, so each occurrence that starts in line
// ends in it.
func (ru *rule) keyIn(line string, start int, occ []occurrence, hints []string) bool {
	for _, o := range occ {
		at := o.at - start
		if at >= len(line) {
			break
		}
		if ru.hintSet&(1<<o.hint) == 0 {
			continue
		}
		if separated(line[at+len(hints[o.hint]):], reSpace) && (!ru.wordKey || startsWord(line, at)) {
			return true
		}
	}
	return false
}

// apply replaces the secrets ru finds in s.
func (ru *rule) apply(s string) (string, bool) {
	if ru.prefix != "" && !strings.Contains(s, ru.prefix) {
		return s, false
	}
	var b strings.Builder
	last := 0
	for pos := 0; pos < len(s); {
		m := ru.re.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		start, end := m[2*ru.secret], m[2*ru.secret+1]
		// A spared candidate may hold the start of the next match
		// ("api_key: password: x"), so the search resumes inside it.
		pos = max(m[1], m[0]+1)
		if start < 0 || start == end || start < last {
			continue
		}
		// A value of several words that runs into the next key ("token:
		// abc expired user: bob") ends before the key's word.
		if isKey(s[end:]) {
			if k := strings.LastIndexAny(s[start:end], " \t"); k > 0 {
				end = start + len(strings.TrimRight(s[start:start+k], " \t"))
				pos = end // the key is searched again
			}
		}
		secret := s[start:end]
		if ru.wordKey && isNumber(secret) && afterCounter(s, m[0]) {
			continue // "#full token: 5120": sglang's counter, not a key
		}
		if secret == Mask || (ru.keep != nil && ru.keep(secret)) || isKey(s[end:]) {
			pos = max(start, m[0]+1)
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:start])
		b.WriteString(Mask)
		last = end
	}
	if last == 0 {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// RedactAlert redacts, in place, every field of a that carries log text:
// the matched text, capture groups, the exception, the entry, and the
// solutions (a failure no record names gets steps that quote its frame,
// path, model id or flag). Other catalog fields of the record and the
// source identity are left alone. The pipeline calls it once, before an
// alert fans out to the sinks.
//
// The headline is nearly always the matched text itself (99% of a scan's
// alerts): Redact, a function of its text alone, is then not run twice on
// it.
func (r *Redactor) RedactAlert(a *sinks.Alert) {
	a.Record.Solutions = r.redactAll(a.Record.Solutions)
	text := a.Match.Text
	a.Match.Text = r.Redact(text)
	if a.Headline == text {
		a.Headline = a.Match.Text
	} else {
		a.Headline = r.Redact(a.Headline)
	}
	for k, v := range a.Match.Groups {
		a.Match.Groups[k] = r.Redact(v)
	}
	if e := a.Match.Exception; e != nil {
		e.Message = r.Redact(e.Message)
		e.Stacktrace = r.Redact(e.Stacktrace)
		e.RootCause = r.Redact(e.RootCause)
	}
	a.Entry = r.Redact(a.Entry)
	for i := range a.Context {
		a.Context[i].Text = r.Redact(a.Context[i].Text)
	}
	for i := range a.Consequences {
		a.Consequences[i].Headline = r.Redact(a.Consequences[i].Headline)
	}
}

// redactAll returns ss with each string redacted. It copies ss only when a
// string changed: the slice may be a catalog record's, shared by every
// alert of that record.
func (r *Redactor) redactAll(ss []string) []string {
	var out []string
	for i, s := range ss {
		red := r.Redact(s)
		if red == s {
			continue
		}
		if out == nil {
			out = slices.Clone(ss)
		}
		out[i] = red
	}
	if out == nil {
		return ss
	}
	return out
}
