// Package deploy holds the tests of logmatch's deployment files: the
// Kubernetes manifests under kubernetes/ and the Helm chart under helm/ are
// decoded strictly into the Kubernetes API types (an unknown or misspelt
// field fails), checked for the properties an operator relies on (shared log
// volume, probes, resources, security context, secrets mounted as files,
// downward-API variables), built with kustomize, rendered with helm when it
// is installed, and their logmatch configuration and catalogs are loaded
// with logmatch's own loaders. The sglang wrapper script of the sidecar is
// run under bash with a stand-in server; the Dockerfile and the
// OpenTelemetry Collector example are checked for what they promise, since
// no container builder or collector runs here. The package has no code of
// its own beyond the strict multi-document decoder the tests share; it is a
// separate module so that the Kubernetes libraries stay out of logmatch's
// build.
package deploy
