package catalog_test

import (
	"testing"

	"github.com/logmatch/logmatch/matcher"
)

// Whole wording sets of writers whose failure lines reach a serving log,
// each written from the writer's own message table and composed the ways
// the line arrives (in a traceback, behind a wrapper, bare):
//   - Pillow refuses an image over twice its pixel limit
//     (DecompressionBombError; under that, only a warning), and words every decoder failure "<codec status> when reading image
//     file" (the C core's status names, or ImageFile's own fallbacks when the
//     core has none), and a short read "image file is truncated", with or
//     without the count of bytes left;
//   - slurmstepd ends a job or step with "*** JOB|STEP <id> ON <node>
//     CANCELLED AT <time> DUE TO <reason> ***" (older releases put the node
//     last); with no reason (scancel, or the job's end taking its steps
//     down) the line is routine;
//   - a GPU kernel's assertion prints "<function>: Assertion `<cond>`
//     failed" (CUDA, with or without its block/thread coordinates, which a
//     reporter's summary drops), or "Device-side assertion `<cond>' failed."
//     (HIP on ROCm);
//   - the OpenAI API's context-length wording: a server's own raise of it
//     is vLLM's, a client's relayed 400 body is any OpenAI-compatible
//     server's.

type writerWording struct {
	family string
	want   string // "" when no failure record may lead
	lines  []string
}

func writerWordings() []writerWording {
	pil := func(status string) string {
		return "Traceback (most recent call last):\n" +
			`  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/multimodal/processors/base_processor.py", line 545, in _load_single_item` + "\n" +
			"    img = img.convert(\"RGB\")\n" +
			`  File "/usr/local/lib/python3.12/dist-packages/PIL/ImageFile.py", line 431, in load` + "\n" +
			"    raise _get_oserror(err_code, encoder=False)\n" +
			"OSError: " + status + " when reading image file"
	}
	slurm := func(s string) string { return "slurmstepd: error: *** " + s + " ***" }
	return []writerWording{
		{family: "Pillow: a decoder's codec status", want: "image-decode-failed", lines: []string{
			pil("broken data stream"),
			pil("unrecognized data stream contents"),
			pil("buffer overrun"),
			pil("codec configuration error"),
			pil("image buffer overrun error"),
			pil("decoding error"),
			pil("bad configuration"),
			pil("decoder error -10"),
			"RuntimeError: Error while loading data ImageData(url='data:image/png;base64,iVBOR...'): unrecognized data stream contents when reading image file",
		}},
		{family: "Pillow: a short read, and a file no plugin identifies", want: "image-decode-failed", lines: []string{
			tb("OSError: image file is truncated"),
			tb("OSError: image file is truncated (3 bytes not processed)"),
			tb("PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x7f3a2c0b8740>"),
			tb("SyntaxError: broken PNG file"),
		}},
		{family: "Pillow: an image over twice the pixel limit", want: "image-decompression-bomb", lines: []string{
			tb("PIL.Image.DecompressionBombError: Image size (205000000 pixels) exceeds limit of 178956970 pixels, could be decompression bomb DOS attack."),
			"RuntimeError: Error while loading data ImageData(url='https://example.com/scan.png'): DecompressionBombError('Image size (205000000 pixels) exceeds limit of 178956970 pixels, could be decompression bomb DOS attack.')",
		}},
		{family: "Pillow: routine mentions", lines: []string{
			"/usr/local/lib/python3.12/dist-packages/PIL/Image.py:3402: DecompressionBombWarning: Image size (93950400 pixels) exceeds limit of 89478485 pixels, could be decompression bomb DOS attack.",
			"[2026-05-28 00:11:09] Setting ImageFile.LOAD_TRUNCATED_IMAGES = True so a truncated image file is loaded as far as it goes",
		}},
		{family: "Slurm: the scheduler ended the job or step", want: "slurm-job-cancelled", lines: []string{
			slurm("JOB 608 ON node-17 CANCELLED AT 2022-08-12T02:06:12 DUE TO JOB REQUEUE"),
			slurm("STEP 608.0 ON node-17 CANCELLED AT 2022-08-12T02:06:12 DUE TO JOB REQUEUE"),
			slurm("JOB 31182239 ON sh-06-34 CANCELLED AT 2018-11-05T10:35:06 DUE TO TIME LIMIT"),
			slurm("JOB 4068673 ON gpu-a12 CANCELLED AT 2026-09-28T10:45:01 DUE TO PREEMPTION"),
			slurm("JOB 4068673 ON gpu-a12 CANCELLED AT 2026-09-28T10:45:01 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS"),
			slurm("JOB 4068673 ON gpu-a12 UNCORRECTABLE MEMORY ERROR AT 2026-09-28T10:45:01"),
			// Older releases: the node after the reason.
			slurm("JOB 1234 CANCELLED AT 2019-03-01T08:00:00 DUE TO TIME LIMIT on node-3"),
			slurm("JOB 1234 CANCELLED AT 2019-03-01T08:00:00 DUE TO NODE node-3 FAILURE"),
		}},
		{family: "Slurm: a task exited non-zero", want: "slurm-task-exited", lines: []string{
			slurm("JOB 4068673 ON gpu-a12 FAILED (non-zero exit code or other failure mode)"),
			"srun: error: node-17: tasks 2-3: Exited with exit code 1",
		}},
		{family: "Slurm: routine job notices", lines: []string{
			slurm("STEP 4068673.0 ON gpu-a12 CANCELLED AT 2026-09-28T10:45:01"),
			"slurmstepd: info: Setting TMPDIR to /tmp. Previous errors about TMPDIR can be discarded",
			"submitit WARNING (2022-08-12 02:06:12,299) - Bypassing signal SIGCONT",
		}},
		{family: "a GPU kernel's assertion", want: "cuda-kernel-assertion-failed", lines: []string{
			// CUDA, with and without the coordinates.
			"/pytorch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu:144: operator(): block: [3,0,0], thread: [12,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.",
			"vectorized_gather_kernel: Assertion `ind >= 0 && ind < ind_dim_size` failed",
			"indexSelectLargeIndex: Assertion `srcIndex < srcSelectDimSize` failed.",
			"../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
			// HIP on ROCm.
			"/pytorch/aten/src/ATen/native/hip/Indexing.hip:1292: indexSelectLargeIndex: Device-side assertion `srcIndex < srcSelectDimSize' failed.",
			"csrc/rocm/skinny_gemms.hip:583: void wvSplitK_hf_sml_(...) [scalar_t = __half, THRDS = 64]: Device-side assertion `false' failed.",
		}},
		{family: "assertions that are not a GPU kernel's", lines: []string{
			"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
			"[2026-05-28 00:11:09] The check `ind >= 0` failed validation for request 7; retrying",
		}},
		{family: "the context-length error raised by vLLM itself", want: "vllm-prompt-longer-than-max-model-len", lines: []string{
			"ValueError: This model's maximum context length is 8192 tokens. However, you requested 8203 tokens (7691 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
			"`ERROR 05-08 21:27:27 [serving_chat.py:198] ValueError: This model's maximum context length is 8192 tokens. However, you requested 8203 tokens (7691 in the messages, 512 in the completion). Please reduce the length of the messages or completion.`",
			"vllm.exceptions.VLLMValidationError: This model's maximum context length is 4096 tokens. However, you requested 512 output tokens and your prompt contains 3700 input tokens, for a total of 4212 tokens. Please reduce the length of the input prompt or the number of requested output tokens.",
		}},
		{family: "the context-length error as a client relays a server's 400 body", want: "input-longer-than-context-length", lines: []string{
			"01/15 16:19:27 - OpenCompass - ERROR - openai_api.py - _generate - 650 - Error code: 400 - {'object': 'error', 'message': \"This model's maximum context length is 2048 tokens. However, you requested 6751 tokens (6719 in the messages, 32 in the completion). Please reduce the length of the messages or completion.\", 'code': 400}",
		}},
	}
}

// TestWriterWordings checks each writer's whole wording set.
func TestWriterWordings(t *testing.T) {
	checkWordings(t, compileCatalog(t), writerWordings())
}

// checkWordings checks that each family's record leads every one of its
// lines (a writer's wording set, or a family's wordings across releases).
func checkWordings(t *testing.T, m *matcher.Matcher, families []writerWording) {
	t.Helper()
	for _, w := range families {
		claimed := 0
		for _, line := range w.lines {
			lead, context := vocabLead(m, line)
			if leads(lead, context, w.want) {
				claimed++
				continue
			}
			got := "nothing"
			if lead != nil {
				got = lead.Slug
			}
			t.Errorf("%s: want %q to lead, got %s (wrappers %v):\n%s", w.family, w.want, got, context, line)
		}
		t.Logf("%s: %d of %d wordings claimed", w.family, claimed, len(w.lines))
	}
}

var writerWordingsWidened = map[string]example{
	"image-decode-failed": {
		match: []string{
			"OSError: broken data stream when reading image file",
			"OSError: unrecognized data stream contents when reading image file",
			"OSError: image file is truncated",
		},
		miss: []string{"Setting ImageFile.LOAD_TRUNCATED_IMAGES so a truncated image file loads"},
	},
	"slurm-job-cancelled": {
		match: []string{
			"slurmstepd: error: *** JOB 608 ON node-17 CANCELLED AT 2022-08-12T02:06:12 DUE TO JOB REQUEUE ***",
			"slurmstepd: error: *** JOB 1234 CANCELLED AT 2019-03-01T08:00:00 DUE TO TIME LIMIT on node-3 ***",
		},
		miss: []string{"slurmstepd: error: *** JOB 608 ON node-17 FAILED (non-zero exit code or other failure mode) ***"},
	},
	"slurm-task-exited": {
		match: []string{"slurmstepd: error: *** JOB 608 ON node-17 FAILED (non-zero exit code or other failure mode) ***"},
	},
	"cuda-kernel-assertion-failed": {
		match: []string{
			"vectorized_gather_kernel: Assertion `ind >= 0 && ind < ind_dim_size` failed",
			"/pytorch/aten/src/ATen/native/hip/Indexing.hip:1292: indexSelectLargeIndex: Device-side assertion `srcIndex < srcSelectDimSize' failed.",
		},
		miss: []string{"python3: /src/main.c:42: main: Assertion `x > 0' failed."},
	},
	"input-longer-than-context-length": {
		miss: []string{"ValueError: This model's maximum context length is 8192 tokens. However, you requested 8203 tokens (7691 in the messages, 512 in the completion)."},
	},
}

func init() { addExamples(nil, writerWordingsWidened) }

// The multimodal loader's logger.exception header: it announces the failure
// whose traceback follows, so it is a note, never a page of its own (a
// source-generated record for the same line must not lead over the
// exception that names the cause).
var writerWordingsExamples = map[string]example{
	"image-decompression-bomb": {
		match: []string{
			"PIL.Image.DecompressionBombError: Image size (205000000 pixels) exceeds limit of 178956970 pixels, could be decompression bomb DOS attack.",
			"ValueError: Failed to load image: DecompressionBombError('Image size (400000000 pixels) exceeds limit of 178956970 pixels, could be decompression bomb DOS attack.')",
		},
		miss: []string{"DecompressionBombWarning: Image size (93950400 pixels) exceeds limit of 89478485 pixels, could be decompression bomb DOS attack."},
	},
	"multimodal-load-error-header": {
		match: []string{
			"[load_mm_data(simple)] error loading IMAGE data at index=0",
			"[2026-05-28 00:11:09] [load_mm_data(simple)] error loading VIDEO data at index=2",
		},
		miss: []string{"Error in request: An exception occurred while loading IMAGE data at index 0: broken data stream when reading image file"},
	},
}

func init() { addExamples(writerWordingsExamples, nil) }
