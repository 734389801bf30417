// Package analysis is logmatch's one analysis core: it turns an assembled
// log entry into a Diagnosis, the answer to "what failed here, and what
// does an operator need to know about it". scan, run and the OpenTelemetry
// Collector processor all call it, so one entry means the same thing in
// every mode.
//
// A diagnosis is a cause plus its context:
//
//   - The cause is the failure that matters: the record hit that names it,
//     or, when no record does, the entry's own failure signal (its final
//     exception with the chained root cause kept, or the root itself when
//     the final exception only says that something failed (rootlead.go),
//     an ERROR or CRITICAL record of any common logging format, a native
//     error line, a program's "prog: error: ..." diagnostic, or a line
//     whose words take a level's place: a level token or error word
//     first, a tool's summary of a failed step, a routine line's report of
//     another component's abnormal death; signal.go).
//   - The context is the wrapper around it: records with role "wrapper"
//     ("Scheduler hit an exception", "Exception in ASGI application", ...)
//     say which process died and what it was doing, never why.
//
// The cause decides the alert's record, headline, severity and grouping
// key, so two different failures inside one wrapper are two incidents. A
// header only a consequence record names ("Error in chat completion
// stream generator.") logged with a traceback is read the same way: the
// exception it carries, no record naming it, names the failure, and the
// entry stays a consequence (of the engine's death its request ran into,
// when that is in sight).
//
// When several records match the same text (the same lines of the entry),
// the best-informed one wins: a record with solutions is never displaced by
// one without (a catalog generated from source code), so loading more
// records can only add information. Across different lines, causes come
// before consequences and consequences before wrappers, informed before
// uninformed, a shared library that did not load before the import
// failures it causes, then the matcher's own ranking (exception class,
// literal length, catalog order).
//
// A failure no record names, or only a wrapper does, still gets a Triage:
// the process, the phase it died in, the family of failure and the
// component, read from its frames and exception (triage.go, family.go),
// and the one concrete thing its message names, a path, a model id, a
// module or a flag, taken only as a short token of a safe alphabet
// (subject.go), so that its alert can say what an operator would. A thread dump with no error line
// (py-spy, faulthandler's without a current thread, the watchdog's batch
// dump) is a hang (hang.go); faulthandler's current thread, its frame
// lines or its extension-module list without the fatal error's line are
// a native crash's fragments (faultframes.go);
// a traceback that lost its exception line is a Fragment, and so are a
// traceback's own frames with their source lines when both its header and
// its exception line are lost (framesAlone): a consequence, which a failure
// near it leads. So is an exception that only carries another's (a
// pool's RemoteTraceback, Ray's "RayTaskError(X)") or only says where a
// native library reported its error ("HCCL error in: x.cpp:64"): the
// carried failure, the library's own lines, lead; asyncio's report of an
// exception no one retrieved is read as the exception its future's repr
// names. A shell's report of a signal death is a kill (SIGKILL) or a
// native crash (the crash signals), in any language (signal.go). A
// line that only points at an error is a Fragment with a consequence's
// role too (piece.go): a traceback's frame, source or caret line that a
// logger wrote as a record of its own at the failure's level, and a line
// announcing the error printed after it (Ray's "Possible unhandled error
// from worker", concurrent.futures' "exception calling callback for",
// a label such as "Caught exception:"); the exception line printed alone
// right after such lines ends their traceback (Split), a failure rather
// than a lone generic line. torch elastic's failure summary without its
// header (a rank's "exitcode  : 1 (pid: N)" field) is the launcher's
// report that a worker failed, under the catalog's record of that report
// (summary.go).
//
// The package is pure: no I/O, no goroutines, no clock.
package analysis
