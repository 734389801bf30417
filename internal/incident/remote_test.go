package incident_test

import (
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
