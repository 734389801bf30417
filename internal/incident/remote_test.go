package incident_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestACarriedFailureLeadsItsRemoteWrapper: a caller that waited on a
// worker or a remote task raises an exception that only carries the
// worker's failure (Ray's "RayTaskError(X)", a pool's RemoteTraceback, any
// class named after the exception it wraps), and the worker's own
// traceback is printed beside it, before or after. One crash, one
// incident, led as the carried failure alone is led; the wrapper alone is
// still alerted.
func TestACarriedFailureLeadsItsRemoteWrapper(t *testing.T) {
	m := crashMatcher(t)
	driver := func(wrapper string) []string {
		return []string{
			"Traceback (most recent call last):",
			`  File "/srv/app/driver.py", line 88, in main`,
			"    results = wait_all(handles)",
			`  File "/srv/app/driver.py", line 41, in wait_all`,
			"    return [h.result() for h in handles]",
			wrapper,
		}
	}
	carried := []struct {
		name  string
		lines []string
	}{
		{"an exception no record names", []string{
			"Traceback (most recent call last):",
			`  File "/srv/app/shards.py", line 17, in load_shard`,
			"    meta = index[shard_id]",
			"KeyError: 'shard-0007'",
		}},
		{"a classified CUDA OOM", []string{
			"Traceback (most recent call last):",
			`  File "/srv/app/train.py", line 210, in step`,
			"    loss = model(batch).loss",
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.20 GiB is free.",
		}},
	}
	wrappers := []struct {
		name, line string
	}{
		{"Ray's task error", "ray.exceptions.RayTaskError(%s): ray::Trainer.step() (pid=4242, ip=10.0.0.5)"},
		{"a class named after what it wraps", "jobs.remote.WorkerError(%s): job 7 failed on worker-2"},
		{"a pool's remote traceback", "multiprocessing.pool.RemoteTraceback: the worker of job 7 raised %s"},
		// A driver's traceback cut right after the frame that re-raised
		// the remote failure: its exception line lost.
		{"a cut re-raise", `  File "/usr/lib/python3/site-packages/actorlib/context.py", line 111, in _result` + "\n" +
			"    raise message.as_instanceof_cause()"},
	}
	for _, c := range carried {
		alone := scanLines(t, m, c.lines)
		if len(alone) != 1 {
			t.Fatalf("%s alone: %d incidents:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		typ := c.lines[len(c.lines)-1]
		typ = typ[strings.LastIndexByte(typ[:strings.Index(typ, ":")], '.')+1 : strings.Index(typ, ":")]
		for _, w := range wrappers {
			wrapped := driver(strings.Replace(w.line, "%s", typ, 1))
			if !strings.Contains(w.line, "%s") {
				wrapped = append(wrapped[:len(wrapped)-1], strings.Split(w.line, "\n")...)
			}
			for _, order := range []string{"wrapper first", "carried first"} {
				var lines []string
				if order == "wrapper first" {
					lines = append(append(lines, wrapped...), c.lines...)
				} else {
					lines = append(append(lines, c.lines...), wrapped...)
				}
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s under %s, %s: want one incident led by %s, got %d:%s\n%s",
						c.name, w.name, order, want, len(got), describe(got), strings.Join(lines, "\n"))
				}
			}
			if got := scanLines(t, m, wrapped); len(got) != 1 {
				t.Errorf("%s alone: %d incidents, want 1:%s", w.name, len(got), describe(got))
			}
		}
	}
}

// TestAReraisedExceptionIsOneIncident: the failure a worker raised is
// raised again by the caller that waited on it (a future's result, a
// pool's map, a remote call's client), and both tracebacks are printed, the
// worker's first, each with its own frames and the same exception line.
// One failure, one incident, led by where it was raised; two exceptions
// that say different things stay two incidents, and so does the same one
// raised again after a stretch of healthy serving.
func TestAReraisedExceptionIsOneIncident(t *testing.T) {
	m := crashMatcher(t)
	raised := func(at, file, fn, call, exc string) []string {
		return []string{
			"[2025-06-01 " + at + "] Traceback (most recent call last):",
			`  File "/srv/app/` + file + `", line 52, in ` + fn,
			"    " + call,
			exc,
		}
	}
	for _, tt := range []struct {
		name      string
		worker    string // the worker's exception line
		caller    string // the caller's
		separated bool
		want      int
	}{
		{"a future's result", "ValueError: shard index 7 is out of range for 4 shards", "ValueError: shard index 7 is out of range for 4 shards", false, 1},
		{"a pool's map", "KeyError: 'input_ids'", "KeyError: 'input_ids'", false, 1},
		{"a remote call's client", "mylib.errors.QuotaError: tenant t-17 exceeded 500 requests per minute", "mylib.errors.QuotaError: tenant t-17 exceeded 500 requests per minute", false, 1},
		{"another message", "ValueError: shard index 7 is out of range for 4 shards", "ValueError: shard index 9 is out of range for 4 shards", false, 2},
		{"another type", "KeyError: 'input_ids'", "IndexError: 'input_ids'", false, 2},
		{"after healthy serving", "KeyError: 'input_ids'", "KeyError: 'input_ids'", true, 2},
	} {
		lines := raised("12:00:01", "worker.py", "run_task", "return index[key]", tt.worker)
		at := "12:00:01"
		if tt.separated {
			for k := 0; k < 20; k++ {
				lines = append(lines, fmt.Sprintf("[2025-06-01 12:%02d:00] Decode batch. #running-req: 3, #token: 901, token usage: 0.01, gen throughput (token/s): 88.10", 10+k))
			}
			at = "12:40:01"
		}
		lines = append(lines, raised(at, "driver.py", "main", "out = [f.result() for f in futures]", tt.caller)...)
		got := scanLines(t, m, lines)
		if len(got) != tt.want {
			t.Errorf("%s: %d incidents, want %d:%s", tt.name, len(got), tt.want, describe(got))
			continue
		}
		if lead := leadOf(got[0]); lead != "unclassified "+tt.worker {
			t.Errorf("%s: led by %s, want the worker's %s", tt.name, lead, tt.worker)
		}
	}
}

// TestAnotherRanksLinesDoNotHideWhatFollowedTheCause: three ranks print
// the same classified cause and, after it, the exception the request
// raised on its way down, their lines interleaved under each rank's
// prefix. Each rank's exception began after the cause did: all are listed
// in the cause's one incident, though the other ranks' copies of the
// cause, read as whole entries only later, run past them.
func TestAnotherRanksLinesDoNotHideWhatFollowedTheCause(t *testing.T) {
	m := crashMatcher(t)
	block := []string{
		"Traceback (most recent call last):",
		`File "/srv/app/model.py", line 40, in forward`,
		"hidden = self.mlp(hidden)",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.25 GiB is free.",
		"[06-01 12:00:04] Request failed: the batch produced no tokens.",
		"Traceback (most recent call last):",
		`File "/srv/app/handler.py", line 90, in generate`,
		`raise RuntimeError("the batch produced no tokens")`,
		"RuntimeError: the batch produced no tokens",
	}
	ranks := []string{"[rank0]:", "[rank1]:", "[rank2]:"}
	var lines []string
	for _, l := range block {
		for _, r := range ranks {
			lines = append(lines, r+l)
		}
	}
	alone := scanLines(t, m, block[:4])
	if len(alone) != 1 {
		t.Fatalf("the cause alone: %d incidents:%s", len(alone), describe(alone))
	}
	got := scanLines(t, m, lines)
	if len(got) != 1 || leadOf(got[0]) != leadOf(alone[0]) {
		t.Errorf("want one incident led by %s, got %d:%s\n%s", leadOf(alone[0]), len(got), describe(got), strings.Join(lines, "\n"))
	}
}

// TestAReraisedExceptionOfInterleavedRanksIsOneIncident: two ranks each
// print the worker's traceback and the caller's re-raise of it, their
// lines interleaved under each rank's prefix: one failure, one incident,
// though the other rank's copy of the worker's traceback runs past this
// rank's re-raise.
func TestAReraisedExceptionOfInterleavedRanksIsOneIncident(t *testing.T) {
	m := crashMatcher(t)
	block := []string{
		"Traceback (most recent call last):",
		`  File "/srv/app/worker.py", line 52, in run_task`,
		"    return index[key]",
		"KeyError: 'tokenizer_config'",
		"Traceback (most recent call last):",
		`  File "/srv/app/driver.py", line 52, in main`,
		"    out = [f.result() for f in futures]",
		"KeyError: 'tokenizer_config'",
	}
	var lines []string
	for _, l := range block {
		for _, r := range []string{"[rank0]: ", "[rank1]: "} {
			lines = append(lines, r+l)
		}
	}
	if got := scanLines(t, m, lines); len(got) != 1 {
		t.Errorf("%d incidents, want 1:%s\n%s", len(got), describe(got), strings.Join(lines, "\n"))
	}
}
