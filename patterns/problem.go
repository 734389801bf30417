package patterns

import (
	"fmt"
	"strconv"
	"strings"
)

// Level says whether a Problem keeps a record out of the catalog.
type Level int

// The levels. The zero Level is LevelError, so a Problem built without a
// level is never mistaken for a harmless one.
const (
	// LevelError: the record (or line) was skipped, or the catalog has a
	// defect that will misbehave at match time (duplicate id, a pattern that
	// backtracks past its timeout).
	LevelError Level = iota
	// LevelWarning: the record was loaded, but something about it is
	// suspicious or was replaced by a default.
	LevelWarning
)

// String returns "error" or "warning".
func (l Level) String() string {
	switch l {
	case LevelError:
		return "error"
	case LevelWarning:
		return "warning"
	}
	return "level(" + strconv.Itoa(int(l)) + ")"
}

// Problem is one thing wrong with a catalog file, line or record. Loading and
// linting report problems instead of failing, so one bad line never hides
// the others.
type Problem struct {
	File  string // file name as given to Parse or found by Load; "embedded:<name>" for Default
	Line  int    // 1-based line; 0 when the problem concerns a whole file
	Field string // JSON field ("severity", "messagePattern"); empty when not about one field
	Level Level
	// Message says what is wrong, lower-case, without the place.
	Message string
	// Err is the underlying error, when there is one (an I/O error, a regex
	// compile error); Unwrap returns it so errors.Is works on problems.
	Err error
}

// Error renders the problem as "file:line: field: message", leaving out the
// line when it is 0 and the field when it is empty.
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(p.Line))
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (p Problem) Unwrap() error { return p.Err }

// Summary counts a load or lint result, for a one-line report.
type Summary struct {
	Records  int // records loaded
	Errors   int // problems at LevelError
	Warnings int // problems at LevelWarning
}

// Summarize counts records and problems by level.
func Summarize(recs []Record, problems []Problem) Summary {
	s := Summary{Records: len(recs)}
	for _, p := range problems {
		if p.Level == LevelWarning {
			s.Warnings++
		} else {
			s.Errors++
		}
	}
	return s
}

// String renders the summary as "5695 records, 0 errors, 2 warnings".
func (s Summary) String() string {
	return fmt.Sprintf("%d %s, %d %s, %d %s",
		s.Records, plural(s.Records, "record"),
		s.Errors, plural(s.Errors, "error"),
		s.Warnings, plural(s.Warnings, "warning"))
}

// OK reports whether there are no error-level problems.
func (s Summary) OK() bool { return s.Errors == 0 }

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
