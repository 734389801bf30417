package analysis

import "strings"

// A library's routine line (INFO, DEBUG) that reports another component's
// death or failure state is routine unless its words say the death was not
// the ordinary end of that component: Ray's core worker logs every actor it
// hears is DEAD at INFO, a killed or finished actor as well as one whose
// creation task raised ("state: DEAD, ... has creation_task_exception=1");
// supervisord logs every exit at INFO, an expected one as well as one
// that was not ("exited: server (exit status 1; not expected)"); torch's
// elastic agent logs its worker group's states at INFO, FAILED among them
// ("[default] Worker group FAILED."). Only a death whose words say it was
// abnormal is a failure: a consequence, of what the dead component's own
// log says. Only the message before its first quote is read: quoted text
// is what the line echoes (a request, a model's output), not its report.

// deathReport reports whether msg, a routine line's message, reports a
// FAILED state, or a component's death (deathWord) with a word that says
// it was abnormal (abnormalDeath).
func deathReport(msg string) bool {
	if i := strings.IndexAny(msg, `'"`); i >= 0 {
		msg = msg[:i]
	}
	return stateWord(msg, "FAILED") || (stateWord(msg, "DEAD") || deathWord(msg)) && abnormalDeath(msg)
}

// deathState reports whether msg may hold what deathReport reads: one
// scan for the words' rarest common bytes on most routine lines.
func deathState(msg string) bool {
	for _, w := range [...]string{"DEAD", "FAILED", "died", "exited", "crashed"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// stateWord reports whether msg names the upper-case state w as a state
// machine prints it: after "state: ", "state=", "status: ", "status=",
// " group " or a transition's " to " or "-> ".
func stateWord(msg, w string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], w)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(w)
		if end == len(msg) || !isAlnum(msg[end]) {
			before := msg[:at]
			for _, p := range [...]string{"state: ", "state=", "status: ", "status=", " group ", " to ", "-> "} {
				if strings.HasSuffix(before, p) {
					return true
				}
			}
		}
		i = end
	}
}

// deathWord reports whether msg says something died or exited.
func deathWord(msg string) bool {
	for _, w := range [...]string{" died", " exited", "exited:", " crashed"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// abnormalDeath reports whether msg says the death it reports was not the
// ordinary end: an exception flag set ("creation_task_exception=1"), "not
// expected", "unexpectedly", "abnormally", "by an unexpected system error"
// (Ray's raylet about a worker).
func abnormalDeath(msg string) bool {
	if i := strings.Index(msg, "exception="); i >= 0 {
		r := msg[i+len("exception="):]
		if r != "" && r[0] >= '1' && r[0] <= '9' || strings.HasPrefix(r, "True") || strings.HasPrefix(r, "true") {
			return true
		}
	}
	for _, w := range [...]string{"not expected", "unexpectedly", "abnormally", "unexpected error", "unexpected system error"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// levelLessDeathReport reports whether l, a line with no level, reports
// a component's abnormal death (deathReport): Ray's raylet behind a relay
// label that hides its level ("(raylet) A worker died or was killed while
// executing a task by an unexpected system error"), an exception line's
// message a relay cut from its type ("The actor died unexpectedly before
// finishing this task"), a supervisor's "exited unexpectedly". Only the
// abnormal words with an 'x' are read ("expected", "exception=", and
// "exited" with "abnormally"): that byte, the one exceptionQuoteCandidate
// looks for, is looked for first, once for both on every level-less line.
func levelLessDeathReport(l string) bool {
	return exceptionQuoteCandidate(l) && deathReport(l)
}
