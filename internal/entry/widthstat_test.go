package entry

import (
	"fmt"
	"strings"
	"testing"
)

// hardWrapText cuts every line of text longer than width into pieces of
// width bytes, as a terminal or a viewer with a fixed width shows it.
func hardWrapText(text string, width int) string {
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for len(l) > width {
			b.WriteString(l[:width])
			b.WriteByte('\n')
			l = l[width:]
		}
		b.WriteString(l)
	}
	return b.String()
}

// widthWriters are logs of three writers whose failure line is longer
// than a terminal, each with the text that must come out whole.
var widthWriters = []struct {
	name, text, whole string
}{
	{"kubectl's pod table", "NAME                                                              READY   STATUS                  RESTARTS   AGE\n" +
		"nfs-nfs-subdir-external-provisioner-7b594c7f5d-kk42h              1/1     Running                 14         112d\n" +
		"sglang-router-7d9c6c8f5b-x2k9p                                    1/1     Running                 0          3d4h\n" +
		"transformers-predictor-default-00001-deployment-64bb9bc765tp8qr   0/2     Init:CrashLoopBackOff   94         27d",
		"Init:CrashLoopBackOff   94         27d"},
	{"vLLM's workers behind Ray's prefixes", strings.Repeat("(vLLMHttpServerForPartial pid=1007413) (Worker_TP3 pid=1024473) ERROR 03-04 05:42:52 [multiproc_executor.py:824]   File \"/usr/local/lib/python3.10/dist-packages/vllm/model_executor/layers/fused_moe/layer.py\", line 962, in _load_model_weight_or_group_weight_scale\n", 3) +
		"(vLLMHttpServerForPartial pid=1007413) (Worker_TP3 pid=1024473) ERROR 03-04 05:42:52 [multiproc_executor.py:824] IndexError: start out of range (expected to be in range of [-768, 768], but got 3072)",
		"IndexError: start out of range (expected to be in range of [-768, 768], but got 3072)"},
	{"a job's plain output", "loading the tokenizer from /models/meta-llama/Llama-3.1-8B-Instruct with trust_remote_code=False and use_fast=True as configured\n" +
		"allocating the key-value cache pool for the scheduler with the memory fraction given on the command line of the launcher\n" +
		"starting the detokenizer manager process and the tokenizer manager with the zmq sockets named in the port arguments\n" +
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. Including non-PyTorch memory, this process has 77.90 GiB memory in use.",
		"GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. Including non-PyTorch memory"},
}

// TestAssemblerWidthFromLengths: a log cut at a terminal's width (80,
// 100, 120, 132, 160) is rejoined once its lengths tell the width, for
// three writers' lines: the failure text comes out whole.
func TestAssemblerWidthFromLengths(t *testing.T) {
	for _, w := range widthWriters {
		for _, width := range []int{80, 100, 120, 132, 160} {
			t.Run(fmt.Sprintf("%s at %d", w.name, width), func(t *testing.T) {
				es := assemble(t, Options{}, hardWrapText(w.text, width))
				for _, e := range es {
					if strings.Contains(e.Text, w.whole) {
						return
					}
				}
				var got []string
				for _, e := range es {
					got = append(got, e.Text)
				}
				t.Errorf("no entry holds %q whole:\n%s", w.whole, strings.Join(got, "\n---\n"))
			})
		}
	}
}

// warningAt returns a Python warning's first line exactly n bytes long.
func warningAt(n int) string {
	s := "/usr/lib/python3/dist-packages/torch/cuda/__init__.py:54: UserWarning: can not use "
	return s + strings.Repeat("x", n-len(s))
}

// TestAssemblerWidthFromLengthsNearMisses: lines as long as each other
// that are no terminal's pieces stay apart.
func TestAssemblerWidthFromLengthsNearMisses(t *testing.T) {
	row := func(s string) string { return s + strings.Repeat(" ", 79-len(s)-1) + "|" }
	tests := []struct {
		name, in, apart string // apart: a line that must stay a line: an entry's first or a continuation
	}{
		{"a table whose every row is as long", strings.Join([]string{
			row("+-----------------------------------------------------------------------------"),
			row("| NVIDIA-SMI 535.54.03     Driver Version: 535.54.03     CUDA Version: 12.2"),
			row("|-------------------------------+----------------------+----------------------"),
			row("| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC"),
			row("|   0  NVIDIA A100-SXM4-80GB  On | 00000000:07:00.0 Off |                    0"),
			row("+-----------------------------------------------------------------------------"),
			"gpu0 ready",
		}, "\n"), "gpu0 ready"},
		{"the longest line recurring, each followed by a sentence", strings.Join([]string{
			"Loading checkpoint shard 1 of 4 from /models/Llama/model-00001-of-00004.safetensors done",
			"Shard 1 loaded.",
			"Loading checkpoint shard 2 of 4 from /models/Llama/model-00002-of-00004.safetensors done",
			"Shard 2 loaded.",
			"Loading checkpoint shard 3 of 4 from /models/Llama/model-00003-of-00004.safetensors done",
			"Shard 3 loaded.",
			"Loading checkpoint shard 4 of 4 from /models/Llama/model-00004-of-00004.safetensors done",
			"Shard 4 loaded.",
		}, "\n"), "Shard 4 loaded."},
		{"a line at the width before a traceback", hardWrapText(widthWriters[2].text, 100) + "\n" +
			strings.Repeat("x", 99) + "y\nTraceback (most recent call last):\n  File \"/a.py\", line 1, in <module>\nValueError: bad", "Traceback (most recent call last):"},
		{"a line at the width before an exception line", hardWrapText(widthWriters[2].text, 100) + "\n" +
			strings.Repeat("x", 99) + "y\nRuntimeError: the next line is one of its own", "RuntimeError: the next line is one of its own"},
		{"a longer line unteaches the width", hardWrapText(widthWriters[2].text, 100) + "\n" +
			strings.Repeat("z", 140) + "\n" + strings.Repeat("x", 99) + "y\nWhich opens a sentence", "Which opens a sentence"},
		{"a line at the width before a sentence, the width told", hardWrapText(widthWriters[2].text, 100) + "\n" +
			warningAt(100) + "\n  warnings.warn(", "  warnings.warn("},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			es := assemble(t, Options{}, tc.in)
			for _, e := range es {
				if strings.HasPrefix(e.Text, strings.TrimLeft(tc.apart, " ")) || strings.Contains(e.Text, "\n"+tc.apart) {
					return
				}
			}
			var got []string
			for _, e := range es {
				got = append(got, e.Text)
			}
			t.Errorf("no entry holds %q as a line:\n%s", tc.apart, strings.Join(got, "\n---\n"))
		})
	}
}

// FuzzWidthFromLengths checks the length reader's promises on any lines:
// it tells a width only at the longest length so far, at least
// minWrapWidth, after minPieces pieces; a learned width never stands
// below a longer line; and the Assembler keeps every line.
func FuzzWidthFromLengths(f *testing.F) {
	f.Add(hardWrapText(widthWriters[0].text, 80))
	f.Add(hardWrapText(widthWriters[1].text, 120))
	f.Add(strings.Repeat(strings.Repeat("x", 79)+"y\nzz\n", 4))
	f.Fuzz(func(t *testing.T, text string) {
		var w wrapWidth
		longest := 0
		prev := ""
		for i, l := range strings.Split(text, "\n") {
			if l == "" {
				w.gap()
				prev = ""
				continue
			}
			w.observe(len(l))
			longest = max(longest, len(l))
			if w.width > 0 && w.width < len(l) {
				t.Fatalf("line %d: width %d below the line's length %d", i, w.width, len(l))
			}
			w.notePiece(prev, l, len(l))
			if w.longest(w.prevRaw) && (w.prevRaw != longest || w.prevRaw < minWrapWidth || w.pieces < minPieces || !w.inside) {
				t.Fatalf("line %d: longest(%d) with %+v, longest length %d", i, w.prevRaw, w, longest)
			}
			prev = l
		}
		assemble(t, Options{}, text)
	})
}
