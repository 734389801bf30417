#!/usr/bin/env bash
# Checks of deploy/: the Helm chart lints and renders in both modes, and the
# deploy module's tests decode every manifest strictly, build the
# kustomizations, attach the components of deploy/kustomize to the example
# Deployment (with kustomize, and as kubectl patch would), render the chart,
# load the embedded configs and catalogs with logmatch's loaders and run the
# sglang wrapper script.
#
# helm is built from its Go module when it is not on PATH (no prebuilt
# binaries are fetched); the result stays in $(go env GOPATH)/bin, so a
# second run finds it at once.
set -euo pipefail
cd "$(dirname "$0")/.."

helm_version=v3.22.0
gobin="$(go env GOPATH)/bin"
export PATH="$PATH:$gobin"
if ! command -v helm >/dev/null; then
  echo "deploy: building helm $helm_version from its Go module into $gobin"
  start=$SECONDS
  (cd "$(mktemp -d)" && GOFLAGS=-mod=mod go install "helm.sh/helm/v3/cmd/helm@$helm_version")
  echo "deploy: helm built in $((SECONDS - start))s"
fi
helm version --short

# helm built from source assumes Kubernetes v1.20 without a cluster; the
# chart needs 1.29+ (native sidecars), so say which version to render for.
kube_version=1.33.0
chart=deploy/helm/logmatch
for mode in sidecar daemonset; do
  helm lint --strict "$chart" --kube-version "$kube_version" --set mode="$mode"
  helm template logmatch "$chart" --kube-version "$kube_version" --set mode="$mode" >/dev/null
  echo "deploy: chart renders in $mode mode"
done

# helm is on PATH now: the chart tests must run, not skip.
export LOGMATCH_TEST_REQUIRE_TOOLS=1
(cd deploy && go test -race ./...)
