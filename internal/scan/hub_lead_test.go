package scan_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/scan"
)

// TestHubCacheMissLeadsOverNetworkFailure: huggingface_hub falls back to
// its cache when the Hub cannot be reached, so a network failure line
// followed by the cache miss (offline mode, LocalEntryNotFoundError, the
// transformers OSError) is one incident led by the cache miss; the
// network failure alone still alerts.
func TestHubCacheMissLeadsOverNetworkFailure(t *testing.T) {
	const netLine = "urllib3.exceptions.MaxRetryError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /Qwen/Qwen3-8B/resolve/main/config.json (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f3a>, 'Connection to huggingface.co timed out. (connect timeout=10)'))"
	misses := map[string]string{
		"LocalEntryNotFoundError": "huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.",
		"offline mode":            "huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/api/models/Qwen/Qwen3-8B: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.",
		"transformers OSError":    "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files.",
	}
	m := corpusMatcher(t)
	run := func(t *testing.T, log string) scan.Result {
		t.Helper()
		s := scan.New(m, scan.Options{Entry: entry.Options{}, Now: func() time.Time { return corpusNow }})
		res, err := s.Scan(context.Background(), []scan.Input{{Name: "hub.log", R: strings.NewReader(log)}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for name, miss := range misses {
		t.Run(name, func(t *testing.T) {
			tb := "Traceback (most recent call last):\n" +
				`  File "/usr/local/lib/python3.12/dist-packages/transformers/utils/hub.py", line 470, in cached_files` + "\n" +
				"    hf_hub_download(\n" + miss + "\n"
			res := run(t, netLine+"\n"+tb)
			if len(res.Alerts) != 1 {
				t.Fatalf("%d incidents, want 1: %v", len(res.Alerts), headlines(res))
			}
			if got := lead(res.Alerts).Record.Slug; got != "hf-offline-cache-miss" {
				t.Errorf("lead %s, want hf-offline-cache-miss", got)
			}
		})
	}
	t.Run("network failure alone", func(t *testing.T) {
		res := run(t, netLine+"\n")
		if len(res.Alerts) != 1 || lead(res.Alerts).Record.Slug != "hf-hub-unreachable" {
			t.Errorf("want one hf-hub-unreachable incident, got %v", headlines(res))
		}
	})
}

func headlines(res scan.Result) []string {
	var out []string
	for i := range res.Alerts {
		out = append(out, headline(&res.Alerts[i]))
	}
	return out
}

// TestRouterUnavailableFoldsIntoWorkerCrash: a client's 503 from the
// router after a worker's crash in the same log is a consequence of the
// crash and folds into it; alone it is an incident of its own.
func TestRouterUnavailableFoldsIntoWorkerCrash(t *testing.T) {
	const crash = "[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3120, in run_scheduler_process` + "\n" +
		"    scheduler.event_loop_overlap()\n" +
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n"
	const unavailable = "[2026-05-28 00:11:15] httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://10.0.0.34:3938/generate'\n"
	m := corpusMatcher(t)
	run := func(log string) scan.Result {
		s := scan.New(m, scan.Options{Entry: entry.Options{}, Now: func() time.Time { return corpusNow }})
		res, err := s.Scan(context.Background(), []scan.Input{{Name: "rollout.log", R: strings.NewReader(log)}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run(crash + unavailable); len(res.Alerts) != 1 || lead(res.Alerts).Record.Slug != "cuda-out-of-memory" {
		t.Errorf("crash then 503: want one cuda-out-of-memory incident, got %v", headlines(res))
	}
	if res := run(unavailable); len(res.Alerts) != 1 || lead(res.Alerts).Record.Slug != "router-service-unavailable" {
		t.Errorf("503 alone: want one router-service-unavailable incident, got %v", headlines(res))
	}
}
