package source

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These are measurements, not tests: they only run with
// LOGMATCH_MEASURE=1 and report figures (doc.go quotes them) without
// asserting any. LOGMATCH_MEASURE_POLL=250ms measures the tailer with the
// watch off, polling at that period.
func measureConfig(t *testing.T, paths ...string) Config {
	t.Helper()
	if os.Getenv("LOGMATCH_MEASURE") != "1" {
		t.Skip("set LOGMATCH_MEASURE=1 to measure")
	}
	cfg := Config{Paths: paths, Format: FormatRaw}
	if s := os.Getenv("LOGMATCH_MEASURE_POLL"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		cfg.NoWatch, cfg.PollInterval = true, d
	}
	return cfg
}

// TestMeasureLatency writes 300 numbered lines at irregular gaps (3 to
// 22 ms, so that a poll meets them at every phase) and reports the time
// from the start of each write to the Emit of its line.
func TestMeasureLatency(t *testing.T) {
	p := filepath.Join(t.TempDir(), "app.log")
	writeFile(t, p, "")
	cfg := measureConfig(t, p)
	tl, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	var sent, got [n]time.Time
	last := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- tl.Run(ctx, func(_ context.Context, l Line) error {
			at := time.Now()
			i, err := strconv.Atoi(l.Text[strings.LastIndexByte(l.Text, ' ')+1:])
			if err != nil {
				return err
			}
			got[i] = at
			if i == n-1 {
				close(last)
			}
			return nil
		})
	}()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	time.Sleep(300 * time.Millisecond)
	for i := range n {
		time.Sleep(time.Duration(3+i*7%20) * time.Millisecond)
		sent[i] = time.Now() // before: the line can be read before Write returns
		if _, err := fmt.Fprintf(f, "[2026-11-29 10:00:00 TP0] RuntimeError: line %d\n", i); err != nil {
			t.Fatal(err)
		}
	}
	<-last
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lat := make([]time.Duration, n)
	for i := range n {
		lat[i] = got[i].Sub(sent[i])
	}
	slices.Sort(lat)
	t.Logf("write -> Emit over %d lines: p50 %v, p90 %v, p99 %v, max %v", n, lat[n/2], lat[n*9/10], lat[n*99/100], lat[n-1])
}

// TestMeasureIdleCPU follows 4 quiet files for LOGMATCH_MEASURE_IDLE (60s
// by default) and reports the process's user+sys CPU over that time.
func TestMeasureIdleCPU(t *testing.T) {
	dir := t.TempDir()
	for i := range 4 {
		writeFile(t, filepath.Join(dir, "app"+strconv.Itoa(i)+".log"), numbered(1, 100))
	}
	cfg := measureConfig(t, filepath.Join(dir, "*.log"))
	span := 60 * time.Second
	if s := os.Getenv("LOGMATCH_MEASURE_IDLE"); s != "" {
		span, _ = time.ParseDuration(s)
	}
	tl, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	n := 0
	go func() { done <- tl.Run(ctx, func(context.Context, Line) error { n++; return nil }) }()
	time.Sleep(2 * time.Second) // read the files, settle
	before, start := cpuTime(t), time.Now()
	time.Sleep(span)
	used, wall := cpuTime(t)-before, time.Since(start)
	cancel()
	<-done
	t.Logf("idle with 4 quiet files (%d lines read at start): %v CPU (user+sys) in %v = %.4f%%", n, used, wall.Round(time.Millisecond), 100*used.Seconds()/wall.Seconds())
}

func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestMeasureFastRotation reports what the rename rotation every 0.2 s of
// TestRealFastRotation loses with the measured configuration (with
// LOGMATCH_MEASURE_POLL=250ms, a poll slower than the rotation).
func TestMeasureFastRotation(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.log")
	writeFile(t, p, "")
	cfg := measureConfig(t, p)
	l := startLive(t, cfg)
	out, err := exec.Command(requirePython(t), "testdata/rotating_writer.py", p, strconv.Itoa(fastLines), "0.005", "0.2").Output()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // past RotateWait: whatever can come has come
	l.stop(t)
	got := numbersOf(t, l.got.texts())
	lost, dups := lostAndDuplicated(got, fastLines)
	t.Logf("%s rollovers: %d of %d lines lost, %d duplicated; generations counted lost %d", strings.TrimSpace(string(out)), lost, fastLines, dups, l.obs.get(CountGenerationsLost))
}

// TestMeasureWriteLoad writes 20,000 lines a second for 3 s, one write per
// line, and reports the process's CPU (writer included) per line and the
// passes made: the cost the watch's wake-ups add under load.
func TestMeasureWriteLoad(t *testing.T) {
	p := filepath.Join(t.TempDir(), "app.log")
	writeFile(t, p, "")
	cfg := measureConfig(t, p)
	tl, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	passes := 0
	tl.afterPoll = func() { passes++ }
	const n = 60_000
	got := make(chan struct{})
	lines := 0
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- tl.Run(ctx, func(context.Context, Line) error {
			if lines++; lines == n {
				close(got)
			}
			return nil
		})
	}()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	time.Sleep(300 * time.Millisecond)
	before, start := cpuTime(t), time.Now()
	for i := range n {
		if _, err := fmt.Fprintf(f, "[2026-11-29 10:00:00 TP0] Decode batch. #running-req: 8, #token: %d, line %d\n", i*7, i); err != nil {
			t.Fatal(err)
		}
		if i%20 == 19 {
			time.Sleep(time.Until(start.Add(time.Duration(i+1) * time.Second / 20_000)))
		}
	}
	<-got
	used, wall := cpuTime(t)-before, time.Since(start)
	cancel()
	<-done
	t.Logf("%d lines in %v: %v CPU (writer included) = %.2f us per line; %d passes", n, wall.Round(time.Millisecond), used, float64(used.Microseconds())/n, passes)
}
