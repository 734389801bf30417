// Package logmatchprocessor is an OpenTelemetry Collector logs processor
// that gives, inside a Collector pipeline, the incidents logmatch scan and
// logmatch run give.
//
// Every record's body (or a chosen attribute) is split into lines and fed
// to its stream's state (tracker): the stream is the pod's container and
// its log.iostream when the resource names a pod, else the record's
// log.file.path, else the resource. Per source an internal/stream Set
// assembles entries across records and batches, one Shell diagnoses them
// with the shared analysis core, and the incident Grouper folds the
// failures into incidents with run's settle time, causal folding and
// correlation window. Each incident leaves as one "logmatch.incident"
// record whose body is the logmatch.alert/v1 JSON. State is bounded: at
// most MaxStreams sources (the least recently seen is completed, then
// dropped) and MaxOpenIncidents incidents (the grouper announces or forgets
// the oldest).
//
// Concurrency: the Collector may call ConsumeLogs concurrently, and a
// ticker goroutine (started by Start, stopped by Shutdown after which
// every stream is completed and every incident sent) completes idle
// streams and emits settled incidents when no batch arrives. The tracker's
// one mutex serialises them; nothing is sent on while it is held.
//
// Forwarded records (forward: all or hits) are also diagnosed alone and,
// on a hit, enriched in place with the catalog record's id, severity,
// solutions and links under "logmatch.*" attributes, plus
// "exception.type" and "exception.message" from the traceback.
package logmatchprocessor
