// Package cases runs declarative catalog tests: a YAML file of cases, each
// a few log lines or a log file with what logmatch should make of it (the
// lead incident's record, severity and exception, and how many incidents
// in all). "logmatch test --cases FILE" runs them as "promtool test rules"
// runs rule tests: every case is scanned exactly as "logmatch scan" would,
// a failure prints a readable want/got difference, and the tally says how
// many passed.
//
// Parse is strict: an unknown key, a case with both or neither of lines
// and file, or an expectation that cannot be read is an error naming the
// file and line of the case.
package cases
