#!/bin/sh
# Measures what adopting gitleaks' detect package (v8.30.0, default rules)
# for alert text would cost logmatch, beside logmatch's own redactor: the
# modules it adds, the binary size, CPU per line and per alert, start-up
# cost, and what each flags in the corpus excerpts (which hold no real
# secret). internal/redact/GITLEAKS.md records a run.
# Usage: scripts/gitleaks-eval/run.sh   (from anywhere; needs the Go module proxy once)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== modules"
echo "logmatch go.mod graph edges: $(cd ../.. && go mod graph | wc -l), modules: $(cd ../.. && go list -m all | wc -l)"
echo "with gitleaks go.mod graph edges: $(go mod graph | wc -l), modules: $(go list -m all | wc -l)"

echo "== binaries (-trimpath -ldflags='-s -w')"
go build -trimpath -ldflags='-s -w' -o "$tmp/redactonly" ./cmd/redactonly
go build -trimpath -ldflags='-s -w' -o "$tmp/withgitleaks" ./cmd/withgitleaks
(cd ../.. && go build -trimpath -ldflags='-s -w' -o "$tmp/logmatch" ./cmd/logmatch)
for b in redactonly withgitleaks logmatch; do
	echo "$b: $(wc -c <"$tmp/$b") bytes, $(go version -m "$tmp/$b" | grep -c '^	dep') modules linked"
done
go version -m "$tmp/withgitleaks" | awk '$1=="dep" && $2!="github.com/logmatch/logmatch"{print $2}' | sort >"$tmp/g"
go version -m "$tmp/logmatch" | awk '$1=="dep"{print $2}' | sort >"$tmp/l"
echo "modules gitleaks would add to logmatch's binary: $(comm -23 "$tmp/g" "$tmp/l" | wc -l)"
comm -23 "$tmp/g" "$tmp/l" | tr '\n' ' '
echo

echo "== CPU (go test -bench)"
go test -run '^$' -bench . -benchtime "${BENCHTIME:-2s}" -count "${COUNT:-3}" .

echo "== false positives on the corpus and coverage of issue 33's shapes"
go run ./cmd/fpreport | sed -n '/^corpus:/,$p'
