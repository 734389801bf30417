package gen

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/dlclark/regexp2/v2"

	"github.com/logmatch/logmatch/patterns"
)

// The kinds of Finding.
const (
	// FindMoved: the record's text is in the tree, at another place.
	FindMoved = "moved"
	// FindUnplaced: a record of the tree's repo that names no filePath
	// has its text in the tree; --write fills the place in.
	FindUnplaced = "unplaced"
	// FindGone: no raise, log call or string literal of the tree has the
	// text of a record that names a filePath, and the record does not
	// say it applies only to older versions (removedIn).
	FindGone = "gone"
	// FindFlag: advice names a flag the tree's parsers do not define, or
	// one they define only as a deprecated alias or a removed flag.
	FindFlag = "flag"
	// FindEnv: advice names an SGLANG_* variable the tree neither defines
	// nor reads, or one it reads only as a deprecated alias.
	FindEnv = "env"
	// FindPip: advice installs a package the tree's packaging does not
	// name.
	FindPip = "pip"
)

// Finding is one thing Check found wrong with a record.
type Finding struct {
	Record patterns.Origin // where the record is
	ID     string
	Kind   string
	// Message says what is wrong, lower-case, without the place.
	Message string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s: %s", f.Record, f.ID, f.Kind, f.Message)
}

// Location is where a record's text is in a tree.
type Location struct {
	File string
	Line int
}

// CheckOptions tune Check.
type CheckOptions struct {
	// Repo is the GitHub OWNER/NAME the tree is a checkout of: only
	// records of that repo are looked for in it. Their advice and every
	// other record's is checked all the same.
	Repo string
}

// CheckResult is what Check found.
type CheckResult struct {
	Located  int // records of Repo, looked for
	Present  int // found at their filePath and lineNumber
	Moved    int // found elsewhere, or found when they named no place
	Gone     int // not found at all, though they name a filePath
	Unfound  int // not found, naming no filePath: text that may not be the tree's own
	Retired  int // records marked removedIn: not looked for, advice not checked
	Findings []Finding
	// Moves maps the index of a moved record in the checked slice to
	// where its text is now; Pins lists every record found (present or
	// moved), whose links can be pinned to the tree's commit.
	Moves map[int]Location
	Pins  map[int]Location
}

// OK reports whether there are no findings.
func (r CheckResult) OK() bool { return len(r.Findings) == 0 }

// String is the one-line summary.
func (r CheckResult) String() string {
	return fmt.Sprintf("%d records looked for: %d present, %d moved or unplaced, %d gone, %d without a place not found; %d for older versions only; %d findings",
		r.Located, r.Present, r.Moved, r.Gone, r.Unfound, r.Retired, len(r.Findings))
}

// Check compares a catalog with a source tree: for each record of
// opts.Repo, whether its text is still raised or logged at its filePath
// and lineNumber (present), elsewhere (moved), nowhere (gone), or, for a
// record that names no place, where (unplaced); and for
// every record, whether the flags, SGLANG_* variables and pip packages
// its solutions and preventionTips name exist in the tree. A record with
// removedIn is for older versions: it is neither looked for nor has its
// advice checked against a tree it no longer applies to.
func Check(recs []patterns.Record, t *Tree, opts CheckOptions) CheckResult {
	res := CheckResult{Moves: map[int]Location{}, Pins: map[int]Location{}}
	idx := indexTree(t)
	for i := range recs {
		r := &recs[i]
		if r.RemovedIn != "" {
			res.Retired++
			continue
		}
		if opts.Repo == "" && r.FilePath != "" || opts.Repo != "" && r.Repo == opts.Repo {
			res.Located++
			loc, found, same := idx.locate(r)
			was := ""
			if r.FilePath != "" {
				was = fmt.Sprintf(" (was %s:%d)", r.FilePath, r.LineNumber)
			}
			switch {
			case !found && r.FilePath == "":
				// A record that names no place may hold text the tree
				// never had as a literal (Python's, the loader's): not
				// finding it says nothing.
				res.Unfound++
			case !found:
				res.Gone++
				res.Findings = append(res.Findings, Finding{r.Origin, r.ID, FindGone,
					"no raise, log call or literal of the tree has its text" + was + "; if it is gone for good, set removedIn"})
			case r.FilePath == "":
				res.Moved++
				res.Moves[i] = loc
				res.Pins[i] = loc
				res.Findings = append(res.Findings, Finding{r.Origin, r.ID, FindUnplaced,
					fmt.Sprintf("names no filePath; its text is at %s:%d", loc.File, loc.Line)})
			case same:
				res.Present++
				res.Pins[i] = loc
			default:
				res.Moved++
				res.Moves[i] = loc
				res.Pins[i] = loc
				res.Findings = append(res.Findings, Finding{r.Origin, r.ID, FindMoved,
					fmt.Sprintf("%s:%d is now at %s:%d", r.FilePath, r.LineNumber, loc.File, loc.Line)})
			}
		}
		res.Findings = append(res.Findings, checkAdvice(r, t)...)
	}
	return res
}

// candidate is a place in the tree that may hold a record's text: a
// raise or log call, or a run of adjacent string literals.
type candidate struct {
	file string
	line int
	site bool // a raise or log call, not a bare literal
	// sample is the text with each hole printed as "0"; re matches any
	// text the message can print (holes as anything), from its start
	// when it starts with literal text.
	sample  string
	first   string // the first literal part, for a cheap prefilter
	literal int
	re      *regexp.Regexp
}

// treeIndex holds every candidate of a tree's product files.
type treeIndex struct {
	cands []candidate
}

// minCandidateLiteral is the literal text a candidate needs for its own
// text to stand for a record's: "Error: {e}" would stand for anything.
// A message that starts with its literal text is matched from its start,
// so a little less will do ("Exit code: {code}").
const (
	minCandidateLiteral         = 12
	minAnchoredCandidateLiteral = 8
)

func indexTree(t *Tree) *treeIndex {
	x := &treeIndex{}
	files := make([]string, 0, len(t.Files))
	for f := range t.Files {
		if !isAuxiliary(f) {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	for _, f := range files {
		src := t.Files[f]
		if strings.HasSuffix(f, ".rs") {
			x.addRust(f, src)
			continue
		}
		for _, s := range extract(src, true) {
			if s.Message != nil {
				x.add(f, s.Line, true, s.Message)
			}
		}
		toks := Tokenize(src)
		for i := 0; i < len(toks); i++ {
			if toks[i].Kind != String {
				continue
			}
			var m Message
			j := i
			bytesLit := false
			for ; j < len(toks) && toks[j].Kind == String; j++ {
				l := SplitLiteral(toks[j].Text)
				bytesLit = bytesLit || l.Bytes()
				m.add(DecodeLiteral(l))
			}
			if !bytesLit {
				x.add(f, toks[i].Line, false, m)
			}
			i = j - 1
		}
	}
	return x
}

// rustStringRE is a Rust string literal on one line; its {name} and {}
// placeholders are holes, as in a Python f-string.
var rustStringRE = regexp.MustCompile(`"((?:[^"\\\n]|\\.)*)"`)

// addRust adds the string literals of a Rust file (the router and the
// gateway are Rust): format!, error! and warn! print them with their
// placeholders filled.
func (x *treeIndex) addRust(file, src string) {
	for _, m := range rustStringRE.FindAllStringSubmatchIndex(src, -1) {
		body := src[m[2]:m[3]]
		line := 1 + strings.Count(src[:m[0]], "\n")
		x.add(file, line, false, DecodeLiteral(Literal{Prefix: "f", Quote: `"`, Body: body}))
	}
}

func (x *treeIndex) add(file string, line int, site bool, m Message) {
	n := m.LiteralRunes()
	anchored := len(m) > 0 && !m[0].Hole
	if n < minCandidateLiteral && !(anchored && n >= minAnchoredCandidateLiteral) {
		return
	}
	var sample, re strings.Builder
	first := ""
	if anchored {
		re.WriteString("^")
	}
	re.WriteString("(?s)")
	for _, p := range m {
		if p.Hole {
			sample.WriteString("0")
			re.WriteString(".*?")
			continue
		}
		if first == "" {
			first = strings.TrimSpace(p.Text)
		}
		sample.WriteString(p.Text)
		re.WriteString(regexp.QuoteMeta(p.Text))
	}
	x.cands = append(x.cands, candidate{file: file, line: line, site: site, sample: sample.String(),
		first: first, literal: n, re: regexp.MustCompile(re.String())})
}

// holeRE is a placeholder of an errorMessage template.
var holeRE = regexp.MustCompile(`\{[^{}]*\}`)

// wordRunRE is a run of words, the part of a message a prefilter keys on.
var wordRunRE = regexp.MustCompile(`[A-Za-z_][A-Za-z_ ]{5,}[A-Za-z_]`)

// locate finds the record's text in the tree: a candidate whose message
// can print the record's errorMessage, or whose text the record's
// messagePattern matches. It prefers the record's own file and
// directory, a raise or log call over a bare literal, the shortest path
// and the nearest line. same reports that
// the record's filePath and lineNumber already name a match.
func (x *treeIndex) locate(r *patterns.Record) (loc Location, found, same bool) {
	sample := holeRE.ReplaceAllString(r.ErrorMessage, "0")
	re, err := patterns.Compile(r.MessagePattern)
	if err != nil {
		re = nil
	}
	key := ""
	for _, chunk := range holeRE.Split(r.ErrorMessage, -1) {
		for _, w := range wordRunRE.FindAllString(chunk, -1) {
			if len(w) > len(key) {
				key = w
			}
		}
	}
	var best *candidate
	dir := path.Dir(r.FilePath)
	better := func(c *candidate) bool {
		if best == nil {
			return true
		}
		// Its own file, its own directory, a raise or log call over a
		// bare literal, then the shortest path (the main server's file
		// over a variant's copy of it), then the nearest line.
		return cmp.Or(
			-cmpBool(c.file == r.FilePath, best.file == r.FilePath),
			-cmpBool(path.Dir(c.file) == dir, path.Dir(best.file) == dir),
			-cmpBool(c.site, best.site),
			cmp.Compare(len(c.file), len(best.file)),
			cmp.Compare(c.file, best.file),
			cmp.Compare(abs(c.line-r.LineNumber), abs(best.line-r.LineNumber)),
		) < 0
	}
	for i := range x.cands {
		c := &x.cands[i]
		if !x.matches(c, sample, key, re) {
			continue
		}
		if c.file == r.FilePath && c.line == r.LineNumber {
			return Location{c.file, c.line}, true, true
		}
		if better(c) {
			best = c
		}
	}
	if best == nil {
		return Location{}, false, false
	}
	return Location{best.file, best.line}, true, false
}

// matches reports whether candidate c holds the text of a record whose
// errorMessage, holes printed as "0", is sample.
func (x *treeIndex) matches(c *candidate, sample, key string, re *regexp2.Regexp) bool {
	if sample != "" && c.first != "" && strings.Contains(sample, c.first) && c.re.MatchString(sample) {
		return true
	}
	if re == nil || (key != "" && !strings.Contains(c.sample, key)) {
		return false
	}
	ok, err := re.MatchString(c.sample)
	return err == nil && ok
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

var (
	// adviceFlagRE is a long flag in prose: not part of a longer word.
	adviceFlagRE = regexp.MustCompile(`(?:^|[^\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)`)
	adviceEnvRE  = regexp.MustCompile(`\bSGLANG_[A-Z0-9_]*[A-Z0-9]\b`)
	pipRE        = regexp.MustCompile(`\bpip3? install\b`)
	// commandRE is a word that starts a command line in advice.
	commandRE = regexp.MustCompile(`(?i)(?:^|[\s(\x60'"])(docker|podman|nvidia-smi|nvcc|pip3?|uv|conda|gdb|nc|py-spy|git|kubectl|apt-get|apt|ibv_devinfo|ibstat|curl|dmesg|torchrun|ray|cmake|launch_server|launch_router|sglang_router|sglang)\b`)
	// clauseEndRE ends the stretch of prose a command's flags stay in.
	// A period ends a clause after a word, not in "pip install . --x".
	clauseEndRE = regexp.MustCompile(`[\w)]\.\s|;\s|\n`)
)

// foreignCommands are the commands whose flags are not the tree's.
var foreignCommands = map[string]bool{
	"docker": true, "podman": true, "nvidia-smi": true, "nvcc": true, "pip": true, "pip3": true,
	"uv": true, "conda": true, "gdb": true, "nc": true, "py-spy": true, "git": true, "kubectl": true,
	"apt-get": true, "apt": true, "ibv_devinfo": true, "ibstat": true, "curl": true, "dmesg": true,
	"torchrun": true, "ray": true, "cmake": true,
}

// checkAdvice checks the flags, variables and packages a record's
// solutions and preventionTips name.
func checkAdvice(r *patterns.Record, t *Tree) []Finding {
	var out []Finding
	seen := map[string]bool{}
	add := func(kind, what, msg string) {
		if seen[kind+what] {
			return
		}
		seen[kind+what] = true
		out = append(out, Finding{r.Origin, r.ID, kind, msg})
	}
	// The tree is sglang's: its remedies are checked with the
	// engine-neutral advice; other engines' are not the tree's to judge,
	// nor is a record of other engines only.
	if len(r.Engines) > 0 && !slices.Contains(r.Engines, "sglang") {
		return out
	}
	for _, text := range slices.Concat(r.Solutions, r.PreventionTips, r.Remedies["sglang"]) {
		for _, m := range adviceFlagRE.FindAllStringSubmatchIndex(text, -1) {
			flag := text[m[2]:m[3]]
			if foreignFlag(text, m[2]) {
				continue
			}
			f, ok := t.Flag(flag)
			switch {
			case !ok:
				add(FindFlag, flag, fmt.Sprintf("advice names %s, which the tree's argument parsers do not define", flag))
			case f.Removed:
				add(FindFlag, flag, fmt.Sprintf("advice names %s, which the tree keeps only as a removed flag (%s:%d)", flag, f.File, f.Line))
			case f.Replacement != "":
				add(FindFlag, flag, fmt.Sprintf("advice names %s, a deprecated alias: use %s (%s:%d)", flag, f.Replacement, f.File, f.Line))
			}
		}
		for _, v := range adviceEnvRE.FindAllString(text, -1) {
			repl, ok := t.Envs[v]
			switch {
			case !ok:
				add(FindEnv, v, fmt.Sprintf("advice names %s, which the tree neither defines nor reads", v))
			case repl != "":
				add(FindEnv, v, fmt.Sprintf("advice names %s, a deprecated alias: use %s", v, repl))
			}
		}
		for _, m := range pipRE.FindAllStringIndex(text, -1) {
			for _, name := range pipNames(text[m[1]:]) {
				if !t.Packages[NormalizePackage(name)] {
					add(FindPip, name, fmt.Sprintf("advice installs %s, which the tree's packaging does not name", name))
				}
			}
		}
	}
	return out
}

// foreignFlag reports whether the flag at text[at:] belongs to another
// program: the last command named before it, in the same clause, is not
// the server's.
func foreignFlag(text string, at int) bool {
	start := 0
	for _, e := range clauseEndRE.FindAllStringIndex(text[:at], -1) {
		start = e[1]
	}
	last := ""
	for _, m := range commandRE.FindAllStringSubmatch(text[start:at], -1) {
		last = strings.ToLower(m[1])
	}
	return foreignCommands[last]
}

// proseWords end a pip command written inside a sentence: "pip install
// sglang-kernel with the version your release pins".
var proseWords = map[string]bool{
	"or": true, "and": true, "the": true, "a": true, "an": true, "with": true, "at": true, "on": true,
	"by": true, "your": true, "its": true, "for": true, "to": true, "in": true, "from": true, "of": true,
	"that": true, "which": true, "so": true, "then": true, "if": true, "when": true, "as": true,
}

// placeholderRE is a placeholder of advice: "sglang==<your version>".
var placeholderRE = regexp.MustCompile(`<[^<>\n]*>`)

// pipNameRE is a requirement: a name, then optional extras and version.
var pipNameRE = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:[<>=!~].*)?$`)

// pipNames reads the package names of the arguments after "pip install":
// options are skipped (with the value of -r, -c, -e and the like), paths
// and URLs are not packages, and the command ends at punctuation that
// ends a clause, a closing parenthesis or a word of prose.
func pipNames(rest string) []string {
	rest = placeholderRE.ReplaceAllString(rest, "0")
	var names []string
	skipNext := false
	for _, w := range strings.Fields(rest) {
		if strings.HasPrefix(w, "(") || proseWords[strings.ToLower(w)] {
			return names // prose again
		}
		end := false
		trimmed := strings.TrimRight(w, ")];,`'\"")
		if trimmed != w {
			end = true
		}
		if strings.HasSuffix(trimmed, ".") && !strings.Contains(trimmed, "==") {
			trimmed, end = strings.TrimSuffix(trimmed, "."), true
		}
		trimmed = strings.Trim(trimmed, "`'\"(")
		switch {
		case skipNext:
			skipNext = false
		case trimmed == "" || trimmed == "&&" || trimmed == "||" || trimmed == "|":
			return names
		case strings.HasPrefix(trimmed, "-"):
			switch trimmed {
			case "-r", "-c", "-e", "--requirement", "--constraint", "--editable", "--index-url", "-i", "--extra-index-url", "-f", "--find-links", "--target", "-t":
				skipNext = true
			}
		case strings.ContainsAny(trimmed, "/\\:") || strings.HasPrefix(trimmed, "."):
			// a path, a URL or a wheel file
		default:
			m := pipNameRE.FindStringSubmatch(trimmed)
			if m == nil {
				return names
			}
			names = append(names, m[1])
		}
		if end {
			return names
		}
	}
	return names
}
