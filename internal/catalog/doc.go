// Package catalog is logmatch's one catalog loader: every caller that
// matches (run and its reloads, scan, test, validate, patterns lint and the
// OpenTelemetry Collector processor) loads and compiles its catalogs here,
// so each refuses the same catastrophic patterns, reuses the same fact
// cache and follows the same reload rule. A catalog that run refuses is
// refused everywhere.
//
// Load reads the embedded default catalog and the operator's files, merges
// them (a later record with the same id replaces an earlier one), filters by
// severity, and compiles with Compile. Problems with single records come
// back as a list, never as an error: one bad record never stops the others.
package catalog
