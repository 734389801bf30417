package catalog_test

import (
	"strings"
	"testing"
)

// firstFixes names, for the records that lead most often, the key token
// their first solution must hold: the step that most often fixed the
// failure in reported threads (the flag, the version move, the
// environment variable, the command). An alert's first step is the one
// read, so a reordering that puts a diagnosis or a rarer cause first
// fails here instead of drifting unnoticed. engine, when set, checks the
// first of that engine's remedies as well.
var firstFixes = []struct {
	slug, first   string
	engine, remed string
}{
	// Most illegal accesses are kernel bugs a later release fixes.
	{slug: "cuda-illegal-memory-access", first: "Upgrade the engine, its kernel packages and torch together",
		engine: "sglang", remed: "--attention-backend"},
	// Containers with docker's small /dev/shm are the usual cause.
	{slug: "nccl-unhandled-system-error", first: "--ipc=host"},
	// Missing or unexpected weight names are mostly fixed by a newer release.
	{slug: "load-weights-key-error", first: "Upgrade the engine to its newest release"},
	// Lowering the engine's memory reservation is what most often works.
	{slug: "cuda-out-of-memory", first: "Reserve less of the GPU",
		engine: "sglang", remed: "--mem-fraction-static"},
	{slug: "cuda-out-of-memory", engine: "vllm", remed: "--gpu-memory-utilization"},
	// Driver-side allocations need room outside the reservation.
	{slug: "cuda-error-out-of-memory", first: "lower the engine's memory share",
		engine: "sglang", remed: "--mem-fraction-static"},
	{slug: "cuda-error-out-of-memory", engine: "vllm", remed: "--gpu-memory-utilization"},
	// The model, and the models it loads by name, must be in the cache.
	{slug: "hf-offline-cache-miss", first: "huggingface-cli download"},
	{slug: "hf-offline-cache-miss", first: "every other model the checkpoint loads by name"},
	{slug: "address-already-in-use", first: "ss -ltnp"},
	{slug: "hf-gated-repo", first: "Accept the model's licence"},
	{slug: "cuda-no-kernel-image", first: "compute capability"},
	{slug: "sgl-kernel-undefined-symbol", first: "pip install \"sglang[all]=="},
	{slug: "nccl-watchdog-collective-timeout", engine: "sglang", remed: "--dist-timeout"},
	{slug: "hip-no-binary-for-gpu", first: "Reinstall (or rebuild) the kernel library"},
	// Peer-to-peer the platform does not support is the usual cause.
	{slug: "nccl-unhandled-cuda-error", first: "NCCL_P2P_DISABLE=1"},
	// A newer transfer engine fixed most KV transfer failures.
	{slug: "disagg-decode-transfer-failed", first: "mooncake-transfer-engine"},
	// Later releases pick block sizes that fit GPUs with less shared memory.
	{slug: "triton-out-of-resources", first: "Upgrade the serving engine",
		engine: "sglang", remed: "a newer sglang first"},
	// Compiling inside graph capture is the most reported cause.
	{slug: "capture-cuda-graph-failed", first: "--enable-torch-compile"},
	// A stuck scheduler is mostly a bug a later release fixed.
	{slug: "watchdog-timeout-legacy", first: "Upgrade sglang to its newest release"},
	// Asserts on valid requests are mostly engine bugs fixed since.
	{slug: "cuda-device-side-assert", first: "upgrade the engine"},
	// Mismatched native builds are the usual cause of a segfault.
	{slug: "fatal-python-error-segfault", first: "that the engine's release pins"},
}

func TestFirstSolutionNamesTheFix(t *testing.T) {
	bySlug := map[string]int{}
	recs := curated(t)
	for i, r := range recs {
		bySlug[r.Slug] = i
	}
	for _, c := range firstFixes {
		i, ok := bySlug[c.slug]
		if !ok {
			t.Errorf("%s: no such record in the catalog", c.slug)
			continue
		}
		r := recs[i]
		if c.first != "" {
			if len(r.Solutions) == 0 || !strings.Contains(r.Solutions[0], c.first) {
				t.Errorf("%s: the first solution does not name %q: %q", c.slug, c.first, r.Solutions)
			}
		}
		if c.engine != "" {
			rem := r.Remedies[c.engine]
			if len(rem) == 0 || !strings.Contains(rem[0], c.remed) {
				t.Errorf("%s: the first %s remedy does not name %q: %q", c.slug, c.engine, c.remed, rem)
			}
		}
	}
}
