package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
)

// freePort returns a loopback address nothing listens on now, for a
// logmatch that must come back on the same address after kill -9.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Issue 38: a shipper pushes numbered failures to the Loki push API and
// retries every push that got no 2xx, as Promtail does; logmatch is
// killed with SIGKILL in the middle and started again on the same state
// directory. No failure whose push was acknowledged, or retried until it
// was, is lost; a retried push that was committed before the kill is not
// read again (what repeats is a sink's delivery the kill cut short).
func TestLokiPushKill9Retry(t *testing.T) {
	h := newHarness(t)
	addr := freePort(t)
	start := func() *proc {
		// No --path: the pushes are the only input.
		args := []string{"run", "--no-default-catalog", "--catalog", h.catalog, "--state-dir", h.state,
			"--group-window", "0", "--http-addr", addr, "--accept", "loki"}
		p := &proc{cmd: exec.Command(binary, args...), done: make(chan error, 1)}
		h.collect(p)
		return p
	}
	first := start()

	const pushes, perPush = 60, 5
	var acked atomic.Int64
	var retries atomic.Int64
	clientDone := make(chan error, 1)
	go func() {
		labels := []ingest.Label{{Name: "namespace", Value: "ml"}, {Name: "pod", Value: "sglang-0"}}
		for i := range pushes {
			var lines []string
			for j := range perPush {
				n := i*perPush + j + 1
				// A failure and the progress line after it: the
				// failure's entry is complete within its push.
				lines = append(lines,
					fmt.Sprintf("[2026-05-28 00:11:09 TP0] Synthetic failure #%d in request", n),
					"[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12, #token: 4096, token usage: 0.31")
			}
			body := pushtest.Protobuf([]ingest.PushStream{{Labels: labels, Entries: pushtest.Entries(time.Now(), lines)}})
			deadline := time.Now().Add(90 * time.Second)
			for {
				resp, err := http.Post("http://"+addr+"/loki/api/v1/push", "application/x-protobuf", bytes.NewReader(body))
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode/100 == 2 {
						break
					}
				}
				if time.Now().After(deadline) {
					clientDone <- fmt.Errorf("push %d never acknowledged: %v", i, err)
					return
				}
				retries.Add(1)
				time.Sleep(50 * time.Millisecond)
			}
			acked.Add(1)
		}
		clientDone <- nil
	}()

	// Kill once a third of the pushes were acknowledged.
	for deadline := time.Now().Add(60 * time.Second); acked.Load() < pushes/3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.done
	killedAt := acked.Load()
	second := start()
	if err := <-clientDone; err != nil {
		t.Fatalf("%v\nlog:\n%s", err, second.logs())
	}
	second.waitFor(t, 1, pushes*perPush, 30*time.Second)
	second.stop(t)

	total := map[int]int{}
	for _, p := range []*proc{first, second} {
		for n, c := range p.numbers() {
			total[n] += c
		}
	}
	var missing []int
	repeats := 0
	for n := 1; n <= pushes*perPush; n++ {
		if total[n] == 0 {
			missing = append(missing, n)
		}
		repeats += max(total[n]-1, 0)
	}
	if len(missing) > 0 {
		t.Fatalf("after kill -9 at push %d: failures never alerted %v (%d retries)\nlog:\n%s", killedAt, missing, retries.Load(), second.logs())
	}
	t.Logf("killed after %d of %d pushes acknowledged; %d retries; first run alerted %d failures, the restart %d; %d alerted twice",
		killedAt, pushes, retries.Load(), len(first.numbers()), len(second.numbers()), repeats)
}

// A push whose last lines leave an entry open (a traceback whose end is in
// the shipper's next batch) is acknowledged once those lines are in
// state.db; logmatch is killed with SIGKILL right after the answer, and
// the next push, sent to the restarted logmatch, completes the entry. Its
// alert comes once, with the whole traceback, and a retry of the
// acknowledged push (its answer lost) is not read again.
func TestLokiPushOpenEntryKill9(t *testing.T) {
	h := newHarness(t)
	addr := freePort(t)
	// The idle flush is long: the entry stays open until the next push.
	cfg := filepath.Join(h.dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("entry:\n  idle_flush: 10m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := func() *proc {
		args := []string{"run", "--no-default-catalog", "--catalog", h.catalog, "--state-dir", h.state, "--config", cfg,
			"--group-window", "0", "--http-addr", addr, "--accept", "loki"}
		p := &proc{cmd: exec.Command(binary, args...), done: make(chan error, 1)}
		h.collect(p)
		return p
	}
	labels := []ingest.Label{{Name: "namespace", Value: "ml"}, {Name: "pod", Value: "sglang-0"}}
	t0 := time.Now()
	push := func(lines ...string) []byte {
		body := pushtest.Protobuf([]ingest.PushStream{{Labels: labels, Entries: pushtest.Entries(t0, lines)}})
		t0 = t0.Add(time.Second)
		return body
	}
	send := func(body []byte) int {
		deadline := time.Now().Add(30 * time.Second)
		for {
			resp, err := http.Post("http://"+addr+"/loki/api/v1/push", "application/x-protobuf", bytes.NewReader(body))
			if err == nil {
				resp.Body.Close()
				return resp.StatusCode
			}
			if time.Now().After(deadline) {
				t.Fatalf("push: %v", err)
			}
			time.Sleep(50 * time.Millisecond) // until the listener is up
		}
	}
	first := start()
	head := push(
		"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2580, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
	)
	if code := send(head); code != http.StatusNoContent {
		t.Fatalf("first push: %d", code)
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.done
	second := start()
	// The shipper never got the first answer: it sends the push again.
	if code := send(head); code != http.StatusNoContent {
		t.Fatalf("retried push: %d", code)
	}
	if code := send(push(
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1130, in event_loop_overlap`,
		"RuntimeError: Synthetic failure #1 in request",
		"[2026-05-28 00:11:10 TP0] Decode batch, #running-req: 12, #token: 4096, token usage: 0.31",
	)); code != http.StatusNoContent {
		t.Fatalf("second push: %d", code)
	}
	second.waitFor(t, 1, 1, 30*time.Second)
	second.stop(t)
	if n := first.numbers()[1] + second.numbers()[1]; n != 1 {
		t.Fatalf("failure #1 alerted %d times, want once\nfirst log:\n%s\nsecond log:\n%s", n, first.logs(), second.logs())
	}
	second.mu.Lock()
	defer second.mu.Unlock()
	for _, a := range second.alerts {
		if a.Match.Groups["1"] == "1" && (!strings.Contains(a.Entry, "Scheduler hit an exception") || !strings.Contains(a.Entry, "event_loop_overlap()") || !strings.Contains(a.Entry, "RuntimeError")) {
			t.Fatalf("the alert's entry is not the whole traceback:\n%s", a.Entry)
		}
	}
}
