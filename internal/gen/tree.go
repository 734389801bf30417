package gen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Tree is a source tree read for Check: its Python files and what they
// define that a record's advice may name (server flags, environment
// variables, package names).
type Tree struct {
	// Root is the directory read: the top of the repository the source
	// directory is in (the first parent holding .git), or the source
	// directory itself when it is in none.
	Root string
	// SHA is the commit the tree is at: the --sha given, or what .git's
	// HEAD names.
	SHA string
	// Files holds every *.py and *.rs file by its slash-separated path
	// relative to Root, which is how a record's filePath names it.
	Files map[string]string
	// Flags are the command-line flags the tree's argument parsers define,
	// by flag ("--tp-size").
	Flags map[string]Flag
	// flagSuffixes are flags defined with a prefix made at run time
	// (f"--{prefix}policy"): any flag ending so is defined.
	flagSuffixes []string
	// Envs are the environment variables the tree defines or reads, by
	// name; the value is the variable that replaces a deprecated one, or
	// "".
	Envs map[string]string
	// Packages are the normalized names (PEP 503) of the tree's own
	// projects, of everything their pyproject files depend on, and of
	// what its Dockerfiles, shell scripts and docs "pip install".
	Packages map[string]bool
}

// Flag is one command-line flag a tree defines.
type Flag struct {
	// Replacement is what a deprecated alias says to use instead
	// (argparse's new_flag); empty for a current flag.
	Replacement string
	// Removed is set for a flag kept only to fail or to warn that it no
	// longer does anything, with no replacement.
	Removed bool
	// File and Line are where it is defined.
	File string
	Line int
}

// rank orders definitions of one flag: the server's own (a
// server_args.py) over any other parser's, and a current one over a
// deprecated or removed one.
func (f Flag) rank() int {
	r := 0
	if path.Base(f.File) == "server_args.py" {
		r = 2
	}
	if f.Replacement == "" && !f.Removed {
		r++
	}
	return r
}

// OpenTree reads the source tree at dir for Check. root, when not empty,
// is the top of the repository dir is in, which record paths are
// relative to; empty means the first parent of dir (or dir) holding .git,
// or dir itself when there is none. sha, when not empty, is the commit the
// tree is at; otherwise it is read from root's .git, and a tree with
// neither is an error, since every link a check writes is pinned to it.
func OpenTree(dir, root, sha string) (*Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("--src %s: %w", dir, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("--src %s: %w", dir, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("--src %s: not a directory", dir)
	}
	root, err = repoRoot(dir, root)
	if err != nil {
		return nil, err
	}
	if sha == "" {
		sha, err = headCommit(filepath.Join(root, ".git"))
		if err != nil {
			return nil, fmt.Errorf("--src %s: the commit is unknown (give --sha): %w", dir, err)
		}
	}
	rel, _ := filepath.Rel(root, abs)
	t, err := ReadTree(os.DirFS(root), filepath.ToSlash(rel))
	if err != nil {
		return nil, fmt.Errorf("--src %s: %w", dir, err)
	}
	t.Root, t.SHA = root, sha
	return t, nil
}

// repoRoot returns the top of the repository dir is in: root when given
// (it must hold dir), else the first parent of dir (or dir) holding .git,
// else dir itself. The result is absolute.
func repoRoot(dir, root string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("--src %s: %w", dir, err)
	}
	if root != "" {
		r, err := filepath.Abs(root)
		if err != nil {
			return "", fmt.Errorf("--root %s: %w", root, err)
		}
		if rel, err := filepath.Rel(r, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("--root %s: does not hold --src %s", root, dir)
		}
		return r, nil
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
	}
}

// shaRE is a full commit id.
var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

// headCommit reads the commit HEAD names in a .git directory (or a .git
// file pointing at one, as a worktree has), through loose or packed refs.
func headCommit(gitPath string) (string, error) {
	dir := gitPath
	if b, err := os.ReadFile(gitPath); err == nil {
		rest, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return "", fmt.Errorf("%s: not a git directory", gitPath)
		}
		dir = strings.TrimSpace(rest)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(gitPath), dir)
		}
	}
	head, err := os.ReadFile(filepath.Join(dir, "HEAD"))
	if err != nil {
		return "", err
	}
	h := strings.TrimSpace(string(head))
	ref, isRef := strings.CutPrefix(h, "ref:")
	if !isRef {
		if shaRE.MatchString(h) {
			return h, nil
		}
		return "", fmt.Errorf("%s: HEAD is neither a ref nor a commit", dir)
	}
	ref = strings.TrimSpace(ref)
	// A worktree keeps its refs in the common directory.
	dirs := []string{dir}
	if c, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(dir, cd)
		}
		dirs = append(dirs, cd)
	}
	for _, d := range dirs {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			if s := strings.TrimSpace(string(b)); shaRE.MatchString(s) {
				return s, nil
			}
		}
		if b, err := os.ReadFile(filepath.Join(d, "packed-refs")); err == nil {
			sc := bufio.NewScanner(bytes.NewReader(b))
			for sc.Scan() {
				if id, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref && shaRE.MatchString(id) {
					return id, nil
				}
			}
		}
	}
	return "", fmt.Errorf("%s: %s names no commit", dir, ref)
}

// ReadTree reads a source tree from fsys for Check: every *.py and *.rs
// file under dir ("." for all; hidden directories and __pycache__ left
// out), with the flags its argument parsers define and the environment
// variables it defines or reads; and, from the whole of fsys, the
// packages its pyproject files name or its Dockerfiles, shell scripts and
// docs install. Paths stay relative to fsys's root. Root and SHA are left
// for the caller.
func ReadTree(fsys fs.FS, dir string) (*Tree, error) {
	t := &Tree{Files: map[string]string{}, Flags: map[string]Flag{}, Envs: map[string]string{}, Packages: map[string]bool{}}
	var pyprojects, installers []string
	under := func(p string) bool { return dir == "." || p == dir || strings.HasPrefix(p, dir+"/") }
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "__pycache__" || name == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".rs"):
			if !under(p) {
				return nil
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			t.Files[p] = string(b)
		case strings.HasPrefix(name, "pyproject") && strings.HasSuffix(name, ".toml"):
			pyprojects = append(pyprojects, p)
		case strings.HasPrefix(name, "Dockerfile") || strings.HasSuffix(name, ".sh") ||
			strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".mdx"):
			installers = append(installers, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read source tree: %w", err)
	}
	names := make([]string, 0, len(t.Files))
	for p := range t.Files {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		if strings.HasSuffix(p, ".py") {
			t.readFlags(p, t.Files[p])
			t.readEnvs(t.Files[p])
		}
	}
	slices.Sort(pyprojects)
	for _, p := range pyprojects {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		for _, n := range pyprojectNames(string(b)) {
			t.Packages[n] = true
		}
	}
	for _, p := range installers {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		text := string(b)
		for _, m := range pipRE.FindAllStringIndex(text, -1) {
			end := len(text)
			if k := strings.IndexByte(text[m[1]:], '\n'); k >= 0 {
				end = m[1] + k
			}
			for _, n := range pipNames(text[m[1]:end]) {
				t.Packages[NormalizePackage(n)] = true
			}
		}
	}
	if len(t.Files) == 0 {
		return nil, errors.New("no Python or Rust file in the tree")
	}
	return t, nil
}

// Flag looks a flag up, by its own name or, for flags defined with a
// prefix made at run time, by the suffix they share.
func (t *Tree) Flag(name string) (Flag, bool) {
	if name == "--help" {
		return Flag{}, true // every argparse parser has it
	}
	if f, ok := t.Flags[name]; ok {
		return f, true
	}
	for _, s := range t.flagSuffixes {
		if strings.HasSuffix(name, s) {
			return Flag{}, true
		}
	}
	return Flag{}, false
}

// readFlags collects the flags one file defines: each add_argument call's
// "--name" arguments (with new_flag= making it a deprecated alias, and a
// DeprecatedAction without one a removed flag), and, in a server_args.py,
// the dataclass fields annotated A[...] that become flags named after the
// field unless marked no_cli.
func (t *Tree) readFlags(file, src string) {
	if !strings.Contains(src, "add_argument") && path.Base(file) != "server_args.py" || isAuxiliary(file) {
		return
	}
	toks := Tokenize(src)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Kind == Name && toks[i].Text == "add_argument" && isOp(toks[i+1], "(") {
			args, end := callArgs(toks, i+1)
			t.addArgument(file, toks[i].Line, args)
			i = end - 1
		}
	}
	if path.Base(file) != "server_args.py" {
		return
	}
	// Fields of a dataclass, one level of indentation deep, whose
	// annotation is A[...]: "    tp_size: A[int, ...] = 1".
	for _, m := range fieldRE.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		body := annotationBody(src, m[1])
		if strings.Contains(body, "no_cli=True") {
			continue
		}
		line := 1 + strings.Count(src[:m[0]], "\n")
		flag := "--" + strings.ReplaceAll(name, "_", "-")
		if cm := cliNameRE.FindStringSubmatch(body); cm != nil {
			flag = cm[1]
		}
		t.define(flag, Flag{File: file, Line: line})
		if am := aliasesRE.FindStringSubmatch(body); am != nil {
			for _, a := range flagLitRE.FindAllStringSubmatch(am[1], -1) {
				t.define(a[1], Flag{File: file, Line: line})
			}
		}
	}
}

var (
	fieldRE   = regexp.MustCompile(`(?m)^    ([a-z_][a-z0-9_]*): A\[`)
	cliNameRE = regexp.MustCompile(`cli_name\s*=\s*["'](--[a-z0-9-]+)["']`)
	aliasesRE = regexp.MustCompile(`aliases\s*=\s*\[([^\]]*)\]`)
	flagLitRE = regexp.MustCompile(`["'](--[a-z0-9][a-z0-9-]*)["']`)
	newFlagRE = regexp.MustCompile(`^new_flag\s*=\s*["']([^"']+)["']`)
)

// isAuxiliary reports a file of a test, benchmark or example: the flags
// its own parsers define are not the product's.
func isAuxiliary(file string) bool {
	for _, seg := range strings.Split(path.Dir(file), "/") {
		switch seg {
		case "test", "tests", "e2e_test", "benchmark", "benchmarks", "examples", "scripts", "experimental", "3rdparty", "testdata":
			return true
		}
	}
	return strings.HasPrefix(path.Base(file), "test_")
}

// annotationBody returns the text of the A[...] annotation whose "[" ends
// at src[open-1], up to its closing bracket.
func annotationBody(src string, open int) string {
	depth := 1
	for j := open; j < len(src); j++ {
		switch src[j] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
			if depth == 0 {
				return src[open:j]
			}
		}
	}
	return src[open:]
}

// addArgument records the flags of one add_argument call.
func (t *Tree) addArgument(file string, line int, args [][]Token) {
	var flags []string
	var prefixed []string
	f := Flag{File: file, Line: line}
	deprecatedAction := false
	for _, a := range args {
		a = trimNewlines(a)
		if len(a) == 1 && a[0].Kind == String {
			l := SplitLiteral(a[0].Text)
			switch {
			case !l.Formatted() && strings.HasPrefix(l.Body, "--"):
				flags = append(flags, l.Body)
			case l.Formatted() && strings.HasPrefix(l.Body, "--{"):
				// f"--{prefix}name": defined under any prefix.
				if k := strings.LastIndexByte(l.Body, '}'); k > 0 && k+1 < len(l.Body) {
					prefixed = append(prefixed, l.Body[k+1:])
				}
			}
			continue
		}
		if len(a) < 3 || a[0].Kind != Name || !isOp(a[1], "=") {
			continue
		}
		switch a[0].Text {
		case "new_flag":
			if a[2].Kind == String {
				f.Replacement = DecodeLiteral(SplitLiteral(a[2].Text)).Template()
			}
		case "action":
			// DeprecatedAction, DeprecatedStoreTrueAction, ...: only the
			// first, with no new flag, leaves nothing to use.
			deprecatedAction = a[len(a)-1].Text == "DeprecatedAction"
		}
	}
	if deprecatedAction && f.Replacement == "" {
		f.Removed = true
	}
	for _, fl := range flags {
		t.define(fl, f)
	}
	for _, p := range prefixed {
		t.flagSuffixes = append(t.flagSuffixes, p)
		t.define("--"+p, Flag{File: file, Line: line})
	}
}

// define adds a flag. The server's definition decides what a flag is (a
// benchmark script's current --cuda-graph-max-bs must not hide that the
// server deprecated it); among others, a current one wins.
func (t *Tree) define(name string, f Flag) {
	if old, ok := t.Flags[name]; ok && old.rank() >= f.rank() {
		return
	}
	t.Flags[name] = f
}

var (
	// envDefRE is a definition in an environment registry class:
	// "    SGLANG_X = EnvBool(False)", with an optional
	// deprecated_name="SGLANG_OLD" alias in the call.
	envDefRE = regexp.MustCompile(`(?m)^\s+([A-Z][A-Z0-9_]*)\s*=\s*Env\w*\(([^\n]*)`)
	envOldRE = regexp.MustCompile(`deprecated_name\s*=\s*["']([A-Z][A-Z0-9_]*)["']`)
	// envUseRE is an environment variable named in a string literal,
	// as os.environ.get("SGLANG_X") and get_bool_env_var("SGLANG_X") do.
	envUseRE = regexp.MustCompile(`["']((?:SGLANG|SGL)_[A-Z0-9_]+)["']`)
)

// readEnvs collects the environment variables one file defines or reads.
func (t *Tree) readEnvs(src string) {
	if !strings.Contains(src, "SGL") {
		return
	}
	for _, m := range envDefRE.FindAllStringSubmatch(src, -1) {
		if _, ok := t.Envs[m[1]]; !ok {
			t.Envs[m[1]] = ""
		}
		if old := envOldRE.FindStringSubmatch(m[2]); old != nil {
			t.Envs[old[1]] = m[1]
		}
	}
	for _, m := range envUseRE.FindAllStringSubmatch(src, -1) {
		if _, ok := t.Envs[m[1]]; !ok {
			t.Envs[m[1]] = ""
		}
	}
}

var (
	tomlNameRE = regexp.MustCompile(`^name\s*=\s*["']([^"']+)["']`)
	tomlKeyRE  = regexp.MustCompile(`^([A-Za-z0-9_.-]+)\s*=\s*\[`)
	tomlStrRE  = regexp.MustCompile(`"([^"]*)"|'([^']*)'`)
	// reqNameRE is the name of a requirement string: "torch==2.9.1",
	// "flashinfer_python[jit]>=0.5 ; platform_machine == 'x86_64'".
	reqNameRE = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.?)`)
)

// pyprojectNames returns the normalized project names a pyproject file
// declares and depends on. It reads lines, not all of TOML: the
// [project] name, and the requirement strings of the arrays that hold
// requirements ([project] dependencies, every optional-dependencies and
// dependency-groups array, [build-system] requires). A requirement by URL
// ("sgl-kernel @ git+https://...") is left out: "pip install NAME" does
// not find it on an index.
func pyprojectNames(src string) []string {
	var out []string
	section := ""
	inArray := false
	for _, line := range strings.Split(src, "\n") {
		trim := strings.TrimSpace(line)
		if i := strings.Index(trim, " #"); i >= 0 {
			trim = strings.TrimSpace(trim[:i])
		}
		if !inArray && strings.HasPrefix(trim, "[") && strings.HasSuffix(trim, "]") && !strings.Contains(trim, "\"") {
			section = strings.Trim(trim, "[] ")
			continue
		}
		body := ""
		switch {
		case inArray:
			body = trim
		case section == "project" && tomlNameRE.MatchString(trim):
			out = append(out, NormalizePackage(tomlNameRE.FindStringSubmatch(trim)[1]))
			continue
		default:
			m := tomlKeyRE.FindStringSubmatch(trim)
			if m == nil || !requirementArray(section, m[1]) {
				continue
			}
			body = trim[len(m[0]):]
			inArray = true
		}
		for _, q := range tomlStrRE.FindAllStringSubmatch(body, -1) {
			req := q[1] + q[2]
			if m := reqNameRE.FindStringSubmatch(req); m != nil && m[3] != "@" {
				out = append(out, NormalizePackage(m[1]))
			}
		}
		if strings.Contains(tomlStrRE.ReplaceAllString(body, ""), "]") {
			inArray = false
		}
	}
	return out
}

// requirementArray reports whether key of section holds requirements.
func requirementArray(section, key string) bool {
	switch {
	case section == "project":
		return key == "dependencies"
	case section == "build-system":
		return key == "requires"
	case section == "project.optional-dependencies", section == "dependency-groups":
		return true
	}
	return false
}

// NormalizePackage is PEP 503's normal form of a package name: lower
// case, with runs of "-", "_" and "." made one "-".
func NormalizePackage(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r == '-' || r == '_' || r == '.' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}
