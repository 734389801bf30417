// Package benchdata generates realistic sglang log lines for benchmarks and
// tests: the Prefill/Decode batch lines and HTTP access lines a healthy
// server prints, with a chosen fraction of error lines built from catalog
// error messages. It is pure and deterministic for a given seed, so a
// benchmark's input is the same on every run and every machine.
package benchdata
