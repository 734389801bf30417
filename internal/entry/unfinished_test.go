package entry

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cutView is what TestAssemblerUnfinishedTraceback checks of an entry.
type cutView struct {
	Lines      string
	Unfinished bool
	Frames     []Frame // of the last link
	Links      int
}

// TestAssemblerUnfinishedTraceback: a traceback that stops before its
// exception line (the process killed mid-write, the output cut) is still
// one entry, whatever comes after it, with its frames parsed, the last
// one even when its own line was cut.
func TestAssemblerUnfinishedTraceback(t *testing.T) {
	const (
		srtHead = "[2025-01-16 10:11:13 TP1] Scheduler hit an exception: Traceback (most recent call last):"
		f1      = `  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`
		s1      = "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)"
		f2      = `  File "/sgl/python/sglang/srt/model_executor/model_runner.py", line 200, in load_model`
		s2      = "    self.model = get_model("
	)
	fr1 := Frame{"/sgl/python/sglang/srt/managers/scheduler.py", 2345, "run_scheduler_process"}
	fr2 := Frame{"/sgl/python/sglang/srt/model_executor/model_runner.py", 200, "load_model"}
	tests := []struct {
		name string
		in   []string
		want []cutView
	}{
		{"record killed, then the shell", []string{srtHead, f1, s1, f2, s2, "Killed"},
			[]cutView{{"1-5", true, []Frame{fr1, fr2}, 1}, {"6-6", false, nil, 0}}},
		{"record cut at the end of the output", []string{srtHead, f1, s1, f2},
			[]cutView{{"1-4", true, []Frame{fr1, fr2}, 1}}},
		{"record cut, then another rank's record", []string{srtHead, f1, s1, "[2025-01-16 10:11:13 TP0] Scheduler hit an exception: Traceback (most recent call last):", f1},
			[]cutView{{"1-3", true, []Frame{fr1}, 1}, {"4-5", true, []Frame{fr1}, 1}}},
		{"raw traceback, last frame line cut", []string{"Traceback (most recent call last):", f1, s1, `  File "/sgl/python/sglang/srt/model_loader/loader.py", li`},
			[]cutView{{"1-4", true, []Frame{fr1, {File: "/sgl/python/sglang/srt/model_loader/loader.py"}}, 1}}},
		{"raw traceback, line number cut", []string{"Traceback (most recent call last):", f1, `  File "/sgl/x.py", line 12`},
			// A complete SyntaxError-style frame: the number stays.
			[]cutView{{"1-3", true, []Frame{fr1, {File: "/sgl/x.py", Line: 12}}, 1}}},
		{"raw traceback, function cut", []string{"Traceback (most recent call last):", f1, `  File "/sgl/x.py", line 12, i`},
			[]cutView{{"1-3", true, []Frame{fr1, {File: "/sgl/x.py", Line: 12}}, 1}}},
		{"raw traceback cut, then a glog line", []string{"Traceback (most recent call last):", f1, s1, "E0116 10:11:14.123456 77969 transfer_metadata_plugin.cpp:173] failed"},
			[]cutView{{"1-3", true, []Frame{fr1}, 1}, {"4-4", false, nil, 0}}},
		{"second section cut", []string{"Traceback (most recent call last):", f1, "KeyError: 'k'", "", "During handling of the above exception, another exception occurred:", "", "Traceback (most recent call last):", f2, s2},
			[]cutView{{"1-9", true, []Frame{fr2}, 2}}},
		{"cut in the middle of a frame's path is no frame", []string{"Traceback (most recent call last):", f1, `  File "/sgl/pyth`},
			[]cutView{{"1-3", true, []Frame{fr1}, 1}}},
		// A finished traceback is not.
		{"finished", []string{"Traceback (most recent call last):", f1, "RuntimeError: x"},
			[]cutView{{"1-3", false, []Frame{fr1}, 1}}},
	}
	for _, tt := range tests {
		var got []cutView
		for _, e := range assemble(t, Options{}, strings.Join(tt.in, "\n")) {
			v := cutView{Lines: views([]Entry{e})[0].Lines}
			if e.Traceback != nil {
				v.Unfinished = e.Traceback.Unfinished()
				v.Frames = e.Traceback.Outermost().Frames
				v.Links = len(e.Traceback.Links)
			}
			got = append(got, v)
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
	}
}

func TestParsePartialFrame(t *testing.T) {
	tests := []struct {
		in   string
		want *Frame
	}{
		{`File "/a.py"`, &Frame{File: "/a.py"}},
		{`File "/a.py",`, &Frame{File: "/a.py"}},
		{`File "/a.py", li`, &Frame{File: "/a.py"}},
		{`File "/a.py", line 1`, &Frame{File: "/a.py"}},
		{`File "/a.py", line 12,`, &Frame{File: "/a.py", Line: 12}},
		{`File "/a.py", line 12, in`, &Frame{File: "/a.py", Line: 12}},
		{`File "/a.py`, nil},
		{`File ""`, nil},
		{`File "/a.py" something`, nil},
		{`File "/a.py", line x`, nil},
		{`File "/a.py", line 12; in f`, nil},
		{`Files "/a.py"`, nil},
	}
	for _, tt := range tests {
		f, ok := parsePartialFrame(tt.in)
		if ok != (tt.want != nil) || ok && f != *tt.want {
			t.Errorf("parsePartialFrame(%q) = %+v, %v; want %+v", tt.in, f, ok, tt.want)
		}
	}
}

// FuzzParsePartialFrame checks that a cut frame's file is a part of the
// line, read from behind its opening quote.
func FuzzParsePartialFrame(f *testing.F) {
	for _, s := range []string{`File "/a.py", li`, `File "/a.py", line 12, i`, `File "/a`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fr, ok := parsePartialFrame(s)
		if !ok {
			return
		}
		if fr.File == "" || !strings.HasPrefix(s, `File "`+fr.File+`"`) || fr.Line < 0 || fr.Func != "" {
			t.Fatalf("parsePartialFrame(%q) = %+v", s, fr)
		}
	})
}
