package analysis

import (
	"regexp"
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// An exception whose class is a library's own and is the errorClass of
// exactly one record names that record's failure, whatever its message
// says or wherever the message was cut: torch's OutOfMemoryError is CUDA
// out of memory, huggingface_hub's GatedRepoError a gated repo. A wrapper
// that names the class it wraps ("ray.exceptions.RayTaskError(
// OutOfMemoryError)") names it too. Python's built-in classes name no
// failure of their own, and a class several records share names none of
// them, and neither does a library's base class, named after its package
// ("openai_harmony.HarmonyError", "zmq.error.ZMQError"): every failure of
// that library raises it, whatever one record of it is about, nor a
// validation library's class that every model of its users raises.

// classRecord returns the one record whose errorClass is typ's class (the
// class a wrapper names), nil when there is none, several, or typ is a
// built-in class. The records are looked up once per Analyzer.
func (a *Analyzer) classRecord(typ string, e *entry.Entry) *patterns.Record {
	cls := lastDotted(wrappedType(typ))
	if cls == "" || entry.BuiltinException(cls) || libraryBaseClass(wrappedType(typ)) || anyModelClass(cls) || anyStatusClass(cls) || anyBackendClass(cls) {
		return nil
	}
	if a.classRecs == nil {
		a.classRecs = map[string]*patterns.Record{}
		recs := a.m.Matcher().Records()
		for i := range recs {
			r := &recs[i]
			c := lastDotted(r.ErrorClass)
			if c == "" || entry.BuiltinException(c) || libraryBaseClass(r.ErrorClass) || anyModelClass(c) || !r.Role.Is(patterns.RoleCause) && r.Role != "" || len(r.Solutions) == 0 ||
				r.Severity == patterns.SeverityInfo {
				continue
			}
			if _, seen := a.classRecs[c]; seen {
				a.classRecs[c] = nil // shared: names none of them
				continue
			}
			a.classRecs[c] = r
		}
	}
	r := a.classRecs[cls]
	if r == nil || !r.ForEngine(a.entryEngine(e)) || !samePackage(wrappedType(typ), r) {
		return nil
	}
	return r
}

// samePackage reports whether the dotted class name typ, as a line wrote
// it, can be rec's class: one class name is raised by several libraries
// (openai's and NATS's ServiceUnavailableError, httpx's and another
// client's RequestError, subprocess's CalledProcessError for every
// command that fails), so a line that names its class's package names
// rec's only when rec's errorClass is of the same top-level package or,
// when that errorClass names no package, when rec's slug or tags name the
// line's ("subprocess" is no tag of a Triton build record). A line
// without a package says nothing against it.
func samePackage(typ string, rec *patterns.Record) bool {
	dot := strings.IndexByte(typ, '.')
	if dot <= 0 {
		return true
	}
	pkg := typ[:dot]
	if i := strings.IndexByte(rec.ErrorClass, '.'); i > 0 {
		return rec.ErrorClass[:i] == pkg
	}
	name := strings.ReplaceAll(pkg, "_", "-")
	if strings.Contains(rec.Slug, name) {
		return true
	}
	for _, t := range rec.Tags {
		if t == pkg || t == name {
			return true
		}
	}
	return false
}

// anyModelClass reports whether cls is the class a validation library
// raises for every model its users define: pydantic's, marshmallow's and
// jsonschema's ValidationError say that some object failed its schema
// (a request, the engine's own config, a tool call's arguments), never
// which; the message names the model.
func anyModelClass(cls string) bool {
	return cls == "ValidationError"
}

// anyBackendClass reports whether cls is the class torch.distributed
// raises for every error a collective backend reports: DistBackendError
// carries NCCL's unhandled system and cuda errors, its remote errors and
// its store exchanges alike, so it says that NCCL (or Gloo) failed, never
// which failure; the message and NCCL's 'Last error:' line do.
func anyBackendClass(cls string) bool {
	return cls == "DistBackendError"
}

// anyStatusClass reports whether cls is the class an HTTP client raises for
// every status it refuses: requests' HTTPError, huggingface_hub's
// HfHubHTTPError and httpx's HTTPStatusError say only that a request got
// a 4xx or 5xx answer, never which failure; the status in the message
// does (a record about 429 or 401 reads it there).
func anyStatusClass(cls string) bool {
	switch cls {
	case "HTTPError", "HfHubHTTPError", "HTTPStatusError":
		return true
	}
	return false
}

// minBaseStem is the shortest name a library base class's stem must have
// to be read in its package's path ("Ray" in "ray.exceptions").
const minBaseStem = 3

// libraryBaseClass reports whether the dotted class name typ is its
// library's base class: the class's name, "Error" or "Exception" taken
// off, is part of its package's path, case and underscores aside
// ("openai_harmony.HarmonyError", "ray.exceptions.RayError",
// "zmq.error.ZMQError"). A class without its package says nothing.
func libraryBaseClass(typ string) bool {
	dot := strings.LastIndexByte(typ, '.')
	if dot <= 0 {
		return false
	}
	cls := typ[dot+1:]
	stem := strings.TrimSuffix(strings.TrimSuffix(cls, "Error"), "Exception")
	if len(stem) < minBaseStem || stem == cls {
		return false
	}
	path := strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(typ[:dot], "_", ""), ".", ""))
	return strings.Contains(path, strings.ToLower(stem))
}

// leadWithClassRecord makes the record of d's exception class the cause
// of d, an unclassified exception.
func (a *Analyzer) leadWithClassRecord(d *Diagnosis, e *entry.Entry) {
	x := d.Exception
	if d.Cause != nil || x == nil || x.Type == "" {
		return
	}
	rec := a.classRecord(x.Type, e)
	if rec == nil {
		return
	}
	line := FirstLine(ExceptionLine(x))
	start := strings.Index(e.Text, line)
	if start < 0 {
		start = 0
	}
	leadWithRecord(d, rec, start, line)
}

// A traceback cut right after its last frame's source line, when that
// line is a raise statement ("raise OutOfResources(self.metadata.shared,
// ...)"), still says what was raised: the class in the statement. The
// process was killed or the paste cut while the exception line was being
// written. When that class names one record (classRecord), the record
// leads; the raise statement is the line it stands on.

// raiseRE finds a raise statement of a named class in a frame's source
// line: "raise Name(" or "raise pkg.mod.Name(".
var raiseRE = regexp.MustCompile(`(?:^|[\s:>|\]])raise\s+((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s*\(`)

// cutAtRaise returns the class a cut traceback's last line raises and
// that line, or "" when e's traceback is not cut or its last line is not
// a raise statement of a named class.
func cutAtRaise(e *entry.Entry) (class, line string) {
	if !cutTraceback(e) {
		return "", ""
	}
	text := strings.TrimRight(e.Text, " \t\r\n")
	last := text[strings.LastIndexByte(text, '\n')+1:]
	m := raiseRE.FindStringSubmatch(last)
	if m == nil {
		return "", ""
	}
	return m[1], strings.TrimSpace(last)
}

// leadWithRaisedClass makes the record of the class a cut traceback was
// raising the cause of d, a fragment no record matched.
func (a *Analyzer) leadWithRaisedClass(d *Diagnosis, e *entry.Entry) {
	if d.Cause != nil || !d.Fragment {
		return
	}
	class, line := cutAtRaise(e)
	if class == "" {
		return
	}
	rec := a.classRecord(class, e)
	if rec == nil {
		return
	}
	start := strings.LastIndex(e.Text, line)
	if start < 0 {
		start = 0
	}
	leadWithRecord(d, rec, start, line)
}

// leadWithRecord makes rec the cause of d, standing on line, which
// starts at start in the entry's text.
func leadWithRecord(d *Diagnosis, rec *patterns.Record, start int, line string) {
	d.Cause = &matcher.Hit{Record: rec, Start: start, End: start + len(line), Line: line}
	d.Role = patterns.RoleCause
	d.Signal = SignalRecord
	d.Key = rec.ID
	d.Headline = line
	d.Severity = maxSeverity(d.Severity, rec.Severity)
	d.Fragment = false
	d.Triage = Triage{}
}
