// Package health is logmatch's liveness gate: the state machine behind
// /livez, which tells a supervisor (the kubelet, systemd, docker) that the
// server whose log logmatch reads is alive but no longer usable.
//
// Each watched server is a Target. A target is healthy until a gating
// failure is seen (a hit of a catalog record marked fatal: a lost CUDA
// context, an aborted NCCL communicator, a hung scheduler); it is then
// failing, with the Reason (record, rank, time, matched line), until the
// server restarts. A restart is told by the caller: sglang's startup lines,
// a new container log file, a new wrapped child. A restart of a failing
// target is a gated restart.
//
// The flap guard keeps the gate from becoming a restart loop that hides the
// problem: when a gating failure arrives and the target already had
// MaxRestarts gated restarts within Window, the target is held instead of
// failing. A held target still reports its reason (in /livez's body, the
// metrics and the alert) but does not fail the probe, so the server stays up
// for a person to look at. The decision is made once, when the failure is
// seen, so the alert says exactly what will happen; the next restart clears
// it.
//
// Monitor is the gate's glue to a log pipeline (logmatch run): given each
// entry with the Log it came from (a path, and the pod a kubelet log path
// names) it finds the target and tells the gate of restarts; given each
// diagnosis it trips the gate on a fatal record and puts the trip on the
// incident's alert (sinks.Liveness); it keeps the checkpoint generation,
// counts through a Metrics interface of its own and serves /livez. The
// pipeline only builds it and hands it entries and diagnoses.
//
// The Gate itself is pure: times are passed in (the log's own time, for ordering
// events of one server, and the processing time, for the flap window), it
// does no I/O and starts no goroutines, and its state serialises for the
// checkpoint. Its methods lock, because the HTTP handler and the metrics
// read it while the pipeline's processor writes through the Monitor.
package health
