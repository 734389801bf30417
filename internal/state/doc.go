// Package state is logmatch's durable memory: per-file read checkpoints, the
// incident grouper's serialised state and one FIFO queue per sink of alerts
// the sink has not acknowledged yet, kept together in one bbolt file
// (state.db) in the state directory. Store.Commit writes all three in a
// single transaction, so a crash at any moment leaves either the whole batch
// or none of it: an offset is never advanced without its alerts being queued,
// and an alert is never queued for lines that will be read again.
//
// The grouper's state is a small blob (Batch.Grouping) and its open
// incidents, one key each (Batch.Incidents): a commit writes the incidents
// that changed and deletes those closed, so its cost follows what changed,
// not how many incidents are open.
//
// # Secrets at rest
//
// The store writes what it is given: every alert and incident reaches it
// redacted (the pipeline redacts an occurrence's alert before the grouper
// keeps it, and a line over the line bound before it is cut), and the
// liveness gate's reason line is redacted too. bbolt does not clear the
// pages a transaction frees, so text once written stays in the file until
// those pages are reused; storing only redacted text is what keeps a
// secret out of state.db, during an incident and after it closes.
//
// # The checkpoint model
//
// A file is identified by device, inode and a fingerprint of its first bytes,
// not by its path, so renames keep their checkpoint and a reused inode with
// different content is recognised as a new file. The identity type is the
// tailer's (source.FileID): the tailer computes it, reports it with every
// line and decides from it whether a file is the one a checkpoint was saved
// for; the store keeps it as the consumer passes it on, one checkpoint per
// device and inode. Each Checkpoint holds two kinds of offsets:
//
//   - Offset is where reading resumes: the first byte of the oldest line that
//     belongs to an entry not yet emitted (a traceback still being assembled),
//     or the end of the data read when nothing is pending. Resuming there lets
//     the assembler rebuild the pending entry from its first line.
//   - Emitted holds, per stream ("stdout", "stderr", "" for plain files), the
//     position of the last line that went into an emitted entry. A CRI log
//     file interleaves streams, so while stdout still has a pending entry
//     starting at Offset, stderr may have emitted entries past it; after a
//     restart the reader skips every line of stream s at or before
//     Emitted[s] (Checkpoint.AlreadyEmitted), so those entries are not
//     matched twice. The store only compares numbers: the pipeline records
//     each line's start offset (entry.Entry.LastOffset) and checks re-read
//     lines by their start offset, which is unique per line and increases
//     within a stream.
//
// # Queues
//
// Alerts are stored as opaque bytes (the JSON of sinks.Alert) with a
// sequence id that increases across the whole store, the enqueue time, an
// attempt count and the time of the next attempt. A delivery loop Peeks
// ready items, sends them, then Settles the round: one transaction removes
// what the sink accepted and defers what must be retried (Ack and Defer are
// Settle with one kind alone). Settling a whole round at once costs one
// disk sync per round instead of one per alert; an acknowledgement is
// durable only when Settle returns, so a delivery loop must settle before
// it Peeks again, or it would be handed the same items. Between the two,
// JournalAck records each acknowledgement as it happens in the ack journal
// (acks.journal beside state.db) with a write and no sync: it survives a
// killed process, and Open replays it, so a kill -9 in the middle of a
// round repeats only the alert in flight (journal.go). Every Commit also
// settles whatever the journal holds, in its own transaction, so while
// alerts flow a delivery loop rarely needs a Settle (and a sync) of its
// own; Unsettled tells it what is left. Every queue is bounded by item count and age; what a
// bound removes is returned as Drops and added to the counters of DropCounts,
// never discarded silently.
//
// # The liveness gate
//
// The liveness gate's state (internal/health) is one more blob, like the
// grouper's, written by the same Commit: a gate that was failing when
// logmatch stopped is failing when it starts, and one a restart resolved
// stays resolved, in step with the offsets of the lines that decided it.
package state
