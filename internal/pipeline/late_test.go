package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/sinks"
)

// lateHeader is an sglang record header's time.
var lateHeader = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)`)

// lateVariant is text with every sglang record after the first moved gap
// later, behind two healthy access lines of its new second: a crash whose
// other processes report it seconds after its cause, while the server's
// healthy lines go on. False when text has fewer than two records.
func lateVariant(text string, gap time.Duration) (string, bool) {
	var b strings.Builder
	records := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if m := lateHeader.FindStringSubmatchIndex(l); m != nil {
			records++
			if records > 1 {
				if t, err := time.Parse("2006-01-02 15:04:05", l[m[2]:m[3]]); err == nil {
					ts := t.Add(gap).Format("2006-01-02 15:04:05")
					l = l[:m[2]] + ts + l[m[3]:]
					fmt.Fprintf(&b, "[%s] INFO:     10.0.3.17:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", ts)
					fmt.Fprintf(&b, "[%s] INFO:     10.0.3.17:51240 - \"GET /health HTTP/1.1\" 200 OK\n", ts)
				}
			}
		}
		b.WriteString(l)
	}
	return b.String(), records > 1
}

// Issue 32: one crash, one page, when its lines come seconds apart, in run
// as in scan. Every corpus excerpt with more than one sglang record is
// read with the records after its first 5, 25 and 45 seconds later, behind
// healthy lines (within consequence_wait, which bounds how long run holds
// a consequence printed before its cause, and beyond it, where run
// announces the consequence alone, then the cause, and scan, bound by the
// same wait, keeps them apart too): once by
// scan, once by run as a live server writes it
// (liveRun: each line read at its log time, the processor ticking every
// second of a fake clock). Both must announce the same incidents: run
// announces what it has when a settle time is over and cannot take it
// back, so this is where a late wrapper, a late consequence or another
// rank's late copy would page twice in run and once in scan.
func TestRunAndScanAgreeOnLateCrashes(t *testing.T) {
	if testing.Short() {
		t.Skip("reads corpus excerpts through run")
	}
	sc := corpusScanner(t)
	files, err := filepath.Glob(filepath.Join("../../testdata/corpus", "*.log"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no excerpts (%v)", err)
	}
	heldOut := heldOutFiles(t, "../../testdata/corpus")
	if len(heldOut) == 0 {
		t.Fatal("the corpus manifest names no held-out batch")
	}
	n, differ, pages := 0, 0, 0
	for _, file := range files {
		if heldOut[filepath.Base(file)] {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, gap := range []time.Duration{5 * time.Second, 25 * time.Second, 45 * time.Second} {
			text, ok := lateVariant(string(data), gap)
			if !ok {
				continue
			}
			res, err := sc.Scan(context.Background(), []scan.Input{{Name: "-", R: bytes.NewReader([]byte(text))}})
			if err != nil {
				t.Fatalf("%s: scan: %v", file, err)
			}
			want := diagnoses(res.Alerts)
			var got []string
			for _, a := range liveRun(t, []string{"--group-window", "1h"}, text) {
				got = append(got, diagnoses([]sinks.Alert{a.alert})...)
			}
			n++
			pages += len(got)
			if why := lateDiffer[fmt.Sprintf("%s +%v", filepath.Base(file), gap)]; why != "" {
				if slices.Equal(got, want) {
					t.Errorf("%s +%v: run and scan agree now: remove it from lateDiffer (%s)", filepath.Base(file), gap, why)
				}
				continue
			}
			if !slices.Equal(got, want) {
				differ++
				t.Errorf("%s +%v: run and scan differ\nrun:\n  %s\nscan:\n  %s", filepath.Base(file), gap, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		}
	}
	t.Logf("%d late variants compared, %d differ; run announced %d incidents", n, differ, pages)
}

// lateDiffer lists the late variants where run and scan knowingly
// disagree (excerpt and gap), with why.
var lateDiffer = map[string]string{
	"718-hicache-cudamemcpybatchasync-invalid-argument-scheduler.log +45s": "the excerpt opens with an undated traceback: " +
		"scan dates it by the first failure with a timestamp after it (the wrapper, 45 s after the healthy line that follows the " +
		"traceback, which the grouper never sees), and takes the wrapper as the report of its death; run dates it when it was read, " +
		"45 s before the wrapper, beyond the consequence wait, and pages the wrapper too",
	// heldout-23 (development since heldout-24): measured blind, not tuned to.
	"1613-vllm-ascend-npu-caching-allocator-oom-after-33h-chinese-title.log +5s":  npuDriverLineFirst,
	"1613-vllm-ascend-npu-caching-allocator-oom-after-33h-chinese-title.log +25s": npuDriverLineFirst,
	"1613-vllm-ascend-npu-caching-allocator-oom-after-33h-chinese-title.log +45s": npuDriverLineFirst,
}

// npuDriverLineFirst is why run and scan differ on 1613 at every gap.
const npuDriverLineFirst = "held out: the excerpt's first record is the NPU driver's unclassified '[drv api]halMemCreate failed ...' " +
	"line, and the torch.OutOfMemoryError that npu-function-error reads is a later record: scan takes the driver line into " +
	"that incident, run pages the driver line alone, unclassified, before the OutOfMemoryError comes 5 s or more later"

// heldOutFiles names the excerpts of the corpus's newest held-out batch
// (the "heldout-N" batch of the largest N in its manifest): that batch is
// kept for measuring recognition blind, and only the corpus test reads it.
func heldOutFiles(t *testing.T, dir string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	batchOf := map[string]string{}
	newest, newestN := "", -1
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var e struct {
			File  string `json:"file"`
			Batch string `json:"batch"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%s:%d: %v", filepath.Join(dir, "manifest.jsonl"), i+1, err)
		}
		batchOf[e.File] = e.Batch
		if n, err := strconv.Atoi(strings.TrimPrefix(e.Batch, "heldout-")); err == nil && strings.HasPrefix(e.Batch, "heldout-") && n > newestN {
			newest, newestN = e.Batch, n
		}
	}
	out := map[string]bool{}
	for file, batch := range batchOf {
		if newest != "" && batch == newest {
			out[file] = true
		}
	}
	return out
}

// Issue 32: a wrapper printed seconds before its cause (a writer's buffer
// put the scheduler's "Scheduler hit an exception:", its traceback cut,
// before the traceback of the rank that failed first) is one page, led by
// the cause, in run as in scan. A cause printed after a minute of serving
// is another failure, and the wrapper pages alone in both.
func TestWrapperBeforeItsCauseIsOnePage(t *testing.T) {
	sc := corpusScanner(t)
	crash := func(gap time.Duration, serving int) string {
		t0 := time.Date(2026, 5, 28, 0, 11, 9, 0, time.UTC)
		stamp := func(d time.Duration) string { return t0.Add(d).Format("2006-01-02 15:04:05") }
		var b strings.Builder
		fmt.Fprintf(&b, "[%s TP0] Scheduler hit an exception: Traceback (most recent call last):\n", stamp(0))
		b.WriteString("  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2001, in run_scheduler_process\n")
		b.WriteString("    scheduler.event_loop_overlap()\n")
		for i := range serving {
			fmt.Fprintf(&b, "[%s] INFO:     10.0.3.17:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", stamp(gap*time.Duration(i)/time.Duration(serving)), 50000+i)
		}
		fmt.Fprintf(&b, "[%s TP1] Scheduler hit an exception: Traceback (most recent call last):\n", stamp(gap))
		b.WriteString("  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2001, in run_scheduler_process\n")
		b.WriteString("    scheduler.event_loop_overlap()\n")
		b.WriteString("  File \"/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py\", line 1200, in forward\n")
		b.WriteString("    return self.forward_decode(forward_batch)\n")
		b.WriteString("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which 1.06 GiB is free.\n")
		return b.String()
	}
	for _, tc := range []struct {
		name    string
		gap     time.Duration
		serving int
		pages   int
	}{
		{"five seconds before, two healthy lines between", 5 * time.Second, 2, 1},
		{"a minute before, a minute of serving between", time.Minute, 60, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := crash(tc.gap, tc.serving)
			res, err := sc.Scan(context.Background(), []scan.Input{{Name: "-", R: strings.NewReader(text)}})
			if err != nil {
				t.Fatal(err)
			}
			want := diagnoses(res.Alerts)
			var got []string
			for _, a := range liveRun(t, []string{"--group-window", "1h"}, text) {
				got = append(got, diagnoses([]sinks.Alert{a.alert})...)
			}
			if len(want) != tc.pages || !slices.Equal(got, want) {
				t.Errorf("run:\n  %s\nscan:\n  %s\nwant %d pages in both", strings.Join(got, "\n  "), strings.Join(want, "\n  "), tc.pages)
			}
			if tc.pages == 1 && len(res.Alerts) == 1 && (res.Alerts[0].Record.Slug == "scheduler-hit-an-exception" || len(res.Alerts[0].Context) == 0) {
				t.Errorf("the page is led by %s with context %v, want the cause with the wrapper as its context", res.Alerts[0].Record.Slug, res.Alerts[0].Context)
			}
		})
	}
}
