// Command otelcol-logmatch is a small OpenTelemetry Collector distribution
// for LLM serving logs: the filelog receiver (with the container parser and
// the recombine operator that joins an sglang traceback into one record),
// the logmatch processor, the batch processor and the otlp_grpc, otlp_http and
// debug exporters. It takes the Collector's usual flags:
//
//	otelcol-logmatch --config deploy/otelcol-logmatch/config.yaml
//	otelcol-logmatch validate --config deploy/otelcol-logmatch/config.yaml
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newCommand().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "otelcol-logmatch:", err)
		os.Exit(1)
	}
}
