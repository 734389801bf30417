package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

func TestStartsWithErrorWord(t *testing.T) {
	for msg, want := range map[string]bool{
		"Error: no such file":        true,
		"ERROR: model not found":     true,
		"[ERROR] launch failed":      true,
		"FATAL: out of memory":       true,
		"Fatal error: killed":        true,
		"CRITICAL: gone":             true,
		"Decode batch, #running-req": false,
		"Errors: 0":                  false,
		"[INFO] ready":               false,
		"Failed to load":             false,
		"C":                          false,
		"":                           false,
	} {
		if got := startsWithErrorWord(msg); got != want {
			t.Errorf("startsWithErrorWord(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestHTTPErrorStatus(t *testing.T) {
	for msg, want := range map[string]bool{
		"< HTTP/1.1 400 Bad Request":              true,
		"< HTTP/1.1 500 Internal Server Error":    true,
		"< HTTP/2 503 ":                           true,
		"HTTP/1.0 422 Unprocessable Entity":       true,
		"HTTP/2 502":                              true,
		"< HTTP/1.1 200 OK":                       false,
		"< HTTP/2 307 Temporary Redirect":         false,
		"> POST /v1/chat/completions HTTP/1.1":    false,
		"HTTP/1.1 4000 lines":                     false,
		"HTTP/x 400 Bad Request":                  false,
		"HTTP/1.1400 Bad Request":                 false,
		"< http/1.1 400 bad request":              false,
		"HTTP error 400 is retried by the client": false,
		"<": false,
		"":  false,
	} {
		if got := httpErrorStatus(msg); got != want {
			t.Errorf("httpErrorStatus(%q) = %v, want %v", msg, got, want)
		}
	}
}

// levelSeverity answers the assembler's common levels without mapping
// them; every word must still get what its normalised form states.
func TestLevelSeverity(t *testing.T) {
	for l, want := range map[string]patterns.Severity{
		"":         "",
		"INFO":     "",
		"info":     "",
		"DEBUG":    "",
		"TRACE":    "",
		"WARNING":  patterns.SeverityWarning,
		"warn":     patterns.SeverityWarning,
		"W":        patterns.SeverityWarning,
		"ERROR":    patterns.SeverityError,
		"err":      patterns.SeverityError,
		"E":        patterns.SeverityError,
		"CRITICAL": patterns.SeverityCritical,
		"crit":     patterns.SeverityCritical,
		"FATAL":    patterns.SeverityCritical,
		"F":        patterns.SeverityCritical,
		"panic":    patterns.SeverityCritical,
	} {
		if got := levelSeverity(l); got != want {
			t.Errorf("levelSeverity(%q) = %q, want %q", l, got, want)
		}
	}
}

// quiet must never call an entry without a traceback quiet when signalOf
// gives it a signal: every format, level word and message opening below,
// and every entry of the example and test logs.
func TestQuietAgreesWithSignalOf(t *testing.T) {
	formats := []entry.Format{entry.FormatNone, entry.FormatSRT, entry.FormatLegacy, entry.FormatDiffusion,
		entry.FormatUvicorn, entry.FormatNative, entry.FormatDynamo, entry.FormatPython, entry.FormatRouter}
	levels := []string{"", "TRACE", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "FATAL", "info", "E", "W", "F", "panic"}
	msgs := []string{"", "Decode batch, #running-req: 1", "Error: x", "ERROR: x", "[ERROR] x", "FATAL: x",
		"Fatal error: x", "CRITICAL: x", "Errors: 0", "[INFO] x", "Failed to load", "C", "E", "F", "[",
		"< HTTP/1.1 400 Bad Request", "HTTP/2 503", "< HTTP/1.1 200 OK", "H", "<"}
	check := func(e *entry.Entry) {
		t.Helper()
		if e.Traceback != nil || !quiet(e) {
			return
		}
		if sig, sev := signalOf(e); sig != "" || sev != "" {
			t.Errorf("quiet(format %q level %q native %q message %q), yet signalOf gives %q %q",
				e.Format, e.Level, e.Native, e.Message, sig, sev)
		}
	}
	for _, f := range formats {
		for _, l := range levels {
			for _, m := range msgs {
				for _, n := range []string{"", entry.NativeShell, entry.NativeNCCL} {
					check(&entry.Entry{Format: f, Level: l, Message: m, Text: m, Native: n})
				}
			}
		}
	}
	paths := repoLogs(t)
	n := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a := entry.NewAssembler(entry.Options{})
		var es []entry.Entry
		for i, l := range strings.Split(string(b), "\n") {
			es = append(es, a.Push(entry.Line{Text: l, Offset: int64(i)})...)
		}
		for _, e := range append(es, a.Flush()...) {
			check(&e)
			n++
		}
	}
	t.Logf("%d entries of %d logs", n, len(paths))
}

// assembleOne assembles text and returns its entries.
func assembleAll(text string) []entry.Entry {
	a := entry.NewAssembler(entry.Options{})
	var es []entry.Entry
	for i, l := range strings.Split(text, "\n") {
		es = append(es, a.Push(entry.Line{Text: l, Offset: int64(i + 1)})...)
	}
	return append(es, a.Flush()...)
}

// TestFramesAlone: the middle of a traceback, with neither its header nor
// its exception line, is an exception's signal when its frames are a
// traceback's own with their source lines, indented or not, behind a
// paste's doubled line breaks too; a faulthandler or py-spy dump, a logged
// stack and frames without any source line are not.
func TestFramesAlone(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"indented frames with source and carets",
			"  File \"/sgl/python/sglang/srt/model_loader/loader.py\", line 437, in load_model\n    self.load_weights_and_postprocess(\n  File \"/sgl/python/sglang/srt/models/qwen3.py\", line 493, in load_weights\n    param = params_dict[name]\n            ~~~~~~~~~~~^^^^^^",
			true},
		{"unindented frames", "File \"/sgl/sglang/srt/models/qwen3.py\", line 493, in load_weights\n    param = params_dict[name]", true},
		// sglang#12190: a paste that stripped every line's
		// indentation, Python's caret lines under the sources.
		{"every line flush left, carets under the sources",
			"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 2777, in run_scheduler_process\nscheduler.event_loop_normal()\n" +
				"File \"/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py\", line 120, in decorate_context\nreturn func(*args, **kwargs)\n^^^^^^^^^^^^^^^^^^^^^\n" +
				"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 1624, in get_next_batch_to_run\nnew_batch = self.prepare_mlp_sync_batch(new_batch)\n^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
			true},
		{"a loader's frames flush left, tildes and carets under the source",
			"File \"/sgl/python/sglang/srt/model_loader/loader.py\", line 437, in load_model\nself.load_weights_and_postprocess(\nFile \"/sgl/python/sglang/srt/models/qwen3.py\", line 493, in load_weights\nparam = params_dict[name]\n~~~~~~~~~~~^^^^^^",
			true},
		{"frames flush left without a source line", "File \"/sgl/sglang/srt/models/qwen3.py\", line 493, in load_weights\nFile \"/sgl/sglang/srt/models/qwen3.py\", line 12, in f", false},
		{"one frame, a doubled line break", "  File \"/sgl/sglang/srt/models/deepseek_vl2.py\", line 252, in load_weights\n\n    param = params_dict[name]", true},
		{"faulthandler frames", "  File \"/sgl/sglang/srt/managers/scheduler.py\", line 1984 in run_scheduler_process\n  File \"/usr/lib/python3.10/multiprocessing/process.py\", line 108 in run", false},
		{"frames without source", "  File \"<frozen importlib._bootstrap>\", line 1027, in _find_and_load\n  File \"<frozen importlib._bootstrap>\", line 1006, in _find_and_load_unlocked", false},
		{"a logged stack", "Stack (most recent call last):\n  File \"/sgl/sglang/srt/server.py\", line 12, in main\n    logger.warning(msg, stack_info=True)", false},
		{"with its header", "Traceback (most recent call last):\n  File \"/sgl/a.py\", line 1, in f\n    g()", false},
	}
	for _, tt := range tests {
		es := assembleAll(tt.text)
		if len(es) == 0 {
			t.Fatalf("%s: no entry", tt.name)
		}
		if got := framesAlone(&es[0]); got != tt.want {
			t.Errorf("%s: framesAlone = %v, want %v (entries %d, message %q)", tt.name, got, tt.want, len(es), es[0].Message)
		}
	}
}

func TestTracebackFrameShape(t *testing.T) {
	for s, want := range map[string]bool{
		`File "/a/b.py", line 12, in load_weights`:                           true,
		`File "<frozen importlib._bootstrap>", line 1027, in _find_and_load`: true,
		`File "/a/b.py", line 12 in load_weights`:                            false, // faulthandler
		`File "/a/b.py", line 12, in `:                                       false,
		`File "/a/b.py", line x, in f`:                                       false,
		`File "", line 1, in f`:                                              false,
		`File "/a/b.py`:                                                      false,
		`File "/a/b.py", line 12`:                                            false,
	} {
		if got := tracebackFrameShape(s); got != want {
			t.Errorf("tracebackFrameShape(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzTracebackFrameShape: a line read as a traceback's frame holds its
// markers, and neither it nor framesAlone on any entry panics.
func FuzzTracebackFrameShape(f *testing.F) {
	for _, s := range []string{
		`File "/a/b.py", line 12, in load_weights`,
		`File "/a/b.py", line 12 in load_weights`,
		"File \"/a/b.py\", line 12, in f\n    g()\n  File \"c.py\", line 3, in h",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.HasPrefix(s, `File "`) && tracebackFrameShape(s) && (!strings.Contains(s, `", line `) || !strings.Contains(s, ", in ")) {
			t.Fatalf("tracebackFrameShape(%q) without its markers", s)
		}
		for _, e := range assembleAll(s) {
			if framesAlone(&e) && !strings.Contains(e.Text, `File "`) {
				t.Fatalf("framesAlone on an entry without a frame: %q", e.Text)
			}
		}
	})
}

// TestShellFamily: a kill is the killed family, a crash signal a native
// crash's, in any language.
func TestShellFamily(t *testing.T) {
	for msg, want := range map[string]string{
		"Killed":                                  FamilyKilled,
		"已杀死":                                     FamilyKilled,
		"Segmentation fault (core dumped)":        FamilyNative,
		"非法指令 (核心已转储)":                            FamilyNative,
		"Abgebrochen (Speicherabzug geschrieben)": FamilyNative,
		"bash: line 1: 12 Bus error python3":      FamilyNative,
	} {
		e := entry.Entry{Format: entry.FormatNative, Native: entry.NativeShell, Message: msg, Text: msg}
		if got := shellFamily(&e); got != want {
			t.Errorf("shellFamily(%q) = %q, want %q", msg, got, want)
		}
	}
	term := entry.Entry{Format: entry.FormatNative, Native: entry.NativeShell, Level: entry.LevelWarning, Message: "Abgebrochen (Terminated)", Text: "Abgebrochen (Terminated)"}
	if sig, _ := signalOf(&term); sig != "" {
		t.Errorf("signalOf(localised Terminated) = %q, want none", sig)
	}
}

// TestRelayedPanicSignal: a Rust panic a logger relayed, behind a record
// header without a level or at INFO, is a critical native failure; the
// same message in a record that is no panic is quiet.
func TestRelayedPanicSignal(t *testing.T) {
	es := assembleAll("[2025-05-05 12:43:53] thread 'main' panicked at src/main.rs:10:5:\n[2025-05-05 12:43:53] called `Option::unwrap()` on a `None` value")
	if len(es) != 1 || es[0].Native != entry.NativeRustPanic {
		t.Fatalf("entries %+v, want one relayed panic", es)
	}
	if quiet(&es[0]) {
		t.Error("quiet on a relayed panic")
	}
	if sig, sev := signalOf(&es[0]); sig != SignalNative || sev != patterns.SeverityCritical {
		t.Errorf("signalOf = %q %q, want native critical", sig, sev)
	}
	es = assembleAll("[2025-05-05 12:43:53] the router restarted")
	if sig, _ := signalOf(&es[0]); sig != "" {
		t.Errorf("a record that is no panic: signal %q", sig)
	}
}

func TestAccessLine(t *testing.T) {
	for line, want := range map[string]bool{
		// Servers' access lines, several writers.
		`INFO:     172.21.0.1:39384 - "POST /worker_generate HTTP/1.1" 500 Internal Server Error`:                                    true,
		`[2026-06-12 04:13:18] INFO:     10.42.1.149:39062 - "POST /v1/chat/completions HTTP/1.1" 503 Service Unavailable`:           true,
		`10.0.0.7 - - [01/Jun/2025:12:00:01 +0000] "GET /health HTTP/1.1" 502 157 "-" "kube-probe/1.29"`:                             true,
		`[2025-06-01 12:00:01 +0000] [7] [INFO] 10.0.0.3 - - "POST /predict HTTP/1.0" 500 21`:                                        true,
		`2025-06-01 12:00:01,000 aiohttp.access INFO 127.0.0.1 [01/Jun/2025:12:00:01 +0000] "POST /v1/completions HTTP/1.1" 200 512`: true,
		`"CONNECT https://proxy.internal:443 HTTP/2" 504`:                                                                            true,
		// A client's words for a status, a status line alone, prose.
		`Error: Server error '503 Service Unavailable' for url 'http://10.78.21.1:4674/generate'`:      false,
		`requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: http://x/gen`: false,
		`< HTTP/1.1 500 Internal Server Error`:                                                         false,
		`the request "POST /generate HTTP/1.1" failed`:                                                 false,
		`"post /generate HTTP/1.1" 500`:                                                                false,
		``:                                                                                             false,
	} {
		if got := AccessLine(line); got != want {
			t.Errorf("AccessLine(%q) = %v, want %v", line, got, want)
		}
	}
}

// FuzzAccessLine: the access-line and vague-failure readers never panic,
// and a line that is an access line stays one behind a prefix.
func FuzzAccessLine(f *testing.F) {
	for _, s := range []string{
		`INFO:     10.0.0.5:40122 - "POST /generate HTTP/1.1" 500 Internal Server Error`,
		`"GET / HTTP/1." 5`,
		` HTTP/ HTTP/1.1" 200`,
		"Transfer failed for task0",
		"[Rank 3] [PG 1] Work failed.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if AccessLine(s) && !AccessLine("prefix | "+s) {
			t.Errorf("AccessLine(%q) but not behind a prefix", s)
		}
		VagueFailure(s)
	})
}

// FuzzQuietAgreesWithSignalOf holds quiet to what decide's matched
// entries rely on (hitSignal) as well as its unmatched ones: an entry
// without a traceback that quiet calls quiet has no signal, for the
// entries of any text.
func FuzzQuietAgreesWithSignalOf(f *testing.F) {
	for _, s := range []string{
		"[2026-05-28 00:11:09 TP0] search.max_candidates must be >= 1 or null.",
		"[2026-05-28 00:11:09 TP0] Failed to load the model",
		"RuntimeError: CUDA error: out of memory",
		"Error: no such file", "HTTP/2 503", "< HTTP/1.1 400 Bad Request",
		"[2026-05-28 00:11:09] INFO:     127.0.0.1:5 - \"POST /generate HTTP/1.1\" 200 OK",
		"W1207 12:00:00.000000 123 file.cc:10] connection reset",
		"worker 3 killed by signal 9\nexit code 137",
		"Killed",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, e := range assembleAll(text) {
			if e.Traceback != nil || !quiet(&e) {
				continue
			}
			if sig, sev, death := readSignal(&e); sig != "" || sev != "" || death {
				t.Errorf("quiet(format %q level %q message %q), yet readSignal gives %q %q %v", e.Format, e.Level, e.Message, sig, sev, death)
			}
		}
	})
}

// repoLogs returns every log file of the repository's examples, test logs
// and corpus, failing the test when there is none.
func repoLogs(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, glob := range []string{"../../examples/*.log", "../../testdata/logs/*.log", "../../testdata/corpus/*.log"} {
		p, _ := filepath.Glob(glob)
		paths = append(paths, p...)
	}
	if len(paths) == 0 {
		t.Fatal("no logs found")
	}
	return paths
}
