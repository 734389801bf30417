#!/usr/bin/env bash
# Vets and tests the OpenTelemetry Collector integration: the logmatch
# processor (otelcol/logmatchprocessor) and the otelcol-logmatch
# distribution (otelcol/cmd/otelcol-logmatch). Each is its own Go module,
# so the root's "go test ./..." does not reach them. The distribution's
# end-to-end test runs real python3 (LOGMATCH_TEST_REQUIRE_TOOLS=1 turns its
# skip into a failure); its parity test runs a real filelog -> logmatch ->
# OTLP pipeline over the crash logs and compares with logmatch scan, and
# TestReadmeTopologies runs "validate" on the README's configurations.
# Called by .ci/run; runs from any directory.
#
# The processor runs under -race: concurrent ConsumeLogs calls and its
# ticker share the per-stream state behind one mutex, and share pooled
# scratch space. The distribution does not: a race build of the whole
# Collector is a second full compile (about 8 minutes on a cold 2-core
# machine) for a test whose only concurrency is the Collector's own.
set -euo pipefail
cd "$(dirname "$0")/.."

run() {
  local mod=$1
  shift
  local start=$SECONDS
  echo "== $mod"
  (cd "$mod" && go vet ./... && go test "$@" ./...)
  echo "== $mod: $((SECONDS - start)) s"
}

run otelcol/logmatchprocessor -race
run otelcol/cmd/otelcol-logmatch
