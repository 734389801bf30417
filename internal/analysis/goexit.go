package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/triples"
)

// A child process's death as Go reports it. Programs written in Go that
// start another process (Ollama's server and its llama runner, a
// supervisor, a Kubernetes component running a hook) report the child's
// end with os/exec's ExitError, whose text is os.ProcessState's: "exit
// status <code>" for a process that exited, "signal: <name>" for one a
// signal ended, with " (core dumped)" when it left a core, the name being
// syscall.Signal's own ("illegal instruction", "segmentation fault", "bus
// error", "floating point exception", "aborted", "killed"). The
// program quotes it after its own words for what ended ("llama runner
// process has terminated: signal: illegal instruction (core dumped)",
// "runner exited: exit status 137", error="signal: killed"), and a user
// quotes that line in a report. A fatal signal, or an exit status a shell
// or a container runtime gives a process a fatal signal ended (128 plus
// the signal's number: 132, 134, 135, 136, 137, 139), after words that
// say something failed or ended, is the child's crash, named by its
// signal, at whatever level the line carries. A signal that asks a
// process to stop ("signal: terminated", "signal: interrupt", a user's
// Ctrl-C or a supervisor's stop) is no crash, and neither is a line that
// only names a signal ("received signal: terminated, shutting down").

// goFatalSignals are syscall.Signal's names of the signals that end a
// process that failed.
var goFatalSignals = [...]string{"illegal instruction", "segmentation fault", "bus error", "floating point exception", "aborted", "killed"}

// goFatalExitStatuses are the exit statuses a shell or a container
// runtime gives a process a fatal signal ended (128 plus SIGILL's,
// SIGABRT's, SIGBUS's, SIGFPE's, SIGKILL's and SIGSEGV's numbers on
// Linux).
var goFatalExitStatuses = [...]string{"132", "134", "135", "136", "137", "139"}

// deathVerbs say, before the exit a line quotes, that a process ended.
var deathVerbs = [...]string{"terminated", "exited", "stopped", "died", "crashed", "exit"}

// watchdogOrGoExit reports whether line says a watchdog fired
// (watchdogFired) or quotes a child's fatal exit (goExitFailure): both
// failures at any level, so quiet and signalOf read every line for them.
// Each reader needs its phrase in line ("atchdog " in its head, "signal: "
// or "exit status 13"), which exitCandidates finds first.
func watchdogOrGoExit(line string) bool {
	watchdog, goExit := exitCandidates(line)
	return watchdog && watchdogFired(line) || goExit && goExitFailure(line)
}

// exitCandidates is the byte test of the watchdog and Go exit readers:
// whether line's head (its first watchdogHead bytes) holds "atchdog ", and
// whether line holds "signal: " or "exit status 13". It runs on every
// routine line: one vectorised pass (triples.Index3) finds a triple of each
// phrase, "al:", "hdo" and "xit", which ordinary lines seldom hold, where
// a byte search stops at each of the many 'g's and 'x's of a line; the
// phrase is compared around the triple where one is found. A line shorter
// than the pass reads, or a processor without its instructions, takes
// exitCandidatesByByte.
func exitCandidates(line string) (watchdog, goExit bool) {
	if !triples.Vector || len(line) < triples.MinLen {
		return exitCandidatesByByte(line)
	}
	var x exitHits
	for from := 0; ; {
		j := triples.Index3(line, from, exitTriples)
		if j < 0 {
			return x.watchdog, x.goExit
		}
		from = j + 1
		x.hit(line, j)
		if x.done(from) {
			return x.watchdog, true
		}
	}
}

// exitHits is what exitCandidates has found of its phrases so far.
type exitHits struct{ watchdog, goExit bool }

// hit compares the phrase around the triple of exitTriples at j of line.
func (x *exitHits) hit(line string, j int) {
	switch line[j] {
	case 'a': // "al:" of "signal: "
		x.goExit = x.goExit || j >= 4 && j+4 <= len(line) && line[j-4:j+4] == "signal: "
	case 'h': // "hdo" of "atchdog "
		x.watchdog = x.watchdog || j >= 3 && j+5 <= min(len(line), watchdogHead) && line[j-3:j+5] == "atchdog "
	case 'x': // "xit" of "exit status 13"
		x.goExit = x.goExit || j >= 1 && j+13 <= len(line) && line[j-1:j+13] == "exit status 13"
	}
}

// done reports whether a search resuming at from can change nothing: a Go
// exit is found, and a watchdog too or from is past the head.
func (x *exitHits) done(from int) bool {
	return x.goExit && (x.watchdog || from+5 > watchdogHead)
}

// exitTriples are the triples exitCandidates searches: "al:" of "signal:
// ", "hdo" of "atchdog " and "xit" of "exit status 13".
var exitTriples = triples.Of("al:", "hdo", "xit")

// exitCandidatesByByte is exitCandidates by byte searches, for any line:
// the first two phrases share a 'g', a byte rarer in log lines than their
// first ones, so one search of line's 'g's serves both, each phrase
// compared as one 8-byte word around each 'g'; "exit status 13" is
// searched by its 'x' only when no "signal: " was found.
func exitCandidatesByByte(line string) (watchdog, goExit bool) {
	for from := 0; from < len(line); {
		j := strings.IndexByte(line[from:], 'g')
		if j < 0 {
			break
		}
		g := from + j // the 'g' of "signal: " at g-2, of "atchdog " at g-6
		from = g + 1
		if !goExit && g >= 2 && g+6 <= len(line) && line[g-2:g+6] == "signal: " {
			goExit = true
		}
		if !watchdog && g >= 6 && g+2 <= min(len(line), watchdogHead) && line[g-6:g+2] == "atchdog " {
			watchdog = true
		}
		if goExit && (watchdog || g+2 >= watchdogHead) {
			return watchdog, true
		}
	}
	return watchdog, goExit || ascii.IndexByRare(line, "exit status 13", 1) >= 0
}

// goExitFailure reports whether line quotes a child's fatal end as Go's
// os/exec reports it after words that say something failed or ended (see
// above).
func goExitFailure(line string) bool {
	at := goFatalExitAt(line)
	if at < 0 {
		return false
	}
	words := goErrorField(line[:at])
	return failureVerb(words) || goDeathVerb(words)
}

// goErrorField returns s, a line's words before the exit it quotes,
// without the structured logger's field name that holds the exit
// (error="..., err=...): the field's name says where the exit is, not
// that something failed, and a line cut from its message holds no more.
func goErrorField(s string) string {
	t := strings.TrimSuffix(s, `\"`)
	t = strings.TrimSuffix(t, `"`)
	for _, k := range [...]string{"error=", "err="} {
		if r, ok := strings.CutSuffix(t, k); ok && (r == "" || r[len(r)-1] == ' ') {
			return r
		}
	}
	return s
}

// goFatalExitAt returns where the first fatal "signal: <name>" or "exit
// status <code>" of line opens; -1 when there is none.
func goFatalExitAt(line string) int {
	if at := wordFollowedBy(line, "signal: ", 2, func(rest string) bool {
		return goFatalSignalName(rest) != ""
	}); at >= 0 {
		return at
	}
	return wordFollowedBy(line, "exit status ", 1, func(rest string) bool {
		for _, c := range goFatalExitStatuses {
			if r, ok := strings.CutPrefix(rest, c); ok && (r == "" || !isAlnum(r[0])) {
				return true
			}
		}
		return false
	})
}

// wordFollowedBy returns where the first occurrence of word in line opens
// that starts a word (no letter or digit before it) and whose rest, the
// text after it, satisfies ok; -1 when there is none. word is searched by
// its byte at rare (ascii.IndexByRare), one rarer in log lines than its
// first: every routine line is read.
func wordFollowedBy(line, word string, rare int, ok func(rest string) bool) int {
	for from := 0; from < len(line); {
		i := ascii.IndexByRare(line[from:], word, rare)
		if i < 0 {
			return -1
		}
		at := from + i
		from = at + len(word)
		if at > 0 && isAlnum(line[at-1]) {
			continue
		}
		if ok(line[from:]) {
			return at
		}
	}
	return -1
}

// goFatalSignalName returns the fatal signal's name rest opens with,
// whole (not the start of a longer word), "" when it opens with none.
func goFatalSignalName(rest string) string {
	for _, n := range goFatalSignals {
		if r, ok := strings.CutPrefix(rest, n); ok && (r == "" || !isAlnum(r[0])) {
			return n
		}
	}
	return ""
}

// goDeathVerb reports whether s, a line's words before the exit it
// quotes, says a process ended.
func goDeathVerb(s string) bool {
	return containsAnyOf(s, deathVerbs[:])
}

// goExitKilled reports whether m, a lower-cased message that quotes a
// fatal exit (goExitFailure), names SIGKILL: the kernel's OOM killer, a
// memory limit or an operator ended the process, not its own fault.
func goExitKilled(m string) bool {
	at := goFatalExitAt(m)
	if at < 0 {
		return false
	}
	r := m[at:]
	return strings.HasPrefix(r, "signal: killed") || strings.HasPrefix(r, "exit status 137")
}
