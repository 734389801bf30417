package scan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// One crash, one page, however its lines reach the operator. The corpus
// test reads each failure as it was posted; a live server prints it amid
// other processes' lines and its own healthy traffic, and after a restart
// prints it again. TestCorpusInterleaved builds those logs mechanically
// from the excerpts that are right as posted, and asks of each:
//
//   - ranks: the same crash from three ranks, each line behind its rank's
//     prefix ("[rank1]:", as torchrun's --tee writes) with its own TP
//     number, the lines alternated as the processes' writes interleave:
//     still led right, and no more incidents than as posted; a benign
//     excerpt stays silent;
//   - traffic: healthy lines (access lines, a decode batch) of the same
//     second before every record of the crash after its first, as a
//     server that still answers prints them between a cause and its
//     consequences: still led right, no more incidents than as posted;
//     traffic-1s, -5s, -10s and -30s the same with those records that
//     much later (beyond the settle time, within the correlation window);
//   - two failures: an excerpt, a stretch of healthy serving, another
//     excerpt of another record: each part led right by an incident of
//     its own;
//     two-near the same with the second excerpt a minute and a half
//     after the first in log time (a minute of serving between);
//   - restart: an excerpt, a restart's start-up lines, the same excerpt:
//     the second crash is an incident of its own, led right.
//
// A variant that does not apply to an excerpt (no record header to put
// traffic before) is not counted. What logmatch knowingly gets wrong is
// listed in knownInterleaveMisses with why; the test fails when one of
// those comes right, so the list only shrinks.
func TestCorpusInterleaved(t *testing.T) {
	if testing.Short() {
		t.Skip("scans the corpus once per variant")
	}
	entries, m, red := corpusVariants(t)

	type posted struct {
		e         corpusEntry
		text      string
		incidents int
	}
	var right, benign []posted
	for _, e := range entries {
		if e.Batch == heldOutBatch {
			// Measured by the corpus test alone, never looked at.
			continue
		}
		text, err := os.ReadFile(filepath.Join(corpusDir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		res := scanLater(t, m, red, e.File, string(text))
		if e.Kind == "benign" {
			if len(res.Alerts) == 0 {
				benign = append(benign, posted{e, string(text), 0})
			}
			continue
		}
		// Only what is right as posted can be kept right.
		if ok, _ := judge(e, lead(res.Alerts)); ok {
			right = append(right, posted{e, string(text), len(res.Alerts)})
		}
	}

	tallies := map[string]*interleaveTally{}
	tally := func(name string) *interleaveTally {
		if tallies[name] == nil {
			tallies[name] = &interleaveTally{}
		}
		return tallies[name]
	}
	misses := newMissList(t, "knownInterleaveMisses", func(file, variant string) string {
		if known := knownInterleaveMisses[file][variant]; known != "" {
			return known
		}
		return knownInterleaveMisses["*"][variant]
	})
	check := func(variant, file string, ok bool, why string) {
		tally(variant) // listed even when every excerpt is kept
		misses.check(file, variant, ok, why)
	}

	for _, p := range right {
		// Ranks.
		res := scanLater(t, m, red, p.e.File, interleaveRanks(p.text, 3))
		ok, v := judge(p.e, lead(res.Alerts))
		tally("ranks").count(ok, len(res.Alerts))
		check("ranks", p.e.File, ok && len(res.Alerts) <= p.incidents,
			fmt.Sprintf("%s: want %s in at most %d incidents, got %s (%d)", v, expected(p.e), p.incidents, headline(lead(res.Alerts)), len(res.Alerts)))

		// Traffic, in the same second and a second later.
		for _, tr := range []struct {
			variant string
			gap     time.Duration
		}{{"traffic", 0}, {"traffic-1s", time.Second}, {"traffic-5s", 5 * time.Second}, {"traffic-10s", 10 * time.Second}, {"traffic-30s", 30 * time.Second}} {
			if text, ok := withTraffic(p.text, tr.gap); ok {
				res := scanLater(t, m, red, p.e.File, text)
				ok, v := judge(p.e, lead(res.Alerts))
				tally(tr.variant).count(ok, len(res.Alerts))
				check(tr.variant, p.e.File, ok && len(res.Alerts) <= p.incidents,
					fmt.Sprintf("%s: want %s in at most %d incidents, got %s (%d)", v, expected(p.e), p.incidents, headline(lead(res.Alerts)), len(res.Alerts)))
			}
		}

		// Restart.
		first := p.text + restartLines()
		res = scanLater(t, m, red, p.e.File, first+p.text)
		before, after := splitAt(res.Alerts, int64(len(p.text)))
		okA, vA := judge(p.e, lead(before))
		okB, vB := judge(p.e, lead(after))
		tally("restart").count(okA && okB, len(res.Alerts))
		check("restart", p.e.File, okA && okB,
			fmt.Sprintf("before the restart %s, after it %s: want %s in each, got %s and %s (%d incidents)", vA, vB, expected(p.e),
				headline(lead(before)), headline(lead(after)), len(res.Alerts)))
	}
	for _, p := range benign {
		res := scanLater(t, m, red, p.e.File, interleaveRanks(p.text, 3))
		check("ranks-benign", p.e.File, len(res.Alerts) == 0, "false alarm: "+headline(lead(res.Alerts)))
	}

	// Two failures: each excerpt with the next one of another record and
	// family. a's text opens text; each must lead its own incidents.
	two := func(variant string, a, b posted, text string) {
		res := scanLater(t, m, red, a.e.File, text)
		before, after := splitAt(res.Alerts, int64(len(a.text)))
		okA, vA := judge(a.e, lead(before))
		okB, vB := judge(b.e, lead(after))
		tally(variant).count(okA && okB, len(res.Alerts))
		check(variant, a.e.File+" + "+b.e.File, okA && okB,
			fmt.Sprintf("first %s (want %s, got %s), second %s (want %s, got %s), %d incidents", vA, expected(a.e), headline(lead(before)),
				vB, expected(b.e), headline(lead(after)), len(res.Alerts)))
	}
	for i, a := range right {
		b, ok := nextOther(right, i, func(x posted) corpusEntry { return x.e })
		if !ok {
			continue
		}
		two("two-failures", a, b, a.text+servingLines(60)+"\n"+b.text)
		// The same two a minute and a half apart in log time, a minute
		// of serving between: within the correlation window, with no
		// restart between, yet two failures.
		if text, ok := twoNear(a.text, b.text, 90*time.Second); ok {
			two("two-near", a, b, text)
		}
	}

	names := make([]string, 0, len(tallies))
	for n := range tallies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-13s %s", n, tallies[n].String(misses.count(n)))
	}
	misses.fail(t)
}

// interleaveTally counts, over every log one variant built, the lead
// right and the incidents, for the incidents-per-crash figure (the kept
// and known misses are the missList's).
type interleaveTally struct {
	logs, led, alerts   int
	leadRight, detected int
}

func (tl *interleaveTally) count(led bool, alerts int) {
	tl.logs++
	if led {
		tl.leadRight++
	}
	if alerts > 0 {
		tl.detected++
		tl.alerts += alerts
	}
}

func (tl *interleaveTally) String(c *variantCount) string {
	s := fmt.Sprintf("kept %d of %d (known misses %d)", c.kept, c.tried, c.known)
	if tl.logs > 0 {
		s += fmt.Sprintf("; lead right %d of %d (%s), %d incidents in %d logs that alerted (%.2f per log)", tl.leadRight, tl.logs,
			percent(tl.leadRight, tl.logs), tl.alerts, tl.detected, float64(tl.alerts)/float64(max(tl.detected, 1)))
	}
	return s
}

// splitAt splits alerts into those whose incident began before offset off
// of the log (the end of the first excerpt) and those that began at or
// after it: in the lines between, which produce none of their own (an
// access line may open the entry of a traceback printed after it), or in
// the second excerpt.
func splitAt(as []sinks.Alert, off int64) (before, after []sinks.Alert) {
	for _, a := range as {
		if a.Source.Offset < off {
			before = append(before, a)
		} else {
			after = append(after, a)
		}
	}
	return before, after
}

// nextOther is the first excerpt after the i-th (wrapping around) whose
// expected record and family differ from its.
func nextOther[T any](xs []T, i int, entryOf func(T) corpusEntry) (T, bool) {
	a := entryOf(xs[i])
	for k := 1; k < len(xs); k++ {
		x := xs[(i+k)%len(xs)]
		b := entryOf(x)
		if expected(b) != expected(a) && b.Family != a.Family {
			return x, true
		}
	}
	var zero T
	return zero, false
}

var (
	// srtStamp is an sglang record header's opening: its time and the
	// ranks after it ("[2025-08-02 19:24:30 DP0 TP3]").
	srtStamp = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?)([^\]]*)\]`)
	tpRank   = regexp.MustCompile(`\bTP\d+`)
	// rankPrefix is torchrun's per-line prefix, which some excerpts carry.
	rankPrefix = regexp.MustCompile(`^\[rank\d+\]:`)
)

// interleaveRanks is text as n ranks print it at once: rank k's copy of
// every line behind "[rankk]:", its record headers' TP number k, the
// copies' lines alternated one by one.
func interleaveRanks(text string, n int) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var b strings.Builder
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		for k := range n {
			r := rankPrefix.ReplaceAllString(l, "")
			if loc := srtStamp.FindStringSubmatchIndex(r); loc != nil {
				ranks := tpRank.ReplaceAllString(r[loc[4]:loc[5]], fmt.Sprintf("TP%d", k))
				r = r[:loc[4]] + ranks + r[loc[5]:]
			}
			fmt.Fprintf(&b, "[rank%d]:%s\n", k, r)
		}
	}
	return b.String()
}

// withTraffic is text with a server's healthy lines before every sglang
// record after the first: two access lines and a decode batch, of that
// record's second; with gap, every record after the first (and the lines
// before it) comes gap later, as a parent reports a child's death a moment
// after it. False when text has fewer than two records.
func withTraffic(text string, gap time.Duration) (string, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var b strings.Builder
	records := 0
	for _, l := range lines {
		if m := srtStamp.FindStringSubmatchIndex(l); m != nil {
			records++
			if records > 1 {
				ts := l[m[2]:m[3]]
				if gap > 0 {
					ts = later(ts, gap)
					l = l[:m[2]] + ts + l[m[3]:]
				}
				fmt.Fprintf(&b, "[%s] INFO:     10.0.3.17:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", ts)
				fmt.Fprintf(&b, "[%s TP0] Decode batch, #running-req: 12, #token: 5321, token usage: 0.08, cuda graph: True, gen throughput (token/s): 512.33, #queue-req: 0\n", ts)
				fmt.Fprintf(&b, "[%s] INFO:     10.0.3.17:51240 - \"GET /health HTTP/1.1\" 200 OK\n", ts)
			}
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), records > 1
}

// later is the sglang header time ts moved by d, in its own layout.
func later(ts string, d time.Duration) string {
	layout := "2006-01-02 15:04:05"
	if len(ts) > len(layout) {
		layout += "." + strings.Repeat("0", len(ts)-len(layout)-1)
	}
	t, err := time.Parse(layout, ts)
	if err != nil {
		return ts
	}
	return t.Add(d).Format(layout)
}

// servingLines is n lines of a server serving well, a second apart, on a
// day of none of the excerpts: what lies between two unrelated failures of
// one log.
func servingLines(n int) string {
	var b strings.Builder
	for i := range n {
		ts := fmt.Sprintf("2020-01-01 00:%02d:%02d", i/60, i%60)
		if i%3 == 0 {
			fmt.Fprintf(&b, "[%s TP0] Decode batch, #running-req: %d, #token: 5321, token usage: 0.08, cuda graph: True, gen throughput (token/s): 512.33, #queue-req: 0\n", ts, 10+i%7)
			continue
		}
		fmt.Fprintf(&b, "[%s] INFO:     10.0.3.17:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", ts, 50000+i)
	}
	return b.String()
}

// twoNear is a's text, a minute of serving dated after a's last sglang
// record, then b's text with its sglang record headers moved so that its
// first comes gap after a's last. False when either has no such header.
func twoNear(a, b string, gap time.Duration) (string, bool) {
	const layout = "2006-01-02 15:04:05"
	var last, first time.Time
	for _, l := range strings.Split(a, "\n") {
		if m := srtStamp.FindStringSubmatch(l); m != nil {
			if t, err := time.Parse(layout, m[1][:min(len(m[1]), len(layout))]); err == nil {
				last = t
			}
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if m := srtStamp.FindStringSubmatch(l); m != nil {
			if t, err := time.Parse(layout, m[1][:min(len(m[1]), len(layout))]); err == nil {
				first = t
				break
			}
		}
	}
	if last.IsZero() || first.IsZero() {
		return "", false
	}
	var out strings.Builder
	out.WriteString(a)
	if !strings.HasSuffix(a, "\n") {
		out.WriteByte('\n')
	}
	for i := range 60 {
		ts := last.Add(time.Duration(i+1) * time.Second).Format(layout)
		fmt.Fprintf(&out, "[%s] INFO:     10.0.3.17:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", ts, 50000+i)
	}
	out.WriteByte('\n')
	shift := last.Add(gap).Sub(first)
	for _, l := range strings.SplitAfter(b, "\n") {
		if m := srtStamp.FindStringSubmatchIndex(l); m != nil {
			l = l[:m[2]] + later(l[m[2]:m[3]], shift) + l[m[3]:]
		}
		out.WriteString(l)
	}
	return out.String(), true
}

// restartLines is what a server prints as it starts again after a crash:
// its start-up, then a little serving. Like the serving lines between two
// failures, it ends with a blank line, so that an excerpt's first line
// that has no header of its own (a paste's prose, a bare exception line)
// is not read as the continuation of the access line before it, which no
// live log would show.
func restartLines() string {
	const ts = "2020-01-01 01:00:0"
	return "[" + ts + "0] server_args=ServerArgs(model_path='/models/Qwen3-8B', tp_size=1, port=30000)\n" +
		"[" + ts + "1 TP0] Init torch distributed begin.\n" +
		"[" + ts + "2 TP0] Load weight begin. avail mem=78.50 GB\n" +
		"[" + ts + "5 TP0] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=62.91 GB, mem usage=15.59 GB.\n" +
		"[" + ts + "6 TP0] KV Cache is allocated. #tokens: 412345, K size: 28.31 GB, V size: 28.31 GB\n" +
		"[" + ts + "7 TP0] Capture cuda graph end. Time elapsed: 12.41 s. mem usage=1.02 GB. avail mem=4.11 GB.\n" +
		"[" + ts + "8] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)\n" +
		"[" + ts + "9] The server is fired up and ready to roll!\n" +
		servingLines(6) + "\n"
}

// knownInterleaveMisses lists what logmatch knowingly gets wrong under a
// variant (file, or "first + second" for two failures, then the variant),
// with why; "*" stands for every excerpt.
var knownInterleaveMisses = map[string]map[string]string{
	// heldout-24 (development since heldout-25): measured blind, not
	// tuned to; first read by this test once heldout-25 was held out.
	"1758-sglang-minimax-m3-two-node-gloo-read-error-broadcast-pyobj-all-ranks.log": under("the variant moves the five other ranks' lone Gloo 'RuntimeError: [...] Read error [...]: Connection timed out' lines seconds later in log time, past the settle time, so they page a second incident after the first rank's traceback (traffic and traffic-1s keep one)",
		"traffic-5s", "traffic-10s", "traffic-30s"),
	"1727-vllm-v1-enginecore-dump-input-scheduler-output-hard-wrapped.log + 173-rank-scheduler-dead-exit-code-11.log": {
		"two-failures": "the first excerpt's vLLM EngineCore lines make the whole log vLLM's, so sglang's own record for the second's 'Child process unexpectedly failed with an exit code 11' (scheduler-exit-code-native-crash) does not read it and it leads unclassified",
	},
	// heldout-25 (development since heldout-26): measured blind, not
	// tuned to; first read by this test once heldout-26 was held out.
	"1860-sglang-glm53-mi300-interleaved-faulthandler-frames-all-ranks-garbled.log": {
		"ranks": "the excerpt is already several ranks' faulthandler frames interleaved mid-line; the variant's rank prefixes on every line hide which pieces are frames, so the crash leads as interleaved frames without the deepest frame's process_batch_result",
	},
	"184-triton-device-side-assert-then-scheduler-eagle.log + 1840-sglang-dsv4-pd-decode-retract-scheduler-exception-blockquote-cut.log": {
		"two-failures": "the second excerpt's quoted 'Scheduler hit an exception' wrapper, cut before its exception, joins the first excerpt's incident, which already holds the device-side assert's scheduler wrapper: one record from one source is one incident for a whole scan",
	},
	// dev-17: measured before any change made for the batch.
	"170-headless-nameerror-eagle-tree-kernel-then-sigquit.log + 1702-vllm-v0-ray-fp8-quantization-capability-86.log": {
		"two-failures": "the first excerpt's sglang lines make the whole log sglang's, so sglang's twin record for the same words (quantization-unsupported-gpu) leads the second's bare ValueError line",
	},
	"1682-mlc-llm-libcxxabi-tvm-internal-error-config-istream.log": {
		"restart": "the excerpt is one libc++abi line; its second copy after the restart's lines is read as the same failure repeated, not a failure of its own",
	},
	// heldout-19, right as posted since a library's own record leads the
	// errno record's line of its event.
	"1317-nccl-shm-attach-failed-bracket-date-blank-lines.log": {
		"traffic-5s":  "the variant moves NCCL's second WARN line seconds later in log time, past the settle time, so the errno record's line is announced under path-not-found before the library's own line arrives (the bytes between, three serving lines, are within the rule's gap: traffic and traffic-1s keep the lead); claiming it then would page twice",
		"traffic-10s": "the variant moves NCCL's second WARN line seconds later in log time, past the settle time, so the errno record's line is announced under path-not-found before the library's own line arrives (the bytes between, three serving lines, are within the rule's gap: traffic and traffic-1s keep the lead); claiming it then would page twice",
		"traffic-30s": "the variant moves NCCL's second WARN line seconds later in log time, past the settle time, so the errno record's line is announced under path-not-found before the library's own line arrives (the bytes between, three serving lines, are within the rule's gap: traffic and traffic-1s keep the lead); claiming it then would page twice",
	},
	// dev-13, right as posted since the HSA fault's status line is read
	// without ROCclr's callback words.
	"1161-vllm-rocm-hsa-exception-rewrapped.log": {
		"ranks": "three ranks' copies of every line interleaved: the three ranks' HSA faults lead one incident and rank 0's sticky 'unspecified launch failure' after it is that incident's consequence, but ranks 1 and 2's same line, with no rank named on the fault it follows, leads a second incident",
	},
	// heldout-12, right as posted since a column console's layout is
	// read (richlayout.go).
	"823-hf-connect-rich-console-wrapped-right-aligned-source.log": {
		"ranks": "three ranks' copies of every line interleaved: a column console's wrapped message is joined only while its record is the pending entry, and each rank's next line ends it, so the first record's 'Error in realtime:' leads unclassified",
	},
	// dev-14, paired since it came right alone (a cut caller's
	// traceback is the detail of the consequence before it).
	"1259-vllm-omni-engine-core-init-failed-apiserver-traceback.log + 126-abort-json-response-kvcache-prefill-dead.log": {
		"two-failures": "the first excerpt's vLLM lines make the whole log vLLM's, so sglang's own disagg-decode-transfer-failed record does not read the second's abort body (main reads the same text so too)",
	},
	// dev-15: the remedy line names the capture failure only in its own text.
	"1376-vllm-custom-allreduce-cuda-invalid-argument-zmq-enotsup.log + 1377-sglang-deepep-capture-cuda-graph-failed-solutions-tail.log": {
		"two-failures": "the second excerpt is only the unprefixed tail of an exception message, so after the serving lines its remedy lines are read as the last access line's wrapped continuation and the capture failure's remedy line is not read on its own",
	},
	// dev-12: measured before any change made for the batch.
	"1066-vllm-ascend-w8a8-deq-scale-keyerror-worker-died.log + 108-sgl-kernel-could-not-find-cuda-lib.log": {
		"two-failures": "the first excerpt ends inside the spawn process's traceback, so the second crash's 'RuntimeError: Could not find CUDA lib directory.' is read as that traceback's end and leads unclassified, not under sgl-kernel-cuda-lib-not-found",
	},
	// dev-8: measured before any change made for the batch.
	"866-vllm-engine-core-initialization-failed-short-traceback.log + 900-xinference-sigquit-virtualenv-failed-to-load-traceback-cut-in-actor.log": {
		"two-failures": "in one log with sglang's serving lines the short traceback is not detected as the other engine's, so its RuntimeError leads unclassified",
	},
	// Restart: the second copy reads otherwise than the first after the
	// restart's lines.
	"412-nvrm-xid13-sm-cga-exception-kernel-log.log": {
		"restart": "after the restart's lines the kernel log's ESR line of the second Xid is read as an exception of its own, which leads (not investigated further)",
	},
	"211-gloo-connectfullmesh-rank-prefix-then-scheduler.log + 213-loki-reversed-scheduler-exception-disagg-decode.log": {
		"two-failures": "both hold a 'Scheduler hit an exception' wrapper alone: one record from one source is one incident for a whole scan, and the second wrapper joins the first, the cause of the first crash",
	},
	// dev-4: measured before any change made for the batch.
	"783-nvcc-warnings-then-scheduler-exception-init-device-graphs-cut.log + 784-awq-numpy2-sigquit-line-between-prose.log": {
		"two-near": "the second excerpt is only the launcher's sigquit line, read within the correlation window after the first crash with no restart between: it joins that crash as its report of the death",
	},
	// heldout-13 (development since heldout-14): as posted torch_npu's
	// RuntimeError leads and CANN's EI0006 socket timeout joins it;
	// repeated after other lines the two part.
	"606-vllm-ascend-hccl-ei0006-socket-timeout-rank-prefix.log": {
		"restart": "after the restart's lines the second copy's torch_npu RuntimeError (HcclAllreduce, error code 6) pages as an unclassified incident of its own apart from CANN's EI0006 socket timeout line",
	},
	"605-nccl-tests-ib-completion-error-12-old-cu-paths.log + 606-vllm-ascend-hccl-ei0006-socket-timeout-rank-prefix.log": {
		"two-failures": "after another crash's lines the torch_npu RuntimeError (HcclAllreduce, error code 6) leads the second crash under npu-function-error, apart from CANN's EI0006 socket timeout line",
	},
	// heldout-18 (development since heldout-19): measured blind, not
	// tuned to; first read by this test once heldout-19 was held out.
	"1236-ik-llamacpp-compute-sanitizer-invalid-read-p2p.log + 1237-sglang-kernel-gb10-sm121-common-ops-missing.log": {
		"two-failures": "the first excerpt's llama.cpp lines make the whole log llama.cpp's, so sglang's own sgl-kernel-common-ops-load-failed record does not read the second's bare ImportError, which leads unclassified",
	},
	"1235-ollama-windows-ggml-cuda-ima-mul-mat.log + 1237-sglang-kernel-gb10-sm121-common-ops-missing.log": {
		"two-failures": "the first excerpt's Ollama and llama.cpp lines make the whole log Ollama's, so sglang's own sgl-kernel-common-ops-load-failed record does not read the second's bare ImportError, which leads unclassified",
	},
	// heldout-20 (development since heldout-21): measured blind, not
	// tuned to; first read by this test once heldout-21 was held out.
	"1413-trtllm-backend-json-parse-error-config-json-missing.log + 1415-k8s-gpu-operator-crashloop-last-state-oomkilled.log": {
		"two-failures": "after the first crash's lines and the serving lines the second's waiting state 'Reason: CrashLoopBackOff' leads under k8s-container-crashloop, ahead of the last state's OOMKilled",
	},
}

// Why a crash repeated after a restart is read wrong the second time.
const (
	restartGlued = "the second copy opens with a line without a header (a bare exception line, a Ray task error): after the restart's lines it is not read as a failure of its own (as behind the prefixes of knownShapeMisses)"
)

// Why a crash interleaved line by line with two other ranks' copies is
// read wrong: the entry layer reassembles each rank's lines by its prefix,
// and these shapes do not survive it.
const (
	ranksMissed = "the ranks' lines alternated, the failure line (unindented traceback, bare exception line, Rust frames without their panic line) alerts in no rank's copy"
)

// interleaveNow stands in for the clock: after every time of the corpus
// and of the lines the variants add, so that no log time is ahead of it
// (such a time is taken as now, which would put the parts of one log in one
// second).
var interleaveNow = time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)

// scanLater scans text as scanText does, at interleaveNow.
func scanLater(t *testing.T, m *matcher.Matcher, red *redact.Redactor, name, text string) scan.Result {
	t.Helper()
	s := scan.New(m, scan.Options{Entry: entry.Options{}, Redact: red.RedactAlert, Now: func() time.Time { return interleaveNow }})
	res, err := s.Scan(context.Background(), []scan.Input{{Name: name, R: strings.NewReader(text)}})
	if err != nil {
		t.Fatalf("scan %s: %v", name, err)
	}
	return res
}
