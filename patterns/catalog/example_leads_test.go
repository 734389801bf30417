package catalog_test

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// acceptedLeads are the pairs of records where an example of the first
// is led by the second, and that is right: the second is a narrower
// record of the same event (or the example's text carries the second's
// own failure, the first's line its consequence or context). Keyed
// "example's record <- leader", the value says why. The list only
// shrinks: TestExampleLeads fails on a pair not listed, and on a listed
// pair no example shows any more.
var acceptedLeads = map[string]string{
	"torch-memory-saver-after-kernel-fault <- cuda-illegal-memory-access":        "the saver's sticky result 700 is the kernel fault itself; the saver's record is its consequence",
	"torch-memory-saver-after-kernel-fault <- cuda-device-side-assert":           "the saver's sticky result 710 is the failed device assert itself; the saver's record is its consequence",
	"vllm-worker-failed-rpc <- cuda-illegal-memory-access":                       "the worker's RPC failure quotes the CUDA fault that killed it; the RPC record is its consequence",
	"kserve-model-server-start-failed <- vllm-engine-core-initialization-failed": "KServe's start failure quotes the vLLM engine core's failure that stopped it; KServe's record is its consequence",
	"vllm-worker-failed-rpc <- nccl-unhandled-cuda-error":                        "the worker's RPC failure quotes the NCCL error that killed it; the RPC record is its consequence",
	"weight-update-failed <- load-weights-shape-mismatch":                        "the update failed because a weight's shape does not fit its parameter, which the line names",
	"torch-memory-saver-hook-load-failed <- cuda-shared-library-missing":         "the hook failed to load because the CUDA runtime it links is absent, which the line names",
	"torch-inductor-cpp-compile-error <- triton-gcc-build-failed":                "the failed command builds Triton's C launcher (main.c), not Inductor's C++: the Triton build record names it",
	"router-start-failed <- router-workers-startup-timeout":                      "the router failed to start because its workers never became healthy, which the line names",
	"router-service-discovery-failed <- k8s-rbac-forbidden":                      "the watcher failed because its service account may not watch pods, which the line names",
	"grammar-invalid-json-schema <- xgrammar-grammar-parse-error":                "the grammar that failed to compile is EBNF with a parse error: the EBNF record names it",
}

// exampleLead is one example text of one record and what leads it.
type exampleLead struct {
	record *patterns.Record
	text   string
	leader string // slug of the record that leads instead; "" when record leads
}

// leadsExample reports whether r leads some entry of text on the real
// path (the entry assembler, then the analysis told the record's engine
// when it names engines), and otherwise what led
// the entry r was read in: a cause, a wrapper that reads the line among
// the entry's wrappers, an info record the best reading of its entry,
// or "unclassified" when the analysis named no record.
func leadsExample(m *matcher.Matcher, r *patterns.Record, text string) (bool, string) {
	a := entry.NewAssembler(entry.Options{})
	var ents []entry.Entry
	for i, line := range strings.Split(text, "\n") {
		ents = append(ents, a.Push(entry.Line{Text: line, Source: "example", Stream: "stderr", Offset: int64(i)})...)
	}
	ents = append(ents, a.Flush()...)
	an := analysis.New(m)
	eng := ""
	if len(r.Engines) > 0 {
		// The record's examples are lines of the engine it names: the
		// engine, given as configured, drops the records of others, and
		// the scheduler's traceback an example is raised in (tb) does
		// not make it sglang's.
		eng = r.Engines[0]
		an.SetEngine(eng)
		an.ConfigureEngine(true)
	}
	leader := ""
	for i := range ents {
		d, ok := an.Analyze(&ents[i])
		var seen bool
		if ok {
			if d.Cause != nil && d.Cause.Record.ID == r.ID {
				return true, ""
			}
			if r.Role.Is(patterns.RoleWrapper) && slices.ContainsFunc(d.Context, func(h matcher.Hit) bool { return h.Record.ID == r.ID }) {
				return true, ""
			}
			seen = slices.ContainsFunc(d.Hits(), func(h matcher.Hit) bool { return h.Record.ID == r.ID })
			if seen && leader == "" {
				if d.Cause != nil {
					leader = d.Cause.Record.Slug
				} else {
					leader = "unclassified"
				}
			}
			continue
		}
		// No alert: an info record's line, or no failure. The matcher's
		// best hit is what the line reads as.
		s := matcher.Subject{Text: ents[i].Text}
		if ents[i].Traceback != nil {
			for _, l := range ents[i].Traceback.Links {
				s.ExceptionTypes = append(s.ExceptionTypes, l.Type)
			}
		}
		hits, _ := m.Match(s)
		hits = slices.DeleteFunc(hits, func(h matcher.Hit) bool { return !h.Record.ForEngine(eng) })
		if len(hits) > 0 && hits[0].Record.ID == r.ID {
			return true, ""
		}
		if leader == "" && slices.ContainsFunc(hits, func(h matcher.Hit) bool { return h.Record.ID == r.ID }) {
			leader = hits[0].Record.Slug
		}
	}
	if leader == "" {
		leader = "nothing"
	}
	return false, leader
}

// allExampleTexts returns every matching example of every record of the
// embedded catalog: the example maps of the catalog tests, engines.jsonl's
// examples and the engine files' testdata/engine-records.json.
func allExampleTexts(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for slug, ex := range examples {
		out[slug] = append(out[slug], ex.match...)
	}
	for slug, ex := range engineExamples {
		out[slug] = append(out[slug], ex.match...)
	}
	var engineRecs map[string]struct {
		Match []string `json:"match"`
	}
	data, err := os.ReadFile("testdata/engine-records.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &engineRecs); err != nil {
		t.Fatal(err)
	}
	for slug, ex := range engineRecs {
		out[slug] = append(out[slug], ex.Match...)
	}
	return out
}

// exceptionLine is an example that is one Python exception line.
var exceptionLine = regexp.MustCompile(`^[\w.]+(?:Error|Exception|Exit|Interrupt): `)

// defaultBySlug is the default catalog's records by slug.
func defaultBySlug() map[string]*patterns.Record {
	recs, _ := patterns.Default()
	bySlug := make(map[string]*patterns.Record, len(recs))
	for i := range recs {
		bySlug[recs[i].Slug] = &recs[i]
	}
	return bySlug
}

// auditExampleLeads runs every example of every record through the real
// path, a bare exception line also inside tracebacks, and returns each
// text with what leads it.
func auditExampleLeads(t *testing.T, m *matcher.Matcher) []exampleLead {
	t.Helper()
	bySlug := defaultBySlug()
	texts := allExampleTexts(t)
	slugs := slices.Sorted(maps.Keys(texts))
	var out []exampleLead
	for _, slug := range slugs {
		r := bySlug[slug]
		if r == nil {
			t.Errorf("examples for %s, which is not in the catalog", slug)
			continue
		}
		for _, text := range texts[slug] {
			shapes := []string{text}
			if !strings.Contains(text, "\n") && exceptionLine.MatchString(text) {
				// A bare exception line is also raised: in a traceback
				// on stderr and in a scheduler's, where its type is the
				// entry's exception type and ranks records of that class.
				shapes = append(shapes, rawTB(text), tb(text))
			}
			for _, s := range shapes {
				ok, leader := leadsExample(m, r, s)
				if ok {
					leader = ""
				}
				out = append(out, exampleLead{record: r, text: s, leader: leader})
			}
		}
	}
	return out
}

// TestExampleLeads checks that every record leads each of its matching
// examples on the real path, or is led by a record acceptedLeads names.
// With LOGMATCH_LEADS_AUDIT set it logs every example led otherwise.
func TestExampleLeads(t *testing.T) {
	m := compileCatalog(t)
	audit := os.Getenv("LOGMATCH_LEADS_AUDIT") != ""
	shown := map[string]bool{}
	led, total := 0, 0
	for _, ex := range auditExampleLeads(t, m) {
		total++
		if ex.leader == "" {
			continue
		}
		led++
		pair := ex.record.Slug + " <- " + ex.leader
		shown[pair] = true
		if audit {
			t.Logf("LEAD %s\n%s", pair, ex.text)
			continue
		}
		if _, ok := acceptedLeads[pair]; !ok {
			t.Errorf("%s: example led by %s, not by its record\n%s", ex.record.Slug, ex.leader, ex.text)
		}
	}
	t.Logf("%d examples, %d led by another record", total, led)
	for pair := range acceptedLeads {
		if !shown[pair] && !audit {
			t.Errorf("accepted pair %q no longer shows: drop it", pair)
		}
	}
}

// narrowedNeighbours are lines of the families a broader record gave up
// to its narrower neighbour, in wordings beyond the examples, and lines
// the broader record keeps: each must be led by want.
var narrowedNeighbours = []rankCase{
	// The gateway names the PD role it lacks; a router with no worker at
	// all says so otherwise.
	{"2026-05-28T00:11:09.123456Z  WARN smg::routers::http::pd_router: No available encode workers", "router-pd-role-unavailable"},
	{"2026-05-28T00:11:09.123456Z ERROR smg::routers::grpc::pd_router: No available prefill workers", "router-pd-role-unavailable"},
	{"2026-05-28T00:11:09.123456Z  WARN smg::routers::http::router: No available workers (all circuits open or unhealthy)", "router-no-available-workers"},
	// torch_memory_saver's checked driver call with an invalid device;
	// any other invalid device ordinal is CUDA's.
	{"[torch_memory_saver.cpp] CUresult error: 101 (invalid device ordinal)  file=csrc/core.cpp func=malloc line=52", "torch-memory-saver-invalid-request"},
	{"[torch_memory_saver.cpp] hipError_t error: 101 (invalid device ordinal)  file=csrc/core.cpp func=pause line=196", "torch-memory-saver-invalid-request"},
	{"RuntimeError: CUDA error: invalid device ordinal", "cuda-invalid-device-ordinal"},
	// A HIP module load that finds no code object for the GPU; CUDA's
	// own wording stays CUDA's.
	{"[AITER] /opt/aiter/csrc/include/aiter_hip_common.h:90 fail to call hipModuleLoad(&module, path) ---> [HIP error](no kernel image is available for execution on the device)", "hip-no-binary-for-gpu"},
	{"RuntimeError: CUDA error: no kernel image is available for execution on the device", "cuda-no-kernel-image"},
	{"RuntimeError: CUDA error: device kernel image is invalid", "cuda-no-kernel-image"},
	// gloo's ibverbs pair reports the work completion's status; its other
	// enforce checks stay gloo's.
	{"gloo::EnforceNotMet: [enforce fail at gloo/transport/ibverbs/pair.cc:470] wc->status == IBV_WC_SUCCESS. 12 vs 0. Recv for slot 1: transport retry counter exceeded", "rdma-work-completion-error"},
	{"RuntimeError: [enforce fail at gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 8 vs 4", "gloo-enforce-not-met"},
	// py-spy refused by ptrace is no file access; a file the process may
	// not write still is.
	{"[2026-05-28 00:11:09 TP0] Pyspy failed (py-spy dump --pid 312). Error: Operation not permitted (os error 1)", "pyspy-failed"},
	{"ERROR: failed to write /models/cache/config.json: Permission denied (os error 13)", "filesystem-access-denied"},
	// A missing submodule of an installed outlines is a version mismatch;
	// outlines itself absent is a module not installed.
	{rawTB("ModuleNotFoundError: No module named 'outlines_core.fsm'"), "outlines-version-mismatch"},
	{rawTB("ModuleNotFoundError: No module named 'outlines.models.transformers'"), "outlines-version-mismatch"},
	{rawTB("ModuleNotFoundError: No module named 'outlines'"), "python-module-not-found"},
	// llama.cpp's unknown architecture in both its wordings; other load
	// errors stay the generic one's.
	{"llama_model_load: error loading model: unknown model architecture: 'gemma3n'", "llamacpp-unknown-model-architecture"},
	{"llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'qwen3next'", "llamacpp-unknown-model-architecture"},
	{"llama_model_load: error loading model: error loading model hyperparameters: key not found in model: llama.context_length", "llamacpp-error-loading-model"},
}

// TestNarrowedNeighboursLead checks the lines of narrowedNeighbours on the
// real path.
func TestNarrowedNeighboursLead(t *testing.T) {
	m := compileCatalog(t)
	for _, tc := range narrowedNeighbours {
		lead, context := raiseLead(m, tc.text)
		if !leads(lead, context, tc.want) {
			got := "nothing"
			if lead != nil {
				got = lead.Slug
			}
			t.Errorf("%s leads, want %s\n%s", got, tc.want, tc.text)
		}
	}
}
