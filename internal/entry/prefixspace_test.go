package entry

import (
	"fmt"
	"strings"
	"testing"
)

// A dump that opens with indented frame lines teaches a tag's shape with
// the space the indentation put after its colon; the thread header and
// the blank line after the same tag, with no space, carry the same
// prefix, under an MPI tag and grep -n's line number.
func TestTagShapeFitsLinesWithoutTheSpace(t *testing.T) {
	dump := []string{
		`  File "/usr/lib/python3.10/threading.py", line 1016 in _bootstrap_inner`,
		`  File "/usr/lib/python3.10/threading.py", line 973 in _bootstrap`,
		``,
		`Thread 0x00007fe403b964c0 (most recent call first):`,
		`  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 2425 in broadcast`,
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 1825 in run_scheduler_process`,
	}
	for name, tag := range map[string]func(int) string{
		"mpirun":  func(int) string { return "[1,3]<stderr>:" },
		"grep -n": func(n int) string { return fmt.Sprint(1812+n) + ":" },
	} {
		var lines []string
		for i, l := range dump {
			lines = append(lines, tag(i)+l)
		}
		es := assemble(t, Options{}, strings.Join(lines, "\n"))
		var dumps int
		for _, e := range es {
			if e.Native == NativeFaulthandler && strings.HasPrefix(e.Text, "Thread 0x00007fe403b964c0") {
				dumps++
			}
		}
		if dumps != 1 {
			var got []string
			for _, e := range es {
				got = append(got, fmt.Sprintf("%q (%s)", e.Text, e.Native))
			}
			t.Errorf("%s: want the thread's dump read without its tag, got %s", name, strings.Join(got, ", "))
		}
	}
}

// A learned shape with its space still wants the space where the line
// has one more: "[1,3]<stderr>:  x" keeps its indentation past the tag.
func TestTagShapeWithoutTheSpaceKeepsIndentation(t *testing.T) {
	var pl prefixLearner
	pl.learn([]byte("[\x01,\x01]<stderr>: "))
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"[1,3]<stderr>: x", 15},
		{"[1,3]<stderr>:x", 14},
		{"[1,3]<stderr>:", 14},
		{"[1,3]<stderr>:  x", 15},
		{"[1,3]<stdout>:x", 0},
	} {
		if got := pl.match(tt.in); got != tt.want {
			t.Errorf("match(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
