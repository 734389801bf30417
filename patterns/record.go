package patterns

import (
	"encoding/json"
	"fmt"

	"github.com/dlclark/regexp2/v2/syntax"
)

// Record is one error record of the catalog, schema version 2. JSON names
// follow the dataset exactly; optional fields may be null or missing, and
// fields logmatch does not know are ignored.
type Record struct {
	// The fields matching and alerting read of every record a line hits
	// come first, side by side: an error line's records are ones the
	// lines before it did not touch, and spread over the record they
	// were a cache miss each.
	ID string `json:"id"`

	// Role says what a hit of this record means for the entry it is in
	// (logmatch's own field; see Role). Empty means RoleCause.
	Role Role `json:"role,omitempty"`

	Severity Severity `json:"severity,omitempty"`

	// Engines, when set, are the only engines whose logs print the
	// record's message: a hit on a log of another known engine is not
	// this failure and is dropped (see ForEngine). Empty means every
	// engine (a shared layer: torch, CUDA, NCCL, Hugging Face).
	Engines []string `json:"engines,omitempty"`

	Tags      []string `json:"tags,omitempty"`
	Solutions []string `json:"solutions,omitempty"`

	// Fatal marks a failure after which the server process is alive but
	// cannot serve (a lost CUDA context, an aborted communicator, a hung
	// scheduler): the failures logmatch's liveness gate acts on. Records
	// of failures the server survives leave it false.
	Fatal bool `json:"fatal,omitempty"`

	ErrorClass string `json:"errorClass,omitempty"`
	Slug       string `json:"slug,omitempty"`

	// Remedies are the steps that fix the failure on one serving engine,
	// keyed by engine name (sglang, vllm, tgi, trtllm, triton, lmdeploy,
	// ollama, llamacpp). Solutions then hold only the steps that work
	// whatever the engine: an alert lists Solutions followed by the
	// remedies of the engine that wrote the log (see SolutionsFor).
	Remedies map[string][]string `json:"remedies,omitempty"`

	Repo             string          `json:"repo,omitempty"`
	ErrorCode        json.RawMessage `json:"errorCode,omitempty"`
	ErrorMessage     string          `json:"errorMessage,omitempty"`
	MessagePattern   string          `json:"messagePattern"`
	ErrorType        string          `json:"errorType,omitempty"`
	HTTPStatus       *int            `json:"httpStatus,omitempty"`
	FilePath         string          `json:"filePath,omitempty"`
	LineNumber       int             `json:"lineNumber,omitempty"`
	SourceCode       string          `json:"sourceCode,omitempty"`
	SourceCodeStart  *int            `json:"sourceCodeStart,omitempty"`
	SourceCodeEnd    *int            `json:"sourceCodeEnd,omitempty"`
	GithubURL        string          `json:"githubUrl,omitempty"`
	Documentation    string          `json:"documentation,omitempty"`
	TriggerScenarios string          `json:"triggerScenarios,omitempty"`
	CommonSituations string          `json:"commonSituations,omitempty"`
	ExampleFix       string          `json:"exampleFix,omitempty"`
	HandlingStrategy string          `json:"handlingStrategy,omitempty"`
	ValidationCode   string          `json:"validationCode,omitempty"`
	TypeGuard        string          `json:"typeGuard,omitempty"`
	TryCatchPattern  string          `json:"tryCatchPattern,omitempty"`
	PreventionTips   []string        `json:"preventionTips,omitempty"`
	BackgroundTag    string          `json:"backgroundTag,omitempty"`
	AnalyzedSha      string          `json:"analyzedSha,omitempty"`
	AnalyzedAt       string          `json:"analyzedAt,omitempty"`
	SchemaVersion    int             `json:"schemaVersion,omitempty"`

	// IntroducedIn is the first release of the record's repo (an sglang
	// version such as "0.5.4") that prints its message; empty means it
	// is not known, and the record applies to every version before
	// RemovedIn. See AppliesTo.
	IntroducedIn string `json:"introducedIn,omitempty"`

	// RemovedIn is the first release that no longer prints it; empty
	// means the record's source still does. A record with RemovedIn
	// stays in the catalog for the servers that run older versions.
	RemovedIn string `json:"removedIn,omitempty"`

	// DatasetVersion is the wrapper's datasetVersion, when the line had one.
	DatasetVersion string `json:"-"`
	// Origin is where the record was read from.
	Origin Origin `json:"-"`

	// parse is the parse Parse validated MessagePattern with, kept for
	// the one consumer that needs the tree (see PatternTree) so the
	// pattern is not parsed a second time.
	parse *parsedPattern
}

// parsedPattern is a parse tree and the pattern it was parsed from.
type parsedPattern struct {
	expr string
	tree *syntax.RegexTree
}

// PatternTree returns the parse tree of r.MessagePattern, as ParseTree
// would. A record made by Parse keeps the tree its pattern was validated
// with: the first call hands that tree over and the record forgets it, so
// the record no longer holds its memory; later calls, records built by
// hand and records whose MessagePattern changed since, parse again. Copies of
// a record made before the call share the kept tree. Nothing that reads the
// tree may change it.
func (r *Record) PatternTree() (*syntax.RegexTree, error) {
	if p := r.parse; p != nil {
		r.parse = nil
		if p.expr == r.MessagePattern {
			return p.tree, nil
		}
	}
	return parseTree(r.MessagePattern)
}

// Origin names the place a record was loaded from.
type Origin struct {
	File string // path, or "embedded:<name>" for the built-in catalog
	Line int    // 1-based line of the record's first byte
}

func (o Origin) String() string {
	if o.Line <= 0 {
		return o.File
	}
	return fmt.Sprintf("%s:%d", o.File, o.Line)
}

// Role is what a record's hit says about an entry.
type Role string

// The roles. A catalog that says nothing has only causes.
const (
	// RoleCause records name a failure itself: the exception or error
	// line that tells what went wrong. The default.
	RoleCause Role = "cause"
	// RoleWrapper records name a generic wrapper that carries another
	// failure inside it ("Scheduler hit an exception: <traceback>",
	// "Exception in ASGI application"): context, not a diagnosis. When
	// the same entry holds a cause, the cause decides the alert and the
	// wrapper is shown as its context; a wrapper decides the alert only
	// when nothing else in the entry says what failed.
	RoleWrapper Role = "wrapper"
	// RoleConsequence records name what follows a failure elsewhere: a
	// signal relayed to the parent, a peer rank's collective timeout, a
	// killed process, a failed health check. They are folded into the
	// root-cause incident when one is visible, and alerted on their own
	// only when none is.
	RoleConsequence Role = "consequence"
	// RoleEcho records mark where a server starts echoing text that is not
	// its own: the request and response dumps of sglang's --log-requests,
	// vLLM's "Received request ... prompt:" lines. From the start of an
	// echo hit to the end of its line, nothing counts: no other record's
	// hit there is kept, and the echo hit itself never alerts. A prompt
	// that quotes "CUDA error: an illegal memory access" is a user's text,
	// not the server's failure. Echo patterns should be anchored at the
	// start of the message (^) so that no user text can open a zone inside
	// a real error line; the servers escape newlines in what they echo, so
	// a zone never needs to reach past its line.
	RoleEcho Role = "echo"
)

// Is reports whether r is role; the empty role is RoleCause.
func (r Role) Is(role Role) bool {
	if r == "" {
		r = RoleCause
	}
	return r == role
}

// ParseRole accepts the role names, case-insensitively; "" is RoleCause.
func ParseRole(s string) (Role, error) {
	switch lower(s) {
	case "", "cause":
		return RoleCause, nil
	case "wrapper", "context":
		return RoleWrapper, nil
	case "consequence":
		return RoleConsequence, nil
	case "echo":
		return RoleEcho, nil
	}
	return "", fmt.Errorf("unknown role %q (want cause, wrapper, consequence or echo)", s)
}

// Severity is a record's severity: critical, error, warning or info.
type Severity string

// The severities, lowest to highest.
const (
	SeverityInfo     Severity = "info"
	SeverityWarning  Severity = "warning"
	SeverityError    Severity = "error"
	SeverityCritical Severity = "critical"
)

// Rank orders severities: info 1, warning 2, error 3, critical 4; anything
// else is 0 and sorts below info.
func (s Severity) Rank() int {
	switch s {
	case SeverityInfo:
		return 1
	case SeverityWarning:
		return 2
	case SeverityError:
		return 3
	case SeverityCritical:
		return 4
	}
	return 0
}

// ParseSeverity accepts the four severity names (and "warn", "crit"),
// case-insensitively.
func ParseSeverity(s string) (Severity, error) {
	switch lower(s) {
	case "info":
		return SeverityInfo, nil
	case "warning", "warn":
		return SeverityWarning, nil
	case "error":
		return SeverityError, nil
	case "critical", "crit":
		return SeverityCritical, nil
	}
	return "", fmt.Errorf("unknown severity %q (want info, warning, error or critical)", s)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// SolutionsFor returns the steps an alert on a log of engine lists: the
// engine-neutral Solutions followed by the engine's Remedies. For an
// unknown engine ("") it is Solutions alone. The result may share
// memory with the record; callers must not modify it.
func (r *Record) SolutionsFor(engine string) []string {
	rem := r.Remedies[engine]
	if engine == "" || len(rem) == 0 {
		return r.Solutions
	}
	if len(r.Solutions) == 0 {
		return rem
	}
	out := make([]string, 0, len(r.Solutions)+len(rem))
	out = append(out, r.Solutions...)
	return append(out, rem...)
}

// ForEngine reports whether the record may describe a line of a log that
// engine wrote: true when the engine is unknown (""), when the record
// names no engines, or when engine is one of them.
func (r *Record) ForEngine(engine string) bool {
	if engine == "" || len(r.Engines) == 0 {
		return true
	}
	for _, e := range r.Engines {
		if e == engine {
			return true
		}
	}
	return false
}
