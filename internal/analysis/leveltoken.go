package analysis

import "strings"

// A line whose writer put its level first and nothing before it: a
// logging format without a time ("%(levelname)s - %(message)s",
// "%(levelname)s:%(name)s:%(message)s"), Rust's env_logger with its time
// off ("[ERROR widget::store] ..."), Go's and shell scripts' "[FATAL]
// ...", a collector that cut the time off. The entry package reads a
// level only inside a header with a time; without one the line has no
// level, and its first token is read here. spdlog's lower-case "[error]"
// field is not: behind its bracketed time a header reads, each of a C++
// service's error lines would page on its own.

// maxLevelTarget bounds the target an env_logger-style bracket names after
// its level.
const maxLevelTarget = 64

// levelTokenLead reports whether msg opens with an error level token used
// as the line's level: an upper-case word (ERROR, ERR, FATAL, CRITICAL,
// CRIT) followed by a field separator (" - ", " | ", runs of
// spaces, or ":" and a logger's name and ":"), or a bracketed upper-case
// level, alone ("[FATAL] ") or with a target ("[ERROR widget::store] "),
// and then a message.
func levelTokenLead(msg string) bool {
	if msg == "" {
		return false
	}
	if msg[0] == '[' {
		end := strings.IndexByte(msg[:min(len(msg), maxLevelTarget+16)], ']')
		if end < 2 || !strings.HasPrefix(msg[end:], "] ") || strings.TrimSpace(msg[end+2:]) == "" {
			return false
		}
		// Upper case only (spdlog's lower-case field is left alone).
		word, target, _ := strings.Cut(msg[1:end], " ")
		if !errorLevelWord(word) {
			return false
		}
		return target == "" || !strings.ContainsAny(target, " []")
	}
	i := 0
	for i < len(msg) && 'A' <= msg[i] && msg[i] <= 'Z' {
		i++
	}
	switch msg[:i] {
	case "ERROR", "ERR", "FATAL", "CRITICAL", "CRIT":
		// PANIC, EMERG and ALERT are read in brackets only: a bare
		// one opens too few lines to be worth a look at every line
		// that starts with their letters.
	default:
		return false
	}
	r := msg[i:]
	switch {
	case strings.HasPrefix(r, " - "), strings.HasPrefix(r, " | "):
		return strings.TrimLeft(r, " -|") != ""
	case strings.HasPrefix(r, "  "):
		// A level padded to its column, then a message's word; not a
		// bracket (rich's console columns, "ERROR    [05:39:59] ...",
		// whose own layout a copy cut).
		m := strings.TrimLeft(r, " ")
		return m != "" && (isLowerByte(m[0]) || isUpperByte(m[0]))
	case strings.HasPrefix(r, ":") && len(r) > 1 && r[1] != ' ':
		// basicConfig's "ERROR:root:message": a logger's dotted name,
		// then its own colon.
		c := strings.IndexByte(r[1:], ':')
		return c > 0 && !strings.ContainsAny(r[1:1+c], " \t") && strings.TrimSpace(r[2+c:]) != ""
	case strings.HasPrefix(r, " "):
		// One space: a word follows, in lower case or capitalised; not
		// an upper-case one ("ERROR RATE: 0.1" is a figure) nor a
		// bracket (a console's "ERROR [05:39:59] ..." columns, whose
		// time a copy moved).
		return len(r) > 2 && (isLowerByte(r[1]) || isUpperByte(r[1]) && isLowerByte(r[2]))
	}
	return false
}

// errorLevelWord reports whether w, upper-case, is a level word of error
// rank or above.
func errorLevelWord(w string) bool {
	switch w {
	case "ERROR", "ERR", "FATAL", "CRITICAL", "CRIT", "PANIC", "EMERG", "ALERT":
		return true
	}
	return false
}
