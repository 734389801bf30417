package gen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kinds of message sites.
const (
	kindRaise = "raise"
)

// levelSeverity maps a logger method to the severity of its records;
// methods not listed (debug, info) are not extracted.
var levelSeverity = map[string]string{
	"critical":  "critical",
	"fatal":     "critical",
	"error":     "error",
	"exception": "error",
	"warning":   "warning",
	"warn":      "warning",
}

// Site is one raise or logger call found in a file, before it becomes a
// record.
type Site struct {
	Line  int    // line of the statement's first token
	Kind  string // "raise", or the logger method ("error", "warning", ...)
	Class string // the raised class as written; empty for logger calls
	// Message is the message; nil when Skip says why there is none.
	Message Message
	Skip    string // why the site yields no record; empty when it does
	Source  string // the call's source text, for reports

	// arg is the message argument as written and at the token index of
	// the statement, for alternatives; percent the %-operands a logger
	// call formats it with.
	arg     []Token
	at      int
	percent []string
}

// Extract finds the message sites of one Python source file.
//
// A message passed as a plain variable (msg = f"..." then raise X(msg),
// the usual style of sglang) is resolved to the variable's last simple
// assignment earlier in the same function; a variable assigned only in
// some other way is skipped.
func Extract(src string) []Site { return extract(src, false) }

// extract is Extract; allLevels adds logger.info and logger.debug calls,
// which Check looks for a record's text in but Generate makes no record
// of.
func extract(src string, allLevels bool) []Site {
	toks := Tokenize(src)
	x := extractor{src: src, toks: toks, vars: assignments(toks)}
	var sites []Site
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind != Name {
			continue
		}
		if t.Text == "def" {
			x.def = i
			continue
		}
		if t.Text == "raise" {
			if s, ok := x.raiseSite(i); ok {
				sites = append(sites, x.alternatives(s)...)
			}
			continue
		}
		if t.Text == "return" {
			// return XError("...") hands the exception to a caller
			// that raises it: the message is printed all the same. A
			// return without a message of its own (a factory's
			// return XError(msg) of a parameter) is not a site.
			if s, ok := x.raiseSite(i); ok && isExceptionClass(s.Class) && s.Skip == "" {
				sites = append(sites, x.alternatives(s)...)
			}
			continue
		}
		if t.Text == "assert" {
			if s, ok := x.assertSite(i); ok {
				sites = append(sites, x.alternatives(s)...)
			}
			continue
		}
		if _, ok := levelSeverity[t.Text]; (ok || allLevels && (t.Text == "info" || t.Text == "debug")) && i >= 2 && isOp(toks[i-1], ".") &&
			toks[i-2].Kind == Name && isLoggerName(toks[i-2].Text) && i+1 < len(toks) && isOp(toks[i+1], "(") {
			sites = append(sites, x.alternatives(x.logSite(i))...)
		}
	}
	return sites
}

// extractor holds one file's tokens while its sites are read.
type extractor struct {
	src  string
	toks []Token
	vars map[string][]assignment // by variable name, in source order
	def  int                     // index of the last "def" token seen; 0 before any
}

// assignment is a statement "name = value" or "name += value" at the
// start of a logical line.
type assignment struct {
	at    int     // token index of the name
	value []Token // the right-hand side
	add   bool    // "+=": appends to the value before it
}

// assignments finds every simple "name = value" and "name += value"
// statement.
func assignments(toks []Token) map[string][]assignment {
	vars := map[string][]assignment{}
	start := 0
	for i, t := range toks {
		if t.Kind != Newline {
			continue
		}
		stmt := toks[start:i]
		start = i + 1
		switch {
		case len(stmt) >= 3 && stmt[0].Kind == Name && isOp(stmt[1], "=") && !isOp(stmt[2], "="):
			vars[stmt[0].Text] = append(vars[stmt[0].Text], assignment{at: start - 1 - len(stmt), value: stmt[2:]})
		case len(stmt) >= 4 && stmt[0].Kind == Name && isOp(stmt[1], "+") && isOp(stmt[2], "="):
			vars[stmt[0].Text] = append(vars[stmt[0].Text], assignment{at: start - 1 - len(stmt), value: stmt[3:], add: true})
		}
	}
	return vars
}

// resolve replaces an argument that is a single variable by the value of
// its last assignment between the enclosing def and the call at index at,
// with the "+=" that follow it appended.
func (x *extractor) resolve(arg []Token, at int) []Token {
	if vals := x.resolveAll(arg, at); len(vals) > 0 {
		return vals[len(vals)-1]
	}
	return unwrap(arg)
}

// resolveAll is resolve for each assignment of the variable in the
// enclosing function before the call, in source order: a message set in
// the branches of an if (msg = "A" ... else: msg = "B") prints either.
// It returns nil when the argument is not a variable assigned so.
func (x *extractor) resolveAll(arg []Token, at int) [][]Token {
	arg = unwrap(arg)
	if len(arg) != 1 || arg[0].Kind != Name {
		return nil
	}
	name := arg[0].Text
	var vals [][]Token
	prev := -1 // token index of the last assignment taken
	for _, a := range x.vars[name] {
		if a.at >= at || a.at <= x.def {
			continue
		}
		if !a.add && prev >= 0 && x.usedBetween(name, prev, a.at) {
			// The value before was used (raised, logged) before this
			// assignment replaced it: it is not an alternative here.
			vals = vals[:0]
		}
		prev = a.at
		if a.add && len(vals) > 0 {
			// msg += "..." appends to the value before it.
			last := vals[len(vals)-1]
			joined := make([]Token, 0, len(last)+len(a.value)+3)
			joined = append(joined, Token{Kind: Op, Text: "("})
			joined = append(joined, last...)
			joined = append(joined, Token{Kind: Op, Text: ")"}, Token{Kind: Op, Text: "+"})
			vals[len(vals)-1] = append(joined, a.value...)
			continue
		}
		if !a.add {
			vals = append(vals, a.value)
		}
	}
	return vals
}

// usedBetween reports whether the variable name is read between the
// assignments at token indexes from and to: a token of that name that
// does not start an assignment of it.
func (x *extractor) usedBetween(name string, from, to int) bool {
	for j := from + 1; j < to && j < len(x.toks); j++ {
		t := x.toks[j]
		if t.Kind != Name || t.Text != name {
			continue
		}
		if j+1 < len(x.toks) && (isOp(x.toks[j+1], "=") && (j+2 >= len(x.toks) || !isOp(x.toks[j+2], "=")) || isOp(x.toks[j+1], "+")) {
			continue // name = ..., name += ...
		}
		return true
	}
	return false
}

// alternatives returns s, or, when its message is a variable assigned
// more than once before it in the function (the branches of an if), one
// site per assignment whose value is a message.
func (x *extractor) alternatives(s Site) []Site {
	if s.arg == nil {
		return []Site{s}
	}
	vals := x.resolveAll(s.arg, s.at)
	if len(vals) < 2 {
		return []Site{s}
	}
	var out []Site
	seen := map[string]bool{}
	for _, v := range vals {
		m, skip := messageOf(x.src, v)
		if skip != "" {
			continue
		}
		if s.percent != nil {
			m = PercentFormat(m, s.percent)
		}
		if seen[m.Template()] {
			continue
		}
		seen[m.Template()] = true
		alt := s
		alt.Message, alt.Skip = m, ""
		out = append(out, alt)
	}
	if len(out) == 0 {
		return []Site{s}
	}
	return out
}

// isExceptionClass reports a class name that names an exception by
// Python's convention: a returned XError(...) is raised by the caller,
// a returned Config(...) is not a message.
func isExceptionClass(class string) bool {
	name := class[strings.LastIndexByte(class, '.')+1:]
	return strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception") ||
		strings.HasSuffix(name, "Exit") || strings.HasSuffix(name, "Interrupt") || strings.HasSuffix(name, "Warning")
}

func isOp(t Token, s string) bool { return t.Kind == Op && t.Text == s }

// isLoggerName accepts the usual names of a logger object or the logging
// module: logger, log, logging, _logger, LOGGER, self.logger's "logger"...
func isLoggerName(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "_"))
	return n == "log" || n == "logging" || strings.HasSuffix(n, "logger")
}

// raiseSite reads "raise Dotted.Name(args)" at toks[i].
func (x *extractor) raiseSite(i int) (Site, bool) {
	src, toks := x.src, x.toks
	j := i + 1
	start := j
	for j < len(toks) && toks[j].Kind == Name {
		j++
		if j < len(toks) && isOp(toks[j], ".") && j+1 < len(toks) && toks[j+1].Kind == Name {
			j++
			continue
		}
		break
	}
	if j == start || j >= len(toks) || !isOp(toks[j], "(") {
		return Site{}, false // bare raise, re-raise of a variable, or no call
	}
	var cls strings.Builder
	for _, t := range toks[start:j] {
		cls.WriteString(t.Text)
	}
	s := Site{Line: toks[i].Line, Kind: kindRaise, Class: cls.String()}
	args, end := callArgs(toks, j)
	s.Source = sourceOf(src, toks[i:end])
	last := toks[j-1].Text
	if r, _ := utf8.DecodeRuneInString(last); !unicode.IsUpper(r) {
		s.Skip = "raised value " + s.Class + " is not a class call"
		return s, true
	}
	var pos [][]Token
	for _, a := range args {
		if !isKeyword(a) {
			pos = append(pos, a)
		}
	}
	switch {
	case len(pos) == 0:
		s.Skip = "no message argument"
	case len(pos) > 1:
		s.Skip = "several arguments: str() prints them as a tuple"
	default:
		s.arg, s.at = pos[0], i
		s.Message, s.Skip = messageOf(src, x.resolve(pos[0], i))
	}
	return s, true
}

// assertSite reads "assert cond, msg" at toks[i]: when it fails, Python
// raises AssertionError with msg as its message. An assert without a
// message prints nothing worth a pattern and is not a site.
func (x *extractor) assertSite(i int) (Site, bool) {
	end := i + 1
	for end < len(x.toks) && x.toks[end].Kind != Newline {
		end++
	}
	parts := splitTop(x.toks[i+1:end], ",")
	if len(parts) != 2 {
		return Site{}, false
	}
	s := Site{Line: x.toks[i].Line, Kind: kindRaise, Class: "AssertionError", Source: sourceOf(x.src, x.toks[i:end])}
	s.arg, s.at = parts[1], i
	s.Message, s.Skip = messageOf(x.src, x.resolve(parts[1], i))
	return s, true
}

// logSite reads "logger.method(msg, *args, **kwargs)" with the method name at
// toks[i].
func (x *extractor) logSite(i int) Site {
	src, toks := x.src, x.toks
	first := i - 2
	for first >= 2 && isOp(toks[first-1], ".") && toks[first-2].Kind == Name {
		first -= 2
	}
	s := Site{Line: toks[first].Line, Kind: toks[i].Text}
	args, end := callArgs(toks, i+1)
	s.Source = sourceOf(src, toks[first:end])
	var pos [][]Token
	for _, a := range args {
		if !isKeyword(a) {
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 {
		s.Skip = "no message argument"
		return s
	}
	s.arg, s.at = pos[0], i
	s.Message, s.Skip = messageOf(src, x.resolve(pos[0], i))
	if len(pos) > 1 {
		// logging formats msg % args only when args are given.
		names := make([]string, 0, len(pos)-1)
		for _, a := range pos[1:] {
			names = append(names, sourceOf(src, a))
		}
		s.percent = names
		if s.Skip == "" {
			s.Message = PercentFormat(s.Message, names)
		}
	}
	return s
}

// statementKeywords start statements and never occur inside a call.
var statementKeywords = map[string]bool{
	"def": true, "class": true, "raise": true, "return": true, "import": true,
	"while": true, "try": true, "except": true, "finally": true, "with": true, "del": true,
	"pass": true, "global": true, "nonlocal": true, "assert": true,
}

// callArgs splits the arguments of the call whose "(" is toks[open] at
// top-level commas. It returns them and the index just past the ")".
func callArgs(toks []Token, open int) ([][]Token, int) {
	var args [][]Token
	depth := 0
	begin := open + 1
	for j := open; j < len(toks); j++ {
		t := toks[j]
		if t.Kind == Name && statementKeywords[t.Text] && j > open {
			// An unclosed call: a statement keyword cannot be inside an
			// expression, so the call ends before it. This also keeps the
			// scan linear on broken files.
			if j > begin {
				args = append(args, toks[begin:j])
			}
			return args, j
		}
		if t.Kind != Op {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				if j > begin {
					args = append(args, toks[begin:j])
				}
				return args, j + 1
			}
		case ",":
			if depth == 1 {
				if j > begin {
					args = append(args, toks[begin:j])
				}
				begin = j + 1
			}
		}
	}
	if len(toks) > begin {
		args = append(args, toks[begin:])
	}
	return args, len(toks)
}

// isKeyword reports a keyword argument (name=value) or a *args/**kwargs
// unpacking, neither of which is the message.
func isKeyword(a []Token) bool {
	if len(a) >= 2 && a[0].Kind == Name && isOp(a[1], "=") && (len(a) < 3 || !isOp(a[2], "=")) {
		return true
	}
	return len(a) > 0 && isOp(a[0], "*")
}

// sourceOf returns the source text spanned by toks, whitespace collapsed.
func sourceOf(src string, toks []Token) string {
	toks = trimNewlines(toks)
	if len(toks) == 0 {
		return ""
	}
	last := toks[len(toks)-1]
	return strings.Join(strings.Fields(src[toks[0].Pos:last.Pos+len(last.Text)]), " ")
}

func trimNewlines(toks []Token) []Token {
	for len(toks) > 0 && toks[0].Kind == Newline {
		toks = toks[1:]
	}
	for len(toks) > 0 && toks[len(toks)-1].Kind == Newline {
		toks = toks[:len(toks)-1]
	}
	return toks
}

// messageOf turns the message argument's tokens into a Message. The
// argument is a sum (+) of terms; a term that starts with string literals
// (implicitly concatenated) may be followed by % operands or .format(...);
// any other term is a hole. Without any literal there is no message.
func messageOf(src string, arg []Token) (Message, string) {
	arg = unwrap(arg)
	var m Message
	literal := false
	for _, term := range splitTop(arg, "+") {
		term = unwrap(term)
		k := 0
		for k < len(term) && term[k].Kind == String {
			k++
		}
		if k == 0 {
			m.hole(sourceOf(src, term))
			continue
		}
		var part Message
		for _, t := range term[:k] {
			l := SplitLiteral(t.Text)
			if l.Bytes() {
				return nil, "bytes literal: Python prints its repr"
			}
			part.add(DecodeLiteral(l))
		}
		rest := term[k:]
		switch {
		case len(rest) == 0:
		case isOp(rest[0], "%") && len(rest) > 1:
			part = PercentFormat(part, operandNames(src, rest[1:]))
		case len(rest) >= 3 && isOp(rest[0], ".") && rest[1].Text == "format" && isOp(rest[2], "("):
			args, end := callArgs(rest, 2)
			if end != len(rest) {
				m.hole(sourceOf(src, term))
				continue
			}
			var names []string
			for _, a := range args {
				if !isKeyword(a) {
					names = append(names, sourceOf(src, a))
				}
			}
			part = BraceFormat(part, names)
		default:
			// "sep".join(...), "x".upper() and the like: the printed text is
			// not the literal.
			m.hole(sourceOf(src, term))
			continue
		}
		literal = true
		m.add(part)
	}
	if !literal {
		return nil, "message is not a string literal"
	}
	return m, ""
}

// operandNames names the operands of a % expression: the elements of a
// tuple, or the single operand.
func operandNames(src string, op []Token) []string {
	if len(op) >= 2 && isOp(op[0], "(") {
		if _, end := callArgs(op, 0); end == len(op) {
			args, _ := callArgs(op, 0)
			names := make([]string, 0, len(args))
			for _, a := range args {
				names = append(names, sourceOf(src, a))
			}
			return names
		}
	}
	return []string{sourceOf(src, op)}
}

// unwrap removes parentheses that enclose a whole expression.
func unwrap(toks []Token) []Token {
	toks = trimNewlines(toks)
	for len(toks) >= 2 && isOp(toks[0], "(") {
		args, end := callArgs(toks, 0)
		if end != len(toks) || len(args) != 1 {
			break
		}
		toks = trimNewlines(toks[1 : len(toks)-1])
	}
	return toks
}

// splitTop splits toks at the operator op outside brackets.
func splitTop(toks []Token, op string) [][]Token {
	var out [][]Token
	depth, begin := 0, 0
	for j, t := range toks {
		if t.Kind != Op {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case op:
			if depth == 0 {
				out = append(out, toks[begin:j])
				begin = j + 1
			}
		}
	}
	return append(out, toks[begin:])
}
