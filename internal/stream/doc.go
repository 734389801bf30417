// Package stream is the shell around the analysis core that every caller
// shares: run's processor, scan, test and the OpenTelemetry Collector
// processor. Lines go in; per stream they are assembled into entries,
// each entry is diagnosed with the one Analyzer, and the caller receives
// the entry with its diagnosis, in order, to fold into incidents, print or
// enrich.
//
// A Stream is one sequence of entries (a file's stdout or stderr, an input,
// a Collector stream): its assembler (one per rank when a launcher
// interleaves several ranks' lines behind torchrun's "[rankN]:" prefix, so
// each rank's traceback is read whole; at most a few), what the analysis remembers between
// its entries (a py-spy dump's frames), the serving engine that writes it
// (detected from its lines by internal/engine until decided, or set by
// configuration) and the resume bookkeeping (the
// offset and line number where its pending entry began, the last offset
// read). A Set holds the streams of one source, in name order, so a flush
// is the same in every caller. New is the only place in logmatch that
// builds an entry assembler.
//
// The Shell diagnoses: one Analyzer and one Diagnosis for all its streams,
// so a quiet entry costs no allocation. It tells the Analyzer the
// stream's engine, so records of other engines never match it, and hands
// the engine on with each entry for the alert to name. It also holds the one rule on log
// time: an entry stamped ahead of the clock is set back to it (a node clock
// stepped back, a forged stamp), and the caller is told so it can count it.
//
// Nothing here does I/O or starts a goroutine; a Shell and its streams are
// used by one goroutine at a time.
package stream
