package main

// Test fixtures come from real Python; see testdata/logs/README.md.
//go:generate python3 ../../testdata/logs/gen.py ../../testdata/logs
//go:generate sh -c "cat ../../testdata/logs/seed-ascend.log ../../testdata/logs/multiline-oom.log ../../testdata/logs/ranks8.log ../../testdata/logs/unknown-chained.log > ../../examples/sglang-crash.log"
