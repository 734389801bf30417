package entry

// Normalised levels: the values of Entry.Level.
const (
	LevelTrace    = "TRACE"
	LevelDebug    = "DEBUG"
	LevelInfo     = "INFO"
	LevelWarning  = "WARNING"
	LevelError    = "ERROR"
	LevelCritical = "CRITICAL"
	LevelFatal    = "FATAL"
)

// normLevel maps a level word as a family prints it to one of the
// normalised levels, or "" for a word it does not know. Writers disagree on
// names: NCCL and Rust tracing print WARN, loguru SUCCESS, syslog-style
// loggers NOTICE, CANN EVENT; NCCL's ABORT level reports an aborted
// communicator, an error rather than the process's end.
func normLevel(w string) string {
	switch w {
	case "TRACE":
		return LevelTrace
	case "DEBUG":
		return LevelDebug
	case "INFO", "NOTICE", "SUCCESS", "EVENT":
		return LevelInfo
	case "WARNING", "WARN":
		return LevelWarning
	case "ERROR", "ABORT":
		return LevelError
	case "CRITICAL":
		return LevelCritical
	case "FATAL":
		return LevelFatal
	}
	return ""
}
