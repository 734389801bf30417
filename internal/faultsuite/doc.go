// Package faultsuite is logmatch's fault-injection suite: end-to-end tests
// that drive the built binary through the faults and hostile inputs that
// once lost alerts, leaked data, hung or crashed it (a damaged state file,
// a full state disk, a catastrophic catalog pattern, a storm of distinct
// incidents, a crash read late, secrets in log lines, ...). Each test
// reproduces one such case and checks the promise the README's guarantees
// section makes about it, so a regression shows up as a failing test
// rather than as a silent loss in production.
//
// The package has no non-test code. The binary is built once per test
// process (harness_test.go) and every test runs it as a child process
// with its own temporary directories, talking only to loopback.
package faultsuite
