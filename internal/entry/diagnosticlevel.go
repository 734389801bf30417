package entry

// DiagnosticLevel reads s as a program's diagnostic of the Unix
// convention, as the native line reader does at a line's start ("prog:
// error: msg", "prog: fatal: msg", "prog: Error response from daemon:
// ...", make's and curl's forms), and returns its level: for a reader
// that finds such a diagnostic quoted after words of another's.
func DiagnosticLevel(s string) (string, bool) { return parseDiagnosticLine(s) }
