// Package source reads log lines for logmatch: it follows files matched by
// globs through rotation and truncation, decodes Kubernetes container-runtime
// framing (CRI and docker json-file), reads stdin, and runs a wrapped command
// whose output it passes through. Every delivered Line says where its bytes
// came from (file identity, path, offsets) so that the consumer can
// checkpoint it and a restart neither loses nor repeats lines.
package source
