// Package config is the configuration of `logmatch run` (and the parts of
// `logmatch scan` they share): a YAML file that can say everything, flags
// that override it, and secrets resolved by reference from files or
// environment variables. Loading strictly decodes the file (an unknown key
// is an error), applies flags, fills defaults, resolves secrets and then
// validates the complete result, returning every problem at once, each
// naming where it comes from ("logmatch.yaml:12: sinks[1].min_severity: ..."
// or "--group-window: ..."), so a running process never discovers a bad
// configuration. PrintDefaults writes the documented default file.
package config
