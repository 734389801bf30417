// Package report renders what a scan found for people to read after the
// fact: one self-contained HTML page (a post-mortem to open offline,
// print or attach) and Markdown (to paste into an issue next to the log).
//
// Both show the same findings in the same order: a timeline of the
// failures across ranks and processes, the first failure (the likely root
// cause) first and what followed it on each rank, then every incident with
// what matched, its solutions and its links. The page has no script and
// fetches nothing: CSS and the SVG timeline are inline, and every piece of
// log text is escaped, since logs are written by whoever writes them.
package report
