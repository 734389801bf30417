package incident

import (
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// What leads a crash. A crash is one burst of failure signals from one
// scope: a cause, the mechanism it failed through, the consequences other
// processes report, the wrappers that announce a death. Every rule that
// picks one incident of a burst over another (the root cause a
// consequence folds into, the cause a lone wrapper is context of) ranks
// the candidates by one order of classes, read from what the record and
// the diagnosis say about the signal, never from which record it is:
//
//	cause        a record of role cause that says what to do (namedCause)
//	failure      the failure's own diagnosis without such a record: an
//	             exception with its type, a native error line, a drafted
//	             record without solutions
//	generic      a line that only says something failed: an ERROR line or
//	             a lone exception line no record names, a native warning
//	fragment     a traceback cut before its exception line: where it died,
//	             not why
//	consequence  what follows a failure elsewhere: a relayed signal, a
//	             peer's watchdog timeout, a killed process, a dead child
//	             seen by its launcher, a router's 5xx
//	wrapper      a generic wrapper with nothing inside ("Scheduler hit an
//	             exception:" whose traceback was cut)
//
// Within a class the earlier signal leads: where the crash began. The
// rules keep their own limits on what is one burst (the settle time, the
// correlation window, the bytes between two signals of one source); the
// order only decides among the signals of one burst.
type leadClass int

const (
	classCause leadClass = iota
	classFailure
	classGeneric
	classFragment
	classConsequence
	classWrapper
)

var leadClassNames = [...]string{"cause", "failure", "generic", "fragment", "consequence", "wrapper"}

func (c leadClass) String() string { return leadClassNames[c] }

// classOf is the class of the incident gr.
func classOf(gr *group) leadClass {
	switch {
	case gr.Consequence:
		return classConsequence
	case gr.Fragment:
		return classFragment
	case gr.Alert.Record.Role == string(patterns.RoleWrapper):
		return classWrapper
	case gr.Generic:
		return classGeneric
	case namedCause(gr):
		return classCause
	}
	return classFailure
}

// leads reports whether a leads a burst rather than b: the better class,
// then the earlier, then the first created.
func leads(a, b *group) bool {
	if ca, cb := classOf(a), classOf(b); ca != cb {
		return ca < cb
	}
	return a.beganBefore(b)
}

// rootClass is the class a root cause candidate ranks by: a classified
// cause counts as one only when it is error or worse (a warning is a risk
// the server lives with, unless it was raised just before the death; see
// raisedJustBefore), else it is ranked with the failures.
func rootClass(gr *group) leadClass {
	c := classOf(gr)
	if c == classCause && sinks.SeverityRank(gr.Alert.Record.Severity) < sinks.SeverityRank("error") {
		return classFailure
	}
	return c
}
