// Package config is the configuration of `logmatch run` (and of validate
// and notify, which load it the same way): a YAML file that can say
// everything, flags that override it, ${VAR} references replaced from the
// environment. Loading strictly decodes the file (an unknown key is an
// error, with a "did you mean"), applies flags, fills defaults and
// validates the complete result, returning every problem at once, each
// naming where it comes from ("logmatch.yaml:12: sinks[1].min_severity: ..."
// or "--group-window: ..."), so a running process never discovers a bad
// configuration. Flags.Check, for validate, also returns what did load and
// which keys to trust, so the catalogs and globs of a configuration with
// problems elsewhere can still be checked.
//
// A sink is configured the Alertmanager way: Sink holds the keys every sink
// has and the typed section of its type, which the sink's own package
// (sinks/slack, ...) decodes strictly, fills with its defaults and checks,
// secrets by reference included, when the file loads. PrintDefaults writes
// the documented default file.
package config
