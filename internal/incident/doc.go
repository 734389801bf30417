// Package incident turns diagnosed entries into incidents and incidents
// into alerts. Occurrences of one cause (a record, or an unclassified
// signature) from one source are grouped within a window, the way
// Alertmanager groups alerts: the first notification waits a short settle
// time so that it carries the whole burst, repeats are counted, a summary
// goes out when the window closes and a reminder after the repeat interval
// while the failure keeps happening.
//
// On top of that, causal folding: an occurrence of a consequence record (a
// signal relayed to the parent, a peer's NCCL watchdog timeout, an exit
// code) on the same pod or node within the correlation window after a root
// cause is listed inside the root cause's incident instead of alerted on
// its own; with no root cause in sight it is alerted alone, after
// Options.ConsequenceWait rather than the settle time (a stalled server
// reports the stall before the timeout that caused it, and that cause,
// read meanwhile, leads; the wait ends early once the source was read too
// far past it for what follows to be its cause). A wrapper alone or a cut
// traceback read seconds after its crash's cause, within that wait and
// with no restart between, joins it too (diedOf), and one printed seconds
// before its cause waits for it as a consequence does (causeAfter).
// Likewise a
// generic error line no record names (an ERROR line, an exception line
// printed alone) yields the lead to the classified cause of its burst: it
// is listed in the cause's incident, unless it was announced before the
// cause arrived (see generic.go). One crash is one incident: the native
// lines of one event, a fragment or a hang's dump beside a failure, the
// shell's report of a death and the consequences of a burst with no cause
// in sight each join the burst's lead (generic.go, fold.go), as does a
// library's next line printed after a wait of its own (c10d's abort
// minutes after its heartbeat monitor's report; generic.go), and so do
// the exceptions a crash raises on its way down (chain.go), the same
// exception raised again by the caller that waited on it (chain.go), the
// generic lines of every call a client makes to a peer it cannot reach
// and one writer's error lines of one burst, the panic that unwrapped the
// error logged just before it, a line or an exception that only says its
// task failed beside the line that says what failed, the imports that fail
// because a shared library did not load, the ranks that each say in their
// own words that one resource ran out, and a peer's broken channel after
// a failure (restate.go), a client's echo of the server's error body
// after the server's own line of it (echo.go) and a program's
// UnboundLocalError after the failure it caught and went on from
// (swallowed.go), the sticky errors of a device that faulted after the
// first report of the fault, a native line or a plain line of no writer
// that no record names among them (fault.go), the code error that names what a
// failed import should have defined (imported.go), and a caller's cut
// traceback after the consequence line it re-raises (fold.go); a wrapper
// that names its component's remedy leads the code error it quotes
// (remedy.go), and so does a wrapper whose own line quotes the failure
// it wraps over a traceback cut before its exception line (fold.go); the
// warning NCCL printed where a call failed leads torch's report of it,
// printed a few lines before it under a per-line header (lastdetail.go);
// and an error a notice says the program went on after is held for a
// failure that follows it and dropped alone (grouper.go); the
// incident takes its exception and time from the whole burst. A native library's chain of located lines that a record calls a
// consequence, with no failure before it, began the crash, and the failure
// its own code reports after it joins it; so does the device crash or
// collective failure a process reports after its interconnect failed
// (lower.go). An engine's refusal of the device it sees (a kernel or device
// type it cannot find) and the platform's failure that hid the device (a
// driver that does not fit, no GPU visible), printed in one source and
// burst in either order, are one crash led by the platform (platform.go).
// A native event is led by its first line when that line says
// what failed and no record names it: a record naming a later line of the
// same library, or the process's death after it, joins it (nativefirst.go);
// NCCL's first WARN line of a chain leads the consequence lines after it,
// and a chain of one process's consequence lines is led by its first
// (fold.go); a library's line that only says its task failed yields to its
// line after it that says why (generic.go), and a wrapper alone is the
// context of the network failure its writer logged just before it
// (fold.go), as is a wrapper alone of the process that logged just before
// it that a named peer died (vLLM's "Worker proc VllmWorker-3 died
// unexpectedly" before "EngineCore encountered a fatal error."; fold.go). A
// fatal signal handler's report that names the function the signal struck
// in leads the same death restated after it without frames of its own
// (faulthandler's "Fatal Python error: Segmentation fault";
// signalsite.go), and a consequence graded a warning joins the classified
// warning printed beside it that says why (a Pending pod's "PodScheduled
// False" row and its FailedScheduling event; fold.go). A process's death
// report never leads over the line that says
// what it died of: C++'s "terminate called after throwing an instance of
// T" yields to the c10d wrapper line that carries the exception, printed
// after it by its logger, and to the what() line interleaved ranks cut
// from it (fold.go); a supervisor's line that says it ended a job and why
// (Slurm's cancel banner for a time limit) leads the launcher's reports of
// the tasks it ended by the signal alone (generic.go); a wrapper record's
// report leads the line after it that, past its error code, only says
// something failed (torch_npu's "ERR01005 OPS internal error" after CANN's
// report of the failed call; fold.go). Which signal
// of a burst leads follows one documented order of classes (cause,
// failure, generic line, fragment, consequence, wrapper; rank.go), read
// from the record's role and the diagnosis, never from which record it is.
// A consequence whose time was borrowed from a line before it (an undated
// "Killed", a launcher's traceback under another writer's header) may have
// been printed before its cause and still folds into it, and a glog line's
// guessed year is corrected by its scope's first full timestamp. Ranks are read
// from what entries say about themselves (RankOf) and rendered compactly by
// the sinks.
//
// The grouper is pure: time is passed in, it starts no goroutines, and its
// state serialises for the checkpoint, in parts: Changes returns the
// incidents opened, changed or closed since the last Committed, so a
// checkpoint writes those alone. The open incidents are bounded
// (Options.MaxGroups); eviction forgets first an incident with nothing
// left to announce, and otherwise announces the one it closes, so it never
// loses an alert.
package incident
