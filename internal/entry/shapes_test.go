package entry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseGluedException(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		typ, msg string // "" typ: no exception found
	}{
		// sgl-project/sglang#462: the raise frame, the exception line and
		// the launcher's next message on one line.
		{"raise left open", "raise RuntimeError( RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method  Initialization failed. detoken_init_state: init ok",
			"RuntimeError", "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method  Initialization failed. detoken_init_state: init ok"},
		{"call closed, dotted type", "return forward_call(*args, **kwargs) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
			"torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB"},
		{"subscript", "weight = params_dict[name] KeyError: 'lm_head.weight'", "KeyError", "'lm_head.weight'"},
		{"location carets", "self.model = get_model(config) ^^^^^^^^^^^^^^^^^ ValueError: unsupported architecture", "ValueError", "unsupported architecture"},
		{"several spaces", "raise ValueError(msg)    ValueError: bad value", "ValueError", "bad value"},
		{"lower-case qualified", "sock.connect((host, port)) socket.gaierror: [Errno -2] Name or service not known", "socket.gaierror", "[Errno -2] Name or service not known"},
		{"quote", `assert ok, "no GPU" AssertionError: no GPU`, "AssertionError", "no GPU"},
		{"private name", "_run(self) subprocess.CalledProcessError: Command 'ninja' returned non-zero exit status 1.", "subprocess.CalledProcessError", "Command 'ninja' returned non-zero exit status 1."},

		// Near misses: prose, records, warnings, names that are no
		// exceptions, nothing glued.
		{"capitalised prose", "Retrying (attempt 2) ConnectionError: refused", "", ""},
		{"lower-case prose", "the request failed because ValueError: x", "", ""},
		{"no code byte before", "raise RuntimeError RuntimeError: x", "", ""},
		{"no space", "raise RuntimeError(RuntimeError: x", "", ""},
		{"bare type without message", "raise NotImplementedError() NotImplementedError", "", ""},
		{"empty message", "f(x) ValueError: ", "", ""},
		{"warning", "warnings.warn(msg) UserWarning: deprecated", "", ""},
		{"loose name", "call(x) Error: x", "", ""},
		{"quiet level in front", "worker(rank=0) INFO retry after (timeout) TimeoutError: read timed out", "", ""},
		{"indented", "    raise RuntimeError( RuntimeError: x", "", ""},
		{"exception line itself", "RuntimeError: x", "", ""},
		{"parenthesised type", "failed (ValueError: bad)", "", ""},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		typ, msg, ok := parseGluedException(tt.in)
		if ok != (tt.typ != "") || typ != tt.typ || msg != tt.msg {
			t.Errorf("%s: parseGluedException(%q) = %q, %q, %v; want %q, %q", tt.name, tt.in, typ, msg, ok, tt.typ, tt.msg)
		}
	}
}

func TestAssemblerGluedException(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []bareView
	}{
		{"glued line alone", "raise RuntimeError( RuntimeError: Cannot re-initialize CUDA in forked subprocess. Initialization failed.",
			[]bareView{{Lines: "1-1", Exc: "RuntimeError: Cannot re-initialize CUDA in forked subprocess. Initialization failed.", Bare: true}}},
		{"glued line takes the CUDA epilogue", "return forward_call(*args, **kwargs) RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
			[]bareView{{Lines: "1-2", Exc: "RuntimeError: CUDA error: an illegal memory access was encountered", Bare: true}}},
		{"glued line after a message announcing it", "Failed to start the worker:\nraise ValueError(msg) ValueError: bad config",
			[]bareView{{Lines: "1-1"}, {Lines: "2-2", Exc: "ValueError: bad config", Bare: true}}},
		// Near misses: a record's message is prose, and so is a line that
		// opens in capitals.
		{"INFO record", "[2026-07-01 09:31:38 TP0] retry call(x) after ConnectionError: refused",
			[]bareView{{Lines: "1-1", Format: FormatSRT}}},
		{"INFO record with code", "[2026-07-01 09:31:38 TP0] raise RuntimeError( RuntimeError: x",
			[]bareView{{Lines: "1-1", Format: FormatSRT}}},
		{"python logging INFO", "2025-03-07 23:50:27,531 - app - INFO - f(x) ValueError: handled",
			[]bareView{{Lines: "1-1", Format: FormatPython}}},
		{"capitalised prose", "Retrying (attempt two) ConnectionError: refused", []bareView{{Lines: "1-1"}}},
		{"quiet level in front", "worker(rank=0) INFO retry after (timeout) TimeoutError: read timed out", []bareView{{Lines: "1-1"}}},
	}
	for _, tt := range tests {
		got := bareViews(t, assemble(t, Options{}, tt.in))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
	}
}

func TestParseUCX(t *testing.T) {
	ref := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want *native // nil: not a UCX line
	}{
		// ai-dynamo/nixl and smg-project/smg#2503.
		{"with time and process", "[1784273406.684686] [iv-ydzf15rfggbw80bfv8sr:994396:0]      ib_mlx5_dv.c:452  UCX  ERROR   mlx5dv_devx_obj_create(CQ) failed on mlx5_1, syndrome 0x2aac7c: Remote I/O error",
			&native{kind: NativeUCX, level: LevelError, time: time.Unix(1784273406, 684686000).UTC()}},
		{"right-aligned file", "[1784273406.719079] [iv-ydzf15rfggbw80bfv8sr:994396:0]           gdaki.c:397  UCX  ERROR   gdaki channel chunk init: create_cq/qp failed (ch=2 ep=4)",
			&native{kind: NativeUCX, level: LevelError, time: time.Unix(1784273406, 719079000).UTC()}},
		{"info with time", "[1744331142.028115] [ccw-gpu-51:2802608:3]      ucp_worker.c:1903 UCX  INFO    ucp_context_2 inter-node cfg#3 rma(rc_mlx5/mlx5_ib2:1)",
			&native{kind: NativeUCX, level: LevelInfo, time: time.Unix(1744331142, 28115000).UTC()}},
		{"without time and process", "ib_mlx5_dv.c:433  UCX  ERROR   mlx5dv_devx_obj_modify(opcode=0x503) failed, syndrome 0x5d668c: Remote I/O error",
			&native{kind: NativeUCX, level: LevelError}},
		{"without time, padding kept", "           gdaki.c:397  UCX  ERROR   gdaki channel chunk init: create_cq/qp failed (ch=0 ep=0)",
			&native{kind: NativeUCX, level: LevelError}},
		{"warn", "ucx_utils.c:112  UCX  WARN  transport 'rc_mlx5' is not available", &native{kind: NativeUCX, level: LevelWarning}},
		{"fatal", "sys.c:1024 UCX  FATAL  failed to allocate memory", &native{kind: NativeUCX, level: LevelFatal}},
		{"diag", "parser.c:2314 UCX  DIAG  unused environment variable: UCX_TLS_X", &native{kind: NativeUCX, level: LevelInfo}},

		// Near misses.
		{"glog line naming UCX", "E0717 07:30:06.719633  994396 ucx_utils.cpp:537] UCX endpoint create failed: failed to create ep",
			&native{kind: NativeGlog, level: "ERROR", time: time.Date(2025, 7, 17, 7, 30, 6, 719633000, time.UTC), partial: timeNoYear, msg: 49}},
		{"NIXL record naming UCX", "2025-12-10 05:50:30 NIXL INFO    _api.py:361 Backend UCX was instantiated", nil},
		{"UCX without a source reference", "UCX  ERROR   failed", nil},
		{"source reference without line", "ib_mlx5_dv.c  UCX  ERROR   failed", nil},
		{"other word than a level", "ib_mlx5_dv.c:433  UCX  error   failed", nil},
		{"UCX glued to its level", "ib_mlx5_dv.c:433  UCXERROR failed", nil},
		{"prose", "see ib_mlx5_dv.c:433 UCX ERROR", nil},
		{"bracketed time of another writer", "[1784273406.684686] [host:1:0] something else", nil},
	}
	for _, tt := range tests {
		n, ok := parseNative(tt.in, ref, time.UTC)
		if tt.want == nil {
			if ok && n.kind == NativeUCX {
				t.Errorf("%s: parseNative(%q) = %+v, want no UCX line", tt.name, tt.in, n)
			}
			continue
		}
		if !ok || n != *tt.want {
			t.Errorf("%s: parseNative(%q) = %+v, %v; want %+v", tt.name, tt.in, n, ok, *tt.want)
		}
	}
}

// TestCorpusShapesThroughEntries reads two corpus excerpts whose records
// name them and checks that the entry layer recognises them on its own: an
// exception line glued behind its raise frame, and UCX's line without its
// time and process.
func TestCorpusShapesThroughEntries(t *testing.T) {
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(string(b), "\n")
	}
	es := assemble(t, Options{}, read("227-cuda-reinit-forked-subprocess-glued-line.log"))
	if len(es) != 1 || es[0].Traceback == nil || !es[0].Traceback.Bare {
		t.Fatalf("227: entries %+v, want one with a bare traceback", es)
	}
	if x := es[0].Traceback.Outermost(); x.Type != "RuntimeError" || !strings.HasPrefix(x.Message, "Cannot re-initialize CUDA in forked subprocess") {
		t.Errorf("227: exception %q: %q", x.Type, x.Message)
	}
	es = assemble(t, Options{}, read("234-ucx-remote-io-error-then-faulthandler-nixl.log"))
	if len(es) < 2 || es[0].Native != NativeUCX || es[0].Level != LevelError || es[0].Lines != 1 {
		t.Fatalf("234: entries %+v, want a UCX ERROR line first", es)
	}
	if es[1].Native != NativeFaulthandler {
		t.Errorf("234: second entry %q, want the faulthandler dump", es[1].Native)
	}
}
