package entry

import (
	"reflect"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // America/New_York on machines without a zone database

	"github.com/google/go-cmp/cmp"
)

func TestParseHeader(t *testing.T) {
	ref := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	at := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	ranks := func(dp, pp, cp, moe, tp, ep int) Ranks {
		return Ranks{DP: dp, PP: pp, AttnCP: cp, MoeDP: moe, TP: tp, EP: ep}
	}
	tests := []struct {
		name string
		in   string
		want *header // nil: not a header
	}{
		{"srt no prefix", "[2025-08-02 19:24:20] The server is fired up and ready to roll!",
			&header{FormatSRT, at(2025, 8, 2, 19, 24, 20, 0), NoRanks, "", "The server is fired up and ready to roll!", 0}},
		{"srt ms", "[2026-05-28 00:11:09.816 DP0 TP0 EP0] Scheduler hit an exception: x",
			&header{FormatSRT, at(2026, 5, 28, 0, 11, 9, 816e6), ranks(0, -1, -1, -1, 0, 0), "", "Scheduler hit an exception: x", 0}},
		{"srt order DP TP", "[2025-07-02 07:41:59 DP7 TP7] x", &header{FormatSRT, at(2025, 7, 2, 7, 41, 59, 0), ranks(7, -1, -1, -1, 7, -1), "", "x", 0}},
		{"srt order DP TP EP PP (2025-07)", "[2025-08-01 00:00:00 DP1 TP2 EP3 PP4] x", &header{FormatSRT, at(2025, 8, 1, 0, 0, 0, 0), ranks(1, 4, -1, -1, 2, 3), "", "x", 0}},
		{"srt order DP PP TP EP (2025-11)", "[2025-12-01 00:00:00 DP1 PP4 TP2 EP3] x", &header{FormatSRT, at(2025, 12, 1, 0, 0, 0, 0), ranks(1, 4, -1, -1, 2, 3), "", "x", 0}},
		{"srt current order", "[2026-02-20 10:00:00 DP1 PP0 ATTN_CP2 MOE_DP3 TP4 EP5] x", &header{FormatSRT, at(2026, 2, 20, 10, 0, 0, 0), ranks(1, 0, 2, 3, 4, 5), "", "x", 0}},
		{"srt any order", "[2026-02-20 10:00:00 EP5 TP4 MOE_DP3 ATTN_CP2 PP0 DP1] x", &header{FormatSRT, at(2026, 2, 20, 10, 0, 0, 0), ranks(1, 0, 2, 3, 4, 5), "", "x", 0}},
		{"srt two-digit ranks", "[2026-03-17 17:31:50 DP12 TP12] x", &header{FormatSRT, at(2026, 3, 17, 17, 31, 50, 0), ranks(12, -1, -1, -1, 12, -1), "", "x", 0}},
		{"srt empty message", "[2026-03-17 17:31:50 TP0] ", &header{FormatSRT, at(2026, 3, 17, 17, 31, 50, 0), ranks(-1, -1, -1, -1, 0, -1), "", "", 0}},
		{"srt encode server", "[2026-03-17 17:31:50 encode_server] x", &header{FormatSRT, at(2026, 3, 17, 17, 31, 50, 0), NoRanks, "", "x", 0}},
		{"srt encode dp worker", "[2026-03-17 17:31:50.001 encode_dp_worker[3]] x", &header{FormatSRT, at(2026, 3, 17, 17, 31, 50, 1e6), NoRanks, "", "x", 0}},
		{"srt lost bracket", "2026-05-28 00:11:09 TP0] x", &header{FormatSRT, at(2026, 5, 28, 0, 11, 9, 0), ranks(-1, -1, -1, -1, 0, -1), "", "x", 0}},
		{"srt lost bracket and 2", "026-05-28 00:11:09.816 DP0 TP0 EP0] Scheduler hit…",
			&header{FormatSRT, at(2026, 5, 28, 0, 11, 9, 816e6), ranks(0, -1, -1, -1, 0, 0), "", "Scheduler hit…", 0}},
		{"request log json", `[2026-03-17 17:31:50] {"event": "request.received"}`, &header{FormatSRT, at(2026, 3, 17, 17, 31, 50, 0), NoRanks, "", `{"event": "request.received"}`, 0}},
		{"legacy", "[16:53:16] server_args=ServerArgs()", &header{FormatLegacy, at(2026, 7, 1, 16, 53, 16, 0).AddDate(0, 0, -1), NoRanks, "", "server_args=ServerArgs()", timeNoDate}},
		{"legacy ranks", "[11:00:00 DP0 TP1] x", &header{FormatLegacy, at(2026, 7, 1, 11, 0, 0, 0), ranks(0, -1, -1, -1, 1, -1), "", "x", timeNoDate}},
		{"diffusion", "[12-16 14:27:08] Rank 0 scheduler is dead.", &header{FormatDiffusion, at(2025, 12, 16, 14, 27, 8, 0), NoRanks, "", "Rank 0 scheduler is dead.", timeNoYear}},
		{"diffusion prefix", "[06-30 14:27:08 rank0 TP1] x", &header{FormatDiffusion, at(2026, 6, 30, 14, 27, 8, 0), ranks(-1, -1, -1, -1, 1, -1), "", "x", timeNoYear}},
		{"uvicorn access", `[2025-08-02 19:24:20] INFO:     172.16.19.148:48276 - "POST /v1/completions HTTP/1.1" 200 OK`,
			&header{FormatUvicorn, at(2025, 8, 2, 19, 24, 20, 0), NoRanks, "INFO", `172.16.19.148:48276 - "POST /v1/completions HTTP/1.1" 200 OK`, 0}},
		{"uvicorn warning", "[2025-11-05 16:38:03] WARNING:  Invalid HTTP request received.", &header{FormatUvicorn, at(2025, 11, 5, 16, 38, 3, 0), NoRanks, "WARNING", "Invalid HTTP request received.", 0}},
		{"uvicorn old", "ERROR:    Exception in ASGI application", &header{FormatUvicorn, time.Time{}, NoRanks, "ERROR", "Exception in ASGI application", 0}},
		{"uvicorn old access", `INFO:     127.0.0.1:40192 - "POST /generate HTTP/1.1" 200 OK`, &header{FormatUvicorn, time.Time{}, NoRanks, "INFO", `127.0.0.1:40192 - "POST /generate HTTP/1.1" 200 OK`, 0}},
		{"dynamo", "2025-11-05T01:56:54.243403Z  INFO scheduler.__init__: Load weight begin.", &header{FormatDynamo, at(2025, 11, 5, 1, 56, 54, 243403000), NoRanks, "INFO", "Load weight begin.", 0}},
		{"python logging default", "2023-07-09 00:00:00,000 ERROR    some_app custom string", &header{FormatPython, at(2023, 7, 9, 0, 0, 0, 0), NoRanks, "ERROR", "some_app custom string", 0}},
		{"python name before level", "2024-01-01 12:00:00,123 - app.db - WARNING - slow query", &header{FormatPython, at(2024, 1, 1, 12, 0, 0, 123e6), NoRanks, "WARNING", "slow query", 0}},
		{"loguru default", "2024-01-01 12:00:00.123 | ERROR    | app.main:run:12 - boom", &header{FormatPython, at(2024, 1, 1, 12, 0, 0, 123e6), NoRanks, "ERROR", "app.main:run:12 - boom", 0}},
		{"python level brackets", "2024-01-01 12:00:00,123 [INFO] started", &header{FormatPython, at(2024, 1, 1, 12, 0, 0, 123e6), NoRanks, "INFO", "started", 0}},
		{"vllm style", "WARNING 06-30 11:00:00 [config.py:1] x", &header{FormatPython, at(2026, 6, 30, 11, 0, 0, 0), NoRanks, "WARNING", "x", timeNoYear}},
		{"basicConfig", "ERROR:root:something failed", &header{FormatPython, time.Time{}, NoRanks, "ERROR", "something failed", 0}},

		// sglang router launcher (sgl-project/sglang#2148), DeepSpeed-style
		// bracketed time (haotian-liu/LLaVA#1289), sglang router's Rust log
		// (sgl-project/sglang#12621), dynamo tracing with a span
		// (ai-dynamo/dynamo#1280), vLLM (sgl-project/sglang#11601).
		{"router python", "[Router (Python)] 2024-11-25 21:28:33 - INFO - Launching DP server process 0 on port 31000",
			&header{FormatRouter, at(2024, 11, 25, 21, 28, 33, 0), NoRanks, "INFO", "Launching DP server process 0 on port 31000", 0}},
		{"router rust", "[Router (Rust)] 2024-11-25 21:29:40 - INFO - Tenant: http://127.0.0.1:31814, Size: 0",
			&header{FormatRouter, at(2024, 11, 25, 21, 29, 40, 0), NoRanks, "INFO", "Tenant: http://127.0.0.1:31814, Size: 0", 0}},
		// The next two follow the formatters' shapes with invented messages.
		{"router python error", "[Router (Python)] 2025-03-07 10:00:00 - ERROR - Failed to start router: Timeout 300s waiting for workers to become healthy - launch_server.py:204",
			&header{FormatRouter, at(2025, 3, 7, 10, 0, 0, 0), NoRanks, "ERROR", "Failed to start router: Timeout 300s waiting for workers to become healthy - launch_server.py:204", 0}},
		{"bracketed python time", "[2024-04-11 10:31:54,306] [INFO] [real_accelerator.py:161:get_accelerator] Setting ds_accelerator to cuda (auto detect)",
			&header{FormatPython, at(2024, 4, 11, 10, 31, 54, 306e6), NoRanks, "INFO", "[real_accelerator.py:161:get_accelerator] Setting ds_accelerator to cuda (auto detect)", 0}},
		{"router rust tracing", "2025-11-04 10:05:37  INFO sglang_router_rs::server: src/server.rs:830: Starting router on 0.0.0.0:port | mode: Regular { worker_urls: [] } | policy: CacheAware { cache_threshold: 0.5, balance_abs_threshold: 16, balance_rel_threshold: 1.5, eviction_interval_secs: 60, max_tree_size: 67108864 } | max_payload: 512MB",
			&header{FormatPython, at(2025, 11, 4, 10, 5, 37, 0), NoRanks, "INFO", "sglang_router_rs::server: src/server.rs:830: Starting router on 0.0.0.0:port | mode: Regular { worker_urls: [] } | policy: CacheAware { cache_threshold: 0.5, balance_abs_threshold: 16, balance_rel_threshold: 1.5, eviction_interval_secs: 60, max_tree_size: 67108864 } | max_payload: 512MB", 0}},
		{"router rust tracing debug", "2025-11-04 10:05:37 DEBUG sglang_router_rs::core::job_queue: src/core/job_queue.rs:142: Initializing worker job queue: capacity=1000, workers=10",
			&header{FormatPython, at(2025, 11, 4, 10, 5, 37, 0), NoRanks, "DEBUG", "sglang_router_rs::core::job_queue: src/core/job_queue.rs:142: Initializing worker job queue: capacity=1000, workers=10", 0}},
		{"tracing with span", "2025-05-30T00:35:01.153Z ERROR chat_completions: dynamo_llm::http::service::openai: Internal server error: Failed to generate completions: no instances found for endpoint \"insta",
			&header{FormatDynamo, at(2025, 5, 30, 0, 35, 1, 153e6), NoRanks, "ERROR", "Internal server error: Failed to generate completions: no instances found for endpoint \"insta", 0}},
		{"tracing module path", "2025-03-21T07:56:53.878390Z  INFO dynamo_llm::engines::sglang::worker: Waiting for sglang0 to signal that it's ready",
			&header{FormatDynamo, at(2025, 3, 21, 7, 56, 53, 878390e3), NoRanks, "INFO", "Waiting for sglang0 to signal that it's ready", 0}},
		{"tracing span fields", "2025-11-05T01:56:54.243403Z ERROR request{id=7}: sgl_model_gateway::routers::http: worker http://10.0.0.1:30000 failed",
			&header{FormatDynamo, at(2025, 11, 5, 1, 56, 54, 243403e3), NoRanks, "ERROR", "worker http://10.0.0.1:30000 failed", 0}},
		{"vllm no brackets", "INFO 10-14 02:11:06 __init__.py:190] Automatically detected platform cuda.",
			&header{FormatPython, at(2026, 10, 14, 2, 11, 6, 0).AddDate(-1, 0, 0), NoRanks, "INFO", "Automatically detected platform cuda.", timeNoYear}},

		// "%(levelname)s %(asctime)s %(name)s: %(message)s"; invented message.
		{"python level then full time", "ERROR 2025-03-08 02:04:48,693 sglang.launcher: server exited with code 1",
			&header{FormatPython, at(2025, 3, 8, 2, 4, 48, 693e6), NoRanks, "ERROR", "sglang.launcher: server exited with code 1", 0}},
		// "[%(levelname)s] %(asctime)s %(message)s"; invented messages.
		{"python bracketed level then full time", "[ERROR] 2025-05-03 23:03:33,244 Failed to load model",
			&header{FormatPython, at(2025, 5, 3, 23, 3, 33, 244e6), NoRanks, "ERROR", "Failed to load model", 0}},
		{"python bracketed level then time without a fraction", "[INFO] 2025-05-03 23:03:33 Received sigquit from a child process.",
			&header{FormatPython, at(2025, 5, 3, 23, 3, 33, 0), NoRanks, "INFO", "Received sigquit from a child process.", 0}},
		{"not: bracketed level without a time", "[ERROR] Failed to load model", nil},
		{"not: bracketed level glued to the time", "[ERROR]2025-05-03 23:03:33 x", nil},
		{"not: plain text", "This is not an exception.", nil},
		{"not: router without time", "[Router (Python)] hello", nil},
		{"not: exception line", "RuntimeError: CUDA error: device-side assert triggered", nil},
		{"not: unknown rank token", "[2026-03-17 17:31:50 XX0] x", nil},
		{"not: no space after bracket", "[2026-03-17 17:31:50]x", nil},
		{"not: date only", "2026-03-17 is a date", nil},
		{"not: timestamp without level", "2023-07-09 00:00:00,000 something else entirely here", nil},
		{"not: glog", "I0820 02:41:20.446154   710 transfer_engine.cpp:422] x", nil},
		{"not: c10d", "[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x", nil},
		{"not: ascend", "[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100", nil},
		{"not: INFO word", "INFORMATION: x", nil},
		{"not: empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseHeader(tt.in, ref, time.UTC)
			if tt.want == nil {
				if ok {
					t.Fatalf("parseHeader(%q) = %+v, want no header", tt.in, got)
				}
				return
			}
			if !ok {
				t.Fatalf("parseHeader(%q): no header, want %+v", tt.in, *tt.want)
			}
			if diff := cmp.Diff(*tt.want, got, cmp.AllowUnexported(header{})); diff != "" {
				t.Errorf("parseHeader(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseHeaderLocation(t *testing.T) {
	loc := time.FixedZone("UTC+8", 8*3600)
	h, ok := parseHeader("[2026-03-17 17:31:50 TP0] x", time.Time{}, loc)
	if !ok {
		t.Fatal("no header")
	}
	if want := time.Date(2026, 3, 17, 9, 31, 50, 0, time.UTC); !h.time.Equal(want) {
		t.Errorf("time = %v, want %v", h.time.UTC(), want)
	}
}

func TestParseHeaderNoReference(t *testing.T) {
	for _, in := range []string{"[16:53:16] x", "[12-16 14:27:08] x"} {
		h, ok := parseHeader(in, time.Time{}, time.UTC)
		if !ok {
			t.Fatalf("%q: no header", in)
		}
		if !h.time.IsZero() {
			t.Errorf("%q without a reference: time = %v, want zero", in, h.time)
		}
	}
}

func TestRanksString(t *testing.T) {
	tests := []struct {
		in   Ranks
		want string
	}{
		{NoRanks, ""},
		{Ranks{DP: 1, PP: -1, AttnCP: -1, MoeDP: -1, TP: 3, EP: -1}, "DP1 TP3"},
		{Ranks{DP: 0, PP: 1, AttnCP: 2, MoeDP: 3, TP: 4, EP: 5}, "DP0 PP1 ATTN_CP2 MOE_DP3 TP4 EP5"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// headerInOrder is parseHeader as the header families' own parsers define
// it, one after the other in the documented order (uvicorn before srt), with
// nothing read once for two of them: the reference for parseHeader's
// shortcuts.
func headerInOrder(s string, ref time.Time, loc *time.Location) (header, bool) {
	if s == "" {
		return header{}, false
	}
	if h, ok := parseUvicorn(s, loc); ok {
		return h, true
	}
	if s[0] == '[' {
		for _, p := range []func(string, *time.Location, time.Time) (header, bool){parseSRT, parseLegacy, parseDiffusion} {
			if h, ok := p(s[1:], loc, ref); ok {
				return h, true
			}
		}
		if h, ok := parseRouter(s, loc); ok {
			return h, true
		}
		if len(s) > 1 && isDigit(s[1]) {
			return parsePythonTimeFirst(s[1:], loc)
		}
		return header{}, false
	}
	if isDigit(s[0]) {
		if h, ok := parseSRT(s, loc, ref); ok {
			return h, true
		}
		if h, ok := parseDynamo(s); ok {
			return h, true
		}
		return parsePythonTimeFirst(s, loc)
	}
	if isUpper(s[0]) {
		return parsePythonLevelFirst(s, loc, ref)
	}
	return header{}, false
}

// FuzzHeaderShortcuts: parseHeader, which reads an srt or uvicorn time once
// for both, says exactly what the families' parsers say in order.
func FuzzHeaderShortcuts(f *testing.F) {
	for _, s := range []string{
		"[2026-05-28 00:00:00.022 TP0] Decode batch, #running-req: 91",
		"[2026-05-28 00:00:00.134] INFO:     10.2.228.99:41713 - \"POST /generate HTTP/1.1\" 200 OK",
		"[2026-05-28 00:00:00.134] WARN: x",
		"[2026-05-28 00:00:00 DP1 PP0 ATTN_CP2 MOE_DP3 TP1 EP1 encode_dp_worker[3]] msg",
		"[026-05-28 00:11:09.816 DP0 TP0 EP0] msg",
		"026-05-28 00:11:09.816 DP0 TP0 EP0] msg",
		"[16:53:16 TP0] msg", "[12-16 14:27:08 TP0] msg",
		"[Router (Python)] 2024-11-25 21:28:33 - INFO - msg",
		"[2024-04-11 10:31:54,306] [INFO] [file.py:161:f] msg",
		"2025-11-05T01:56:54.243403Z  INFO dynamo: msg",
		"INFO:     Started server process [1]",
		"ERROR 07-01 08:38:50 [executor.py:492] msg",
		"[2026-05-28 00:00:00.022 DPx TP0] m", "[2026-05-28 00:00:00.022 TP1234567] m",
	} {
		f.Add(s)
	}
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	loc := time.FixedZone("X", 3600)
	f.Fuzz(func(t *testing.T, s string) {
		got, gotOK := parseHeader(s, ref, loc)
		want, wantOK := headerInOrder(s, ref, loc)
		if gotOK != wantOK || gotOK && !reflect.DeepEqual(got, want) {
			t.Fatalf("parseHeader(%q) = %+v, %v; the parsers in order say %+v, %v", s, got, gotOK, want, wantOK)
		}
	})
}

// ranksByList is parseRanks as a loop over the token names, longest first,
// trying each in turn: the reference for parseRanks' first-letter dispatch.
func ranksByList(s string, lenient bool) (Ranks, int) {
	r := NoRanks
	fields := map[string]*int{"ATTN_CP": &r.AttnCP, "MOE_DP": &r.MoeDP, "DP": &r.DP, "PP": &r.PP, "TP": &r.TP, "EP": &r.EP}
	i := 0
	for i < len(s) && s[i] == ' ' {
		t := s[i+1:]
		matched := false
		for _, name := range []string{"ATTN_CP", "MOE_DP", "DP", "PP", "TP", "EP"} {
			if !strings.HasPrefix(t, name) {
				continue
			}
			j := len(name)
			for j < len(t) && isDigit(t[j]) {
				j++
			}
			if j == len(name) || j-len(name) > 6 {
				continue
			}
			*fields[name] = atoi(t[len(name):j])
			i += 1 + j
			matched = true
			break
		}
		if matched {
			continue
		}
		if !lenient {
			break
		}
		j := strings.IndexByte(t, ' ')
		if j < 0 {
			j = len(t)
		}
		i += 1 + j
	}
	return r, i
}

func FuzzParseRanks(f *testing.F) {
	for _, s := range []string{" DP0 TP1", " ATTN_CP2 MOE_DP3 PP4 EP5]", " TP", " TP1234567 EP1", " x DP1", " DP1 DP2", "  DP1", " MOE_DPx ATTN_CP9"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, lenient bool) {
		got, gn := parseRanks(s, lenient)
		want, wn := ranksByList(s, lenient)
		if got != want || gn != wn {
			t.Fatalf("parseRanks(%q, %v) = %+v, %d; by the list %+v, %d", s, lenient, got, gn, want, wn)
		}
		if lenient {
			return
		}
		// Through the rank cache: filled by s, then hit by s and by s's
		// field behind other tails.
		var rc rankCache
		lines := []string{s, s}
		if k := strings.IndexByte(s, ']'); k >= 0 {
			lines = append(lines, s[:k+1], s[:k+1]+" DP1 TP2]", s[:k+1]+"P]"+s)
		}
		for _, l := range lines {
			want, wn := parseRanks(l, false)
			if got, gn := rc.ranks(l); got != want || gn != wn {
				t.Fatalf("cached ranks(%q) after %q = %+v, %d; parseRanks %+v, %d", l, s, got, gn, want, wn)
			}
		}
	})
}

// TestSecondCacheAgrees checks that headers read through the second cache
// are exactly the headers read without it, in zones with and without
// daylight saving, across a spring-forward and a fall-back transition,
// with the cached second repeated, changed, and followed by other forms.
func TestSecondCacheAgrees(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	ref := time.Date(2026, 3, 8, 12, 0, 0, 0, time.UTC)
	lines := []string{
		"[2026-03-08 01:59:59 TP0] a",
		"[2026-03-08 01:59:59.5 TP0] b",
		"[2026-03-08 01:59:59.999999999 TP0] c",
		"[2026-03-08 02:00:00 TP0] spring forward: a wall time that does not exist",
		"[2026-03-08 02:00:00.25 TP0] d",
		"[2026-03-08 03:00:00 TP0] e",
		"[2026-03-08 03:00:00] INFO:     uvicorn after srt",
		"[2026-03-08 03:00:00.125] INFO:     uvicorn with a fraction",
		"[2026-11-01 01:30:00 TP0] fall back: a wall time that exists twice",
		"[2026-11-01 01:30:00.5 DP1 TP3 EP2] f",
		"[2026-11-01 01:30:01 TP0] g",
		"[2026-11-01 01:30:01x TP0] not a header, the same second",
		"[2026-11-01 01:30:01.1 TP0] h",
		"2026-11-01 01:30:01,100 - root - ERROR - python logging",
		"[2026-11-01 01:30:01.2 TP0] i",
		"[2026-11-0101:30:01.2 TP0] not a date",
	}
	for _, loc := range []*time.Location{time.UTC, ny, time.FixedZone("UTC+5:30", 5*3600+1800)} {
		var sc secondCache
		for _, l := range lines {
			want, wantOK := parseHeader(l, ref, loc)
			got, gotOK := parseHeaderCached(l, ref, loc, &sc)
			if gotOK != wantOK || got.time != want.time || got.format != want.format ||
				got.ranks != want.ranks || got.level != want.level || got.msg != want.msg {
				t.Errorf("%s: %q: cached %+v %v, want %+v %v", loc, l, got, gotOK, want, wantOK)
			}
		}
	}
}
