// Package pipeline wires logmatch run together and owns its lifecycle:
//
//	sources (files, stdin, a wrapped command)
//	  -> processor: entries, matching, incidents, one checkpoint commit
//	  -> durable per-sink queues (internal/state)
//	  -> one delivery loop per sink
//
// The stages (sources, processor, delivery, HTTP server, telemetry) are
// supervised by Run with one shutdown context: the first stage to fail (a
// source, a dead HTTP server, a final commit that fails), the end of Run's
// context or the end of the finite inputs begins the shutdown, the stages
// stop upstream first, and the first failure is Run's error (design.md
// gives the stages, their order and a line's path). Lines flow in batches
// of what one read brought (a tailer pass, a stream read; see batch.go). A
// stream's batches go through one bounded channel to the processor
// goroutine; the file tailer matches its own batches in its goroutine,
// holding the loop's lock, which is the one hand-off of the processor
// between goroutines (loop.go), since handing each pass over woke a second
// thread. A single-line entry allocates nothing on the way: the sources
// lend their read buffers, the batcher copies each text into its batch's
// reused buffer, and the assemblers copy what they keep into theirs
// (entry.Options.Reuse); the processor Owns the few entries that become
// occurrences before it keeps them. The processor owns the entry
// assemblers, the incident grouper and the read positions; it
// commits read offsets, the grouper's state and the alerts found before
// those offsets in one state transaction, so a crash neither loses nor
// repeats an alert. Delivery loops read their sink's queue, acknowledge
// what was delivered and defer what must be retried, so an outage (and a
// restart during it) only delays alerts. A loop journals each
// acknowledgement as the sink accepts the alert and settles each round (up
// to 64 alerts, or 50ms of deliveries) in one synced transaction: a kill -9
// repeats at most the alert in flight, a crash of the machine at most the
// round.
//
// File identity is the tailer's (source.FileID), reported with every line,
// and so is the decision that new content begins (source.Line.NewContent,
// after a truncation or a rewrite in place): the processor infers neither.
// It keeps per file, under the file's one key (source.Key: device and
// inode, or a stream's name), the identity of the latest line, which is
// what its checkpoint stores, so after a truncation the checkpoint names
// the new content, and each alert's source.file names the content its
// entry came from. When the tailer stops
// following a file it sends a Gone notice: the file's pending entries are
// completed, its final checkpoint committed (marked gone, pruned by the
// store an hour later) and its assemblers and metric series dropped. The
// files kept are bounded besides (defaultMaxFiles, least recently read
// first, counted).
//
// The liveness gate rides on the processor through its monitor
// (health.Monitor): the processor hands it each entry, with the file as the
// gate knows it (health.Log), and each diagnosis; the monitor tells the gate
// of restarts (startup lines, new container logs, a new wrapped child) and
// of hits of records marked fatal and announces each trip on an alert. The
// processor commits the gate with the offsets; the HTTP server serves its
// /livez, and with --on-fatal terminate it ends the wrapped command.
//
// Shutdown is ordered: sources stop, pending entries are flushed and
// matched, a final commit is made, the delivery loops drain their queues
// until they are empty or 4/5 of the grace period has passed, the HTTP
// server and telemetry stop, the sinks are closed (every one; their errors
// are joined to Run's) and the state store is closed last. The whole
// shutdown is bounded by the grace period: past it Run returns
// ErrGraceExceeded even if matching still runs, which loses nothing
// committed (lines read since the last commit are read again).
//
// A storm of distinct incidents is braked per sink (storm.go): past the
// bound, new incidents fold into a digest alert, counted.
package pipeline
