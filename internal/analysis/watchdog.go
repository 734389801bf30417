package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Watchdogs. A serving engine's watchdog thread checks that its loop
// makes progress and, when it has not for the configured time, says so in
// one line before it dumps the stuck threads and, unless it is a soft
// watchdog, kills the process: sglang's scheduler watchdog ("Watchdog
// timeout (self.watchdog_timeout=300)" in its first releases, "Scheduler
// watchdog timeout (self.watchdog_timeout=300, self.soft=False)" and the
// detokenizer's and tokenizer manager's twins since the watchdog became
// its own class), and the plain "Watchdog timeout" or "watchdog timed
// out" a Python or C++ program logs from a timer thread. A watchdog that
// fired is a hang whatever level the line carries (sglang's format prints
// none): the work it watches stopped. Its settings are not ("watchdog
// timeout set to 300", "Watchdog timeout: 300s", "--watchdog-timeout
// 300", "watchdog_timeout=300" in a list of arguments): a firing is the
// words at the end of the line, or the timeout's value printed as a
// Python self-documenting expression inside the parentheses sglang puts
// after them.

// watchdogHead bounds where a watchdog's line names it: at most a
// component's name before "watchdog", so the search stays a short scan on
// every line.
const watchdogHead = 48

// watchdogFired reports whether line says a watchdog fired (see above).
func watchdogFired(line string) bool {
	head := line
	if len(head) > watchdogHead {
		head = head[:watchdogHead]
	}
	i := ascii.IndexByRare(head, "atchdog ", len("atchdo"))
	if i < 1 || line[i-1] != 'W' && line[i-1] != 'w' || !watchdogName(line[:i-1]) {
		return false
	}
	rest := line[i+len("atchdog "):]
	if r, ok := strings.CutPrefix(rest, "timed out"); ok {
		return watchdogEnd(r) || strings.HasPrefix(r, " after ")
	}
	r, ok := strings.CutPrefix(rest, "timeout")
	if !ok {
		return false
	}
	if watchdogEnd(r) {
		return true
	}
	p, ok := strings.CutPrefix(r, " (")
	if !ok {
		return false
	}
	p = strings.TrimPrefix(p, "self.")
	return strings.HasPrefix(p, "watchdog_timeout=") || strings.HasPrefix(p, "timeout=")
}

// watchdogName reports whether s, what a line holds before "watchdog", is
// nothing or the name of what the watchdog watches: one word of letters,
// digits and underscores and the space after it ("Scheduler ",
// "DetokenizerManager ").
func watchdogName(s string) bool {
	if s == "" {
		return true
	}
	w, ok := strings.CutSuffix(s, " ")
	if !ok || w == "" {
		return false
	}
	for j := 0; j < len(w); j++ {
		if c := w[j]; c != '_' && !isAlnum(c) {
			return false
		}
	}
	return true
}

// watchdogEnd reports whether r, what follows a watchdog's "timeout" or
// "timed out", ends the report: nothing, or punctuation that closes it
// ("!", ".", ", dumping ...", "; killing ...").
func watchdogEnd(r string) bool {
	r = strings.TrimRight(r, " \r")
	return r == "" || r[0] == '!' || r[0] == '.' && (len(r) == 1 || r[1] == ' ') || r[0] == ',' || r[0] == ';'
}
