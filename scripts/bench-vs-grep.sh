#!/usr/bin/env bash
# Compare `logmatch scan` with GNU `grep -E -c -f` on the same patterns and
# the same log, whole process against whole process.
#
#   scripts/bench-vs-grep.sh [CATALOG] [LINES] [ROUNDS] [REV]
#
# CATALOG defaults to ../shared/catalogs/sglang-generated.jsonl (relative to
# the repository root), LINES to 300000, ROUNDS to 5. REV, when given, is the
# git revision whose logmatch is measured (the working tree's by default);
# the log is always the working tree's genlines', so two revisions read the
# same lines. The log is generated
# with internal/benchdata/genlines (0.1% error lines). The rounds alternate
# logmatch and grep, so a change in machine load hits both alike; each run
# is timed with scripts/cputime.py, which gives its user+system CPU time to
# the microsecond (the ratio of the two is the figure to compare: it hardly
# moves with machine load, where wall time does; /usr/bin/time's hundredths
# were an eighth of logmatch's 0.08 s) and its peak RSS. When
# hyperfine is installed it measures both commands as well.
#
# Turning the catalog's JavaScript-style patterns into grep -E patterns:
#   - lazy quantifiers (+?, *?, ??) become greedy: whether a line matches
#     does not depend on laziness, only the span does, and grep -c counts lines;
#   - \d becomes [0-9]; \/ and other escaped punctuation that is not special
#     in POSIX ERE lose the backslash (GNU grep 3.8 warns "stray \" on them);
#   - (?:...) becomes (...);
#   - patterns with \n (they span lines, and grep matches one line at a time),
#     lookarounds, back-references, named groups, inline flags or any other
#     escape are dropped, and so is any pattern grep -E still rejects.
# The script prints how many patterns grep got.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
catalog=${1:-$root/../shared/catalogs/sglang-generated.jsonl}
lines=${2:-300000}
rounds=${3:-5}
rev=${4:-}

[[ -f $catalog ]] || { echo "bench-vs-grep: catalog $catalog not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench-vs-grep: python3 not found" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building logmatch${rev:+ at $rev} and genlines"
(cd "$root" && go build -o "$work/genlines" ./internal/benchdata/genlines)
if [[ -n $rev ]]; then
	mkdir "$work/src"
	git -C "$root" archive "$rev" | tar -x -C "$work/src"
	(cd "$work/src" && go build -o "$work/logmatch" ./cmd/logmatch)
else
	(cd "$root" && go build -o "$work/logmatch" ./cmd/logmatch)
fi

echo "generating $lines lines"
"$work/genlines" -n "$lines" -catalog "$catalog" -error-rate 0.001 >"$work/lines.log"
echo "  $(wc -c <"$work/lines.log") bytes, $(awk '{ n += length($0) } END { printf "%.0f", n / NR }' "$work/lines.log") bytes per line on average"

python3 - "$catalog" "$work/pats" <<'PY'
import json, re, subprocess, sys

catalog, out = sys.argv[1], sys.argv[2]
ere_special = set('.[]()*+?{}|^$\\')

def convert(p):
    if '\\n' in p or '(?=' in p or '(?!' in p or '(?<' in p or '(?i' in p:
        return None
    p = p.replace('(?:', '(')
    if '(?' in p:
        return None
    p = re.sub(r'([+*?])\?', r'\1', p)  # lazy -> greedy
    res, i = [], 0
    while i < len(p):
        c = p[i]
        if c != '\\':
            res.append(c)
            i += 1
            continue
        if i + 1 >= len(p):
            return None
        e = p[i + 1]
        if e == 'd':
            res.append('[0-9]')
        elif e in ere_special:
            res.append('\\' + e)
        elif not e.isalnum():
            res.append(e)
        else:
            return None  # \w, \s, \b, \1, \u..., ...: not converted
        i += 2
    return ''.join(res)

total, kept = 0, []
with open(catalog, encoding='utf-8-sig') as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        obj = json.loads(line)
        rec = obj.get('record', obj)
        total += 1
        conv = convert(rec.get('messagePattern') or '')
        if conv is not None:
            kept.append(conv)

# Drop what grep -E still rejects, checking in halves so one bad pattern
# does not cost a process per pattern.
def accepted(ps):
    r = subprocess.run(['grep', '-E', '-c', '-f', '-', '/dev/null'], input='\n'.join(ps) + '\n',
                       capture_output=True, text=True)
    return r.returncode != 2 and 'warning' not in r.stderr

def filter_ok(ps):
    if not ps or accepted(ps):
        return ps
    if len(ps) == 1:
        return []
    mid = len(ps) // 2
    return filter_ok(ps[:mid]) + filter_ok(ps[mid:])

kept = filter_ok(kept)
with open(out, 'w', encoding='utf-8') as f:
    f.write('\n'.join(kept) + '\n')
print(f"grep gets {len(kept)} of {total} patterns")
PY

# logmatch keeps its catalog cache in $work/cache, which the warm-up
# fills: the rounds load the catalog as every scan after the first does.
# nocache is the same scan with --catalog-cache off: a first scan.
lm=("$work/logmatch" scan --no-default-catalog --catalog "$catalog" --catalog-cache "$work/cache" --format json "$work/lines.log")
lm_off=("$work/logmatch" scan --no-default-catalog --catalog "$catalog" --catalog-cache off --format json "$work/lines.log")
gr=(grep -E -c -f "$work/pats" "$work/lines.log")

# timed NAME CMD...: one run, appending "seconds peak-kB cpu-seconds" to
# $work/res.NAME.
timed() {
	local name=$1
	shift
	local rc=0
	"$root/scripts/cputime.py" "$work/out.$name" "$work/err.$name" "$@" >"$work/time.txt" || rc=$?
	# grep -c exits 1 when no line matched; anything else is a failure.
	if [[ $rc -ne 0 && ( $name != grep || $rc -ne 1 ) ]]; then
		echo "bench-vs-grep: $name exited $rc:" >&2
		cat "$work/err.$name" >&2
		exit 1
	fi
	cat "$work/time.txt" >>"$work/res.$name"
}

echo "warming up"
timed logmatch "${lm[@]}"
timed grep "${gr[@]}"
rm -f "$work/res.logmatch" "$work/res.grep" "$work/res.nocache"

echo "$rounds rounds, alternating"
for ((i = 1; i <= rounds; i++)); do
	timed logmatch "${lm[@]}"
	timed grep "${gr[@]}"
	timed nocache "${lm_off[@]}"
done

summary() {
	sort -n "$work/res.$1" | awk -v name="$1" -v lines="$lines" '
		{ s[NR] = $1; if ($2 > rss) rss = $2 }
		END { m = s[int((NR + 1) / 2)]; printf "%-9s median %6.2f s  (%8.0f lines/s)  peak RSS %6.1f MB\n", name, m, (m > 0 ? lines / m : 0), rss / 1024 }'
}
# cpu NAME: the sorted user+system seconds of NAME's rounds, one a line.
cpu() { awk '{ print $3 }' "$work/res.$1" | sort -n; }
echo
summary logmatch
summary nocache
summary grep
# The CPU ratio pairs each logmatch round with the grep round run right
# after it (and the nocache run right after that), so both saw the same
# machine load.
ratio() {
	paste -d' ' <(awk '{ print $3 }' "$work/res.$1") <(awk '{ print $3 }' "$work/res.grep") |
		awk '{ printf "%.4f\n", ($2 > 0 ? $1 / $2 : 0) }' | sort -n |
		awk -v name="$1" '{ r[NR] = $1 } END { printf "CPU (user+sys) %s / grep per round: min %.4f  median %.4f  (%d rounds)\n", name, r[1], r[int((NR + 1) / 2)], NR }'
}
ratio logmatch
ratio nocache
printf 'CPU seconds, logmatch: %s\n' "$(cpu logmatch | paste -sd' ')"
printf 'CPU seconds, nocache:  %s\n' "$(cpu nocache | paste -sd' ')"
printf 'CPU seconds, grep:     %s\n' "$(cpu grep | paste -sd' ')"
echo "logmatch output lines: $(wc -l <"$work/out.logmatch")   grep matching lines: $(cat "$work/out.grep")"

if command -v hyperfine >/dev/null; then
	echo
	hyperfine --warmup 1 --runs "$rounds" -N \
		--command-name logmatch "$(printf '%q ' "${lm[@]}")" \
		--command-name grep "$(printf '%q ' "${gr[@]}")"
fi
