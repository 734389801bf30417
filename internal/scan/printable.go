package scan

import "github.com/logmatch/logmatch/sinks"

// Printable returns s with what a terminal would act on made visible; it
// is sinks.Printable, which every text output of log text shares.
func Printable(s string) string { return sinks.Printable(s) }
