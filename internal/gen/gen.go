package gen

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/logmatch/logmatch/patterns"
)

// DefaultMinLiteral is the fewest non-space literal characters a message
// must keep for a record: shorter patterns ("Invalid {x}") match far too
// much to be worth an alert.
const DefaultMinLiteral = 12

// DefaultMinLeadingLiteral is the literal text a message that starts
// with it must have to be kept below DefaultMinLiteral: "NCCL error: {e}"
// opens every line it prints with ten characters of its own, while
// "Invalid {x}" or "{name} failed: {e}" would match far too much.
const DefaultMinLeadingLiteral = 8

// DefaultAnchorBelow is the literal text under which a message that
// starts with it must be found at the start of a message: "CUDART error:
// {e}" is itself, raised or logged, but inside "Setup Custom allreduce
// failed with CUDART error: ..." it is another message quoting it. Such
// patterns start with messageStart.
const DefaultAnchorBelow = 16

// messageStart is where a message begins in an entry: the start of a
// line (logmatch strips the log header), after an exception's "Type: ",
// or after a header's closing bracket in raw text.
const messageStart = `(?<=^|: |\] )`

// Options configure Generate.
type Options struct {
	// Repo is the GitHub OWNER/NAME the source tree is a checkout of. It
	// fills Record.Repo and, with SHA, Record.GithubURL; empty leaves both
	// empty.
	Repo string
	// Prefix is where the walked root is in the repository ("python"
	// when only sglang's python/ is walked): filePath, and so githubUrl,
	// is Prefix joined with the file's path under the root, which is the
	// path from the repository's top that a link needs. GenerateDir
	// fills it from Root.
	Prefix string
	// Root is, for GenerateDir, the top of the repository the walked
	// directory is in; empty means the first parent of it (or itself)
	// that holds .git, or the directory itself when none does.
	Root string
	// SHA is the commit the tree was taken from: it pins githubUrl and
	// fills analyzedSha. Empty links to HEAD.
	SHA string
	// MinLiteral overrides DefaultMinLiteral when positive.
	MinLiteral int
	// Warnings keeps logger.warning sites. Without it they get no record:
	// a warning is something the server goes on after, most are notices
	// (a default kernel config, a JIT warm-up), and a record for each
	// would alert on healthy servers and take an incident's lead from the
	// failure that follows; a curated record names the warnings that
	// matter.
	Warnings bool
}

// Skip is a message site that yielded no record, and why.
type Skip struct {
	File   string // slash-separated path relative to the source root
	Line   int
	Reason string
	Source string // the statement, whitespace collapsed, for the report
}

// String formats a skip as "file:line: reason: source" for stderr.
func (s Skip) String() string {
	src := s.Source
	if len(src) > 100 {
		src = src[:100] + "..."
	}
	return fmt.Sprintf("%s:%d: %s: %s", s.File, s.Line, s.Reason, src)
}

// GenerateDir runs Generate on the directory dir of the local file
// system, with filePath relative to the repository's top (opts.Root, or
// found by its .git), so "--src sglang/python" keeps the "python/" its
// links need.
func GenerateDir(dir string, opts Options) ([]patterns.Record, []Skip, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--src %s: %w", dir, err)
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("--src %s: not a directory", dir)
	}
	root, err := repoRoot(dir, opts.Root)
	if err != nil {
		return nil, nil, err
	}
	abs, _ := filepath.Abs(dir)
	if rel, _ := filepath.Rel(root, abs); rel != "." {
		opts.Prefix = path.Join(filepath.ToSlash(rel), opts.Prefix)
	}
	return Generate(os.DirFS(dir), opts)
}

// Generate walks every *.py file of root (hidden directories and
// __pycache__ left out) and returns one record per distinct message it
// raises or logs, sorted as Write writes them, plus every site it skipped.
// Two sites with the same id (same file, class and message template) give
// one record, the first; the others are reported as skips. An error means
// the tree could not be read.
func Generate(root fs.FS, opts Options) ([]patterns.Record, []Skip, error) {
	if opts.MinLiteral <= 0 {
		opts.MinLiteral = DefaultMinLiteral
	}
	var files []string
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "__pycache__") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".py") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("walk source tree: %w", err)
	}
	slices.Sort(files)
	var recs []patterns.Record
	var skips []Skip
	seen := map[string]int{} // id -> line of the record kept
	for _, f := range files {
		src, err := fs.ReadFile(root, f)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", f, err)
		}
		for _, s := range Extract(string(src)) {
			rec, reason := build(f, s, opts)
			if reason == "" {
				if line, dup := seen[rec.ID]; dup {
					reason = "same message as line " + strconv.Itoa(line)
				} else {
					seen[rec.ID] = s.Line
					recs = append(recs, rec)
					continue
				}
			}
			skips = append(skips, Skip{File: path.Join(opts.Prefix, f), Line: s.Line, Reason: reason, Source: s.Source})
		}
	}
	sortRecords(recs)
	return recs, skips, nil
}

// build turns one site into a record, or says why it cannot.
func build(file string, s Site, opts Options) (patterns.Record, string) {
	if s.Skip != "" {
		return patterns.Record{}, s.Skip
	}
	if !opts.Warnings && levelSeverity[s.Kind] == "warning" {
		return patterns.Record{}, "a warning: no record without --warnings"
	}
	if n := s.Message.LiteralRunes(); n < opts.MinLiteral && leadingLiteral(s.Message) < DefaultMinLeadingLiteral {
		if n == 0 {
			return patterns.Record{}, "only placeholders"
		}
		return patterns.Record{}, fmt.Sprintf("too little literal text (%d < %d characters)", n, opts.MinLiteral)
	}
	tmpl := s.Message.Template()
	if who := foreignMessage(s.Message); who != "" {
		// Such a record would be chosen for every error of that kind
		// in any program, pointing at this file, and displace the
		// advice of the record that knows the failure.
		return patterns.Record{}, who + "'s own message, not this tree's"
	}
	rec := patterns.Record{
		ID:             recordID(opts.Repo, path.Join(opts.Prefix, file), s.Class, tmpl),
		Repo:           opts.Repo,
		Slug:           Slug(s.Message),
		ErrorMessage:   tmpl,
		MessagePattern: anchorShort(s.Message, Pattern(s.Message)),
		ErrorType:      "log",
		ErrorClass:     s.Class,
		Severity:       patterns.Severity(severityOf(s.Kind)),
		FilePath:       path.Join(opts.Prefix, file),
		LineNumber:     s.Line,
		Solutions:      []string{},
		PreventionTips: []string{},
		Tags:           []string{"generated", moduleTag(file)},
		AnalyzedSha:    opts.SHA,
		SchemaVersion:  2,
	}
	if s.Kind == kindRaise {
		rec.ErrorType = "exception"
	}
	if opts.Repo != "" {
		sha := cmp.Or(opts.SHA, "HEAD")
		rec.GithubURL = fmt.Sprintf("https://github.com/%s/blob/%s/%s#L%d", opts.Repo, sha, rec.FilePath, s.Line)
	}
	return rec, ""
}

// anchorShort prefixes the pattern of a message that starts with literal
// text and has less than DefaultAnchorBelow of it with messageStart.
func anchorShort(m Message, pattern string) string {
	if len(m) > 0 && !m[0].Hole && m.LiteralRunes() < DefaultAnchorBelow && !strings.HasPrefix(pattern, messageStart) {
		return messageStart + pattern
	}
	return pattern
}

// leadingLiteral counts the non-space characters of the literal text a
// message starts with and a placeholder follows ("NCCL error: {e}"); 0
// when it starts with a placeholder or is all literal ("Bad input" is
// as generic as it is short).
func leadingLiteral(m Message) int {
	if len(m) < 2 || m[0].Hole {
		return 0
	}
	return Message{m[0]}.LiteralRunes()
}

// foreignMessages are the wordings of Python's, torch's and pydantic's
// own errors, which code re-raises or logs in its own words' place:
// "'{type}' object has no attribute '{name}'" in an sglang file is still
// Python's AttributeError. Each is matched against the message's literal
// text with its placeholders removed.
var foreignMessages = []struct {
	who string
	re  *regexp.Regexp
}{
	{"Python", regexp.MustCompile(`(?i)^'?\s*'? object has no attribute '?'?\s*$|object is not (?:subscriptable|callable|iterable)$|takes \d+ positional arguments? but|got an unexpected keyword argument|missing \d+ required positional argument|unsupported operand type\(s\) for|not supported between instances of|^No module named|^cannot import name|list index out of range|invalid literal for int\(\) with base|could not convert string to float|maximum recursion depth exceeded|^\[Errno \d+\]|Connection refused$`)},
	{"torch", regexp.MustCompile(`CUDA out of memory\. Tried to allocate|Expected all tensors to be on the same device|Cannot re-initialize CUDA in forked subprocess|Error\(s\) in loading state_dict for|size mismatch for|CUDA error: (?:an illegal memory access|device-side assert|out of memory)|NCCL error in:`)},
	{"pydantic", regexp.MustCompile(`validation errors? for|^Field required$|^Input should be (?:a valid|greater|less)|^Extra inputs are not permitted$`)},
}

// foreignMessage names the project whose own message m is, or "".
func foreignMessage(m Message) string {
	var lit strings.Builder
	for _, p := range m {
		if !p.Hole {
			lit.WriteString(p.Text)
		}
	}
	return foreignText(lit.String())
}

// foreignText is foreignMessage of a message's literal text.
func foreignText(lit string) string {
	text := strings.TrimSpace(lit)
	for _, f := range foreignMessages {
		if f.re.MatchString(text) {
			return f.who
		}
	}
	return ""
}

// Refine drops from a generated catalog the records Generate no longer
// writes: warnings (unless keepWarnings) and other projects' wordings;
// and it anchors the patterns of short messages as Generate does now. A
// catalog generated by an older logmatch is so brought in line without
// its source tree. Only skeletons are touched, records tagged "generated"
// or without solutions (older generators wrote no tag); curated records
// are kept as they are.
// It returns the records kept and, for each dropped, its id and why.
func Refine(recs []patterns.Record, keepWarnings bool) ([]patterns.Record, []string) {
	var kept []patterns.Record
	var dropped []string
	for _, r := range recs {
		if !slices.Contains(r.Tags, "generated") && len(r.Solutions) > 0 {
			kept = append(kept, r)
			continue
		}
		why := ""
		if !keepWarnings && r.ErrorType == "log" && r.Severity == patterns.SeverityWarning {
			why = "a warning"
		} else if who := foreignText(holeRE.ReplaceAllString(r.ErrorMessage, "")); who != "" {
			why = who + "'s own message"
		}
		if why != "" {
			dropped = append(dropped, fmt.Sprintf("%s: %s (%s)", r.Origin, r.ID, why))
			continue
		}
		r.MessagePattern = anchorShort(templateMessage(r.ErrorMessage), r.MessagePattern)
		kept = append(kept, r)
	}
	return kept, dropped
}

// templateMessage reads an errorMessage template back into a Message,
// each {name} a hole.
func templateMessage(tmpl string) Message {
	var m Message
	last := 0
	for _, loc := range holeRE.FindAllStringIndex(tmpl, -1) {
		m.lit(tmpl[last:loc[0]])
		m.hole(tmpl[loc[0]+1 : loc[1]-1])
		last = loc[1]
	}
	m.lit(tmpl[last:])
	return m
}

func severityOf(kind string) string {
	if kind == kindRaise {
		return "error"
	}
	return levelSeverity[kind]
}

// recordID hashes what identifies a message, leaving the line number out so
// ids survive code moving within a file.
func recordID(repo, file, class, tmpl string) string {
	h := sha256.New()
	for _, s := range []string{repo, file, class, tmpl} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// moduleTag names the file's module the way the dataset tags it:
// "auto_benchmark_lib.py" -> "auto-benchmark-lib".
func moduleTag(file string) string {
	base := strings.TrimSuffix(path.Base(file), ".py")
	if base == "__init__" {
		base = path.Base(path.Dir(file))
	}
	return strings.ReplaceAll(strings.Trim(base, "_"), "_", "-")
}

// Pattern renders a message as a messagePattern: literal text escaped for
// JavaScript regular expressions, each hole a lazy group named after the
// value it stands for ("(?<port>.+?)"), so a hit's capture groups say
// what they hold. A hole that ends the pattern is greedy, "(?<path>.+)": a
// lazy group there would stop after one character (and "." stops at the
// end of the line). It leaves out what makes a pattern slow or fragile
// without making it more specific: holes at the start (the pattern is
// searched unanchored, and a leading lazy group makes every position of
// every line a candidate), white space at the end with any holes on a last
// line of their own (log bounds and re-wrapping cut there first), and runs
// of adjacent holes, which become one group named after the first.
func Pattern(m Message) string {
	parts := slices.Clone(m)
	for {
		n := len(parts)
		if n > 0 && parts[n-1].Hole && (n == 1 || strings.HasSuffix(parts[n-2].Text, "\n")) {
			parts = parts[:n-1]
			continue
		}
		if n > 0 && !parts[n-1].Hole {
			t := strings.TrimRight(parts[n-1].Text, " \t\r\n")
			if t == "" {
				parts = parts[:n-1]
				continue
			}
			parts[n-1].Text = t
		}
		break
	}
	var b strings.Builder
	used := map[string]int{}
	prevHole := true // drops leading holes
	for i, p := range parts {
		if p.Hole {
			if !prevHole {
				name := groupName(p.Text, used)
				if i == len(parts)-1 {
					b.WriteString("(?<" + name + ">.+)")
				} else {
					b.WriteString("(?<" + name + ">.+?)")
				}
			}
			prevHole = true
			continue
		}
		b.WriteString(EscapeRegex(p.Text))
		prevHole = false
	}
	return b.String()
}

// groupName makes a capture group name of a hole's expression: its last
// name ("self.model_path" gives "model_path", "len(reqs)" "reqs"), or
// "value" when it has none, with "_2", "_3" on repeats. A group name is a
// letter or "_" followed by letters, digits and "_".
func groupName(expr string, used map[string]int) string {
	var words []string
	for _, w := range strings.FieldsFunc(expr, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) {
		if w[0] < '0' || w[0] > '9' {
			words = append(words, w)
		}
	}
	name := "value"
	if len(words) > 0 {
		// The last name: an attribute's own name, a call's argument.
		name = words[len(words)-1]
	}
	if len(name) > 32 {
		name = name[:32]
	}
	used[name]++
	if n := used[name]; n > 1 {
		return fmt.Sprintf("%s_%d", name, n)
	}
	return name
}

// EscapeRegex escapes s for a JavaScript (ECMAScript) regular expression:
// the syntax characters get a backslash, control characters an escape.
func EscapeRegex(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case strings.ContainsRune(`\^$.*+?()[]{}|/`, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Slug makes a kebab-case slug from the literal words of a message, at
// most 60 characters, cut at a word boundary.
func Slug(m Message) string {
	var words []string
	for _, p := range m {
		if p.Hole {
			continue
		}
		words = append(words, strings.FieldsFunc(strings.ToLower(p.Text), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		})...)
	}
	var b strings.Builder
	for _, w := range words {
		if b.Len() > 0 && b.Len()+1+len(w) > 60 {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
	}
	if b.Len() == 0 {
		return "message"
	}
	return b.String()
}

func sortRecords(recs []patterns.Record) {
	slices.SortFunc(recs, func(a, b patterns.Record) int {
		return cmp.Or(
			cmp.Compare(a.FilePath, b.FilePath),
			cmp.Compare(a.LineNumber, b.LineNumber),
			cmp.Compare(a.ID, b.ID),
		)
	})
}

// wireRecord is the dataset's line format: every key present, absent
// values null, in the dataset's key order.
type wireRecord struct {
	ID               string   `json:"id"`
	Repo             *string  `json:"repo"`
	Slug             string   `json:"slug"`
	ErrorCode        *string  `json:"errorCode"`
	ErrorMessage     string   `json:"errorMessage"`
	MessagePattern   string   `json:"messagePattern"`
	ErrorType        string   `json:"errorType"`
	ErrorClass       string   `json:"errorClass"`
	HTTPStatus       *int     `json:"httpStatus"`
	Severity         string   `json:"severity"`
	FilePath         string   `json:"filePath"`
	LineNumber       int      `json:"lineNumber"`
	SourceCode       *string  `json:"sourceCode"`
	SourceCodeStart  *int     `json:"sourceCodeStart"`
	SourceCodeEnd    *int     `json:"sourceCodeEnd"`
	GithubURL        *string  `json:"githubUrl"`
	Documentation    *string  `json:"documentation"`
	TriggerScenarios *string  `json:"triggerScenarios"`
	CommonSituations *string  `json:"commonSituations"`
	Solutions        []string `json:"solutions"`
	ExampleFix       *string  `json:"exampleFix"`
	HandlingStrategy *string  `json:"handlingStrategy"`
	ValidationCode   *string  `json:"validationCode"`
	TypeGuard        *string  `json:"typeGuard"`
	TryCatchPattern  *string  `json:"tryCatchPattern"`
	PreventionTips   []string `json:"preventionTips"`
	Tags             []string `json:"tags"`
	BackgroundTag    *string  `json:"backgroundTag"`
	AnalyzedSha      *string  `json:"analyzedSha"`
	AnalyzedAt       *string  `json:"analyzedAt"`
	SchemaVersion    int      `json:"schemaVersion"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Write writes recs as JSONL, one bare schema-v2 record per line in the
// dataset's format, sorted by file, line and id so the output is the same
// for the same tree. recs itself is not reordered.
func Write(w io.Writer, recs []patterns.Record) error {
	sorted := slices.Clone(recs)
	sortRecords(sorted)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i, r := range sorted {
		wr := wireRecord{
			ID: r.ID, Repo: nullable(r.Repo), Slug: r.Slug, ErrorMessage: r.ErrorMessage,
			MessagePattern: r.MessagePattern, ErrorType: r.ErrorType, ErrorClass: r.ErrorClass,
			Severity: string(r.Severity), FilePath: r.FilePath, LineNumber: r.LineNumber,
			GithubURL: nullable(r.GithubURL), Documentation: nullable(r.Documentation),
			TriggerScenarios: nullable(r.TriggerScenarios), CommonSituations: nullable(r.CommonSituations),
			Solutions: orEmpty(r.Solutions), HandlingStrategy: nullable(r.HandlingStrategy),
			PreventionTips: orEmpty(r.PreventionTips), Tags: orEmpty(r.Tags),
			AnalyzedSha: nullable(r.AnalyzedSha), AnalyzedAt: nullable(r.AnalyzedAt),
			SchemaVersion: r.SchemaVersion,
		}
		if err := enc.Encode(wr); err != nil {
			return fmt.Errorf("write record %d (%s): %w", i+1, r.ID, err)
		}
	}
	return nil
}

// WriteSkips writes one Skip.String line per skip, the report
// "logmatch patterns gen" prints on stderr.
func WriteSkips(w io.Writer, skips []Skip) error {
	for _, s := range skips {
		if _, err := io.WriteString(w, s.String()+"\n"); err != nil {
			return fmt.Errorf("write skip report: %w", err)
		}
	}
	return nil
}
