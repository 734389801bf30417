package scan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/logfile"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
)

// wrapper is a way logs reach an operator wrapped: a collector, a
// container runtime, a CI system or a paste puts something in front of
// every line (SGLANG-LOGS.md, section 10). line gets the 0-based line
// number and the line without its newline and returns what the operator
// sees.
type wrapper struct {
	name string
	line func(n int, s string) string
}

// wholeText turns a wrapper's text as a whole into the bytes a writer
// stores (a character encoding), for the wrappers it names.
var wholeText = map[string]func(text string) string{"utf16le-bom": utf16LE}

// stamp is the n-th line's time, 7 ms apart, so stamps differ as they do
// in a real log.
func stamp(n int) time.Time {
	return time.Date(2025, 11, 6, 2, 10, 0, 702_513_093, time.UTC).Add(time.Duration(n) * 7 * time.Millisecond)
}

var wrappers = []wrapper{
	{"compose", func(_ int, s string) string { return "sglang-1  | " + s }},
	{"ray", func(_ int, s string) string { return "(SGLangEngine pid=48213) " + s }},
	{"kubectl-timestamps", func(n int, s string) string {
		return stamp(n).Format(time.RFC3339Nano) + " " + s
	}},
	{"actions", func(n int, s string) string {
		return stamp(n).Format("2006-01-02T15:04:05.0000000Z") + " " + s
	}},
	{"kubectl-prefix", func(_ int, s string) string { return "[pod/sglang-0/sglang] " + s }},
	{"journald", func(n int, s string) string {
		return stamp(n).Format("Jan 02 15:04:05") + " gpu-node-3 sglang[2741]: " + s
	}},
	{"blockquote", func(_ int, s string) string {
		if s == "" {
			return ">"
		}
		return "> " + s
	}},
	{"double-spaced", func(_ int, s string) string { return s + "\n" }},
	{"srun-label", func(_ int, s string) string { return "3: " + s }},
	{"mpirun-tag", func(_ int, s string) string { return "[1,3]<stderr>:" + s }},
	{"loki-pipe", func(n int, s string) string { return stamp(n).Format("2006-01-02 15:04:05.000") + " | " + s }},
	{"bracketed-stamp", func(n int, s string) string {
		return "[" + stamp(n).Format("2006-01-02T15:04:05.000Z") + "] " + s
	}},
	{"grep-n", func(n int, s string) string { return fmt.Sprintf("%d:%s", 1812+n, s) }},
	{"cri", func(n int, s string) string { return stamp(n).Format(time.RFC3339Nano) + " stderr F " + s }},
	{"crlf", func(_ int, s string) string { return s + "\r" }},
	{"ansi-level", func(_ int, s string) string { return colourLevel(s) }},
	{"ansi-line", func(_ int, s string) string {
		if s == "" {
			return s
		}
		return "\x1b[33m" + colourLevel(s) + "\x1b[0m"
	}},
	{"docker-json", func(n int, s string) string {
		b, err := json.Marshal(struct {
			Log    string `json:"log"`
			Stream string `json:"stream"`
			Time   string `json:"time"`
		}{s + "\n", "stderr", stamp(n).Format(time.RFC3339Nano)})
		if err != nil {
			panic(err)
		}
		return string(b)
	}},
	{"loki-tab", func(n int, s string) string { return stamp(n).Format(time.RFC3339Nano) + "\t" + s }},
	{"cr-redraw", func(n int, s string) string {
		// A progress bar (tqdm) redrawn with CR before the line the
		// terminal keeps on every third line, a lone CR on the others.
		// A blank line keeps the bar: the terminal shows it.
		if n%3 == 0 && s != "" {
			return fmt.Sprintf("\rLoading safetensors checkpoint shards:  %d%% Completed | %d/4 [00:0%d<00:03]\r", n%100, n%4, n%10) + s
		}
		return "\r" + s
	}},
	{"tab-indent", func(_ int, s string) string { return "\t" + s }},
	{"md-dash", func(_ int, s string) string { return "- " + s }},
	{"md-star", func(_ int, s string) string { return "* " + s }},
	{"code-block", func(_ int, s string) string { return "    " + s }},
	{"hard-wrap-120", func(_ int, s string) string { return hardWrap(s, 120) }},
	{"hard-wrap-80", func(_ int, s string) string { return hardWrap(s, 80) }},
	{"kubectl-prefix-timestamps", func(n int, s string) string {
		return "[pod/sglang-0/sglang] " + stamp(n).Format(time.RFC3339Nano) + " " + s
	}},
	// A paste that quotes every line as inline code, as a chat or an
	// issue does a few log lines: the span closes at the line's end or
	// before an ellipsis, bare or as a list item.
	{"inline-code", func(_ int, s string) string { return inlineCode("", s, "") }},
	{"inline-code-ellipsis", func(_ int, s string) string { return inlineCode("", s, "...") }},
	{"md-dash-inline-code", func(_ int, s string) string { return inlineCode("- ", s, "") }},
	// A paste indented by two spaces, as a list item's continuation or
	// a hand-indented quote puts it.
	{"indent-2", func(_ int, s string) string {
		if s == "" {
			return s
		}
		return "  " + s
	}},
	// Ray's log monitor names a worker on another node with its address,
	// dimmed on a terminal.
	{"ray-ip", func(_ int, s string) string { return "(WorkerDict pid=48213, ip=10.130.2.14) " + s }},
	{"ray-ip-colour", func(_ int, s string) string {
		return "\x1b[2m\x1b[36m(WorkerDict pid=48213, ip=10.130.2.14)\x1b[0m " + s
	}},
	// torch elastic's per-rank prefix for a worker's redirected output
	// (role and local rank, no space after the colon).
	{"torchrun-role", func(_ int, s string) string { return "[default0]:" + s }},
	// srun --label pads the task number to the widest one's digits.
	{"srun-label-padded", func(_ int, s string) string { return " 3: " + s }},
	// journalctl -o short-iso and short-iso-precise.
	{"journald-short-iso", func(n int, s string) string {
		return stamp(n).Format("2006-01-02T15:04:05-0700") + " gpu-node-3 python3[2741]: " + s
	}},
	{"journald-short-iso-precise", func(n int, s string) string {
		return stamp(n).Format("2006-01-02T15:04:05.000000-07:00") + " gpu-node-3 python3[2741]: " + s
	}},
	// journalctl -o json: one object a line, the transport and
	// priority of a unit's captured output, the time in microseconds.
	{"journald-json", func(n int, s string) string {
		b, err := json.Marshal(struct {
			Cursor    string `json:"__CURSOR"`
			Realtime  string `json:"__REALTIME_TIMESTAMP"`
			Priority  string `json:"PRIORITY"`
			Transport string `json:"_TRANSPORT"`
			PID       string `json:"_PID"`
			Ident     string `json:"SYSLOG_IDENTIFIER"`
			Message   string `json:"MESSAGE"`
			Host      string `json:"_HOSTNAME"`
		}{fmt.Sprintf("s=9f1e;i=%x", 0x2a10+n), fmt.Sprint(stamp(n).UnixMicro()), "6", "stdout", "2741", "python3", s, "gpu-node-3"})
		if err != nil {
			panic(err)
		}
		return string(b)
	}},
	// Vector's kubernetes_logs event as its JSON sink writes it: the
	// line in "message", the collector's fields around it.
	{"vector-json", func(n int, s string) string {
		b, err := json.Marshal(struct {
			File      string `json:"file"`
			Message   string `json:"message"`
			Source    string `json:"source_type"`
			Stream    string `json:"stream"`
			Timestamp string `json:"timestamp"`
		}{"/var/log/pods/sglang_sglang-0_1f2e/sglang/0.log", s, "kubernetes_logs", "stderr", stamp(n).Format(time.RFC3339Nano)})
		if err != nil {
			panic(err)
		}
		return string(b)
	}},
	// Text a web page escaped, copied from its source or a scraper.
	{"html-escaped", func(_ int, s string) string { return html.EscapeString(s) }},
	// s6-log's and multilog's "t" action: a TAI64N label before every
	// line.
	{"s6-tai64n", func(n int, s string) string {
		t := stamp(n)
		return fmt.Sprintf("@%016x%08x %s", uint64(t.Unix())+0x4000000000000000+37, t.Nanosecond(), s)
	}},
	// A Markdown ordered list, one item a line.
	{"md-numbered", func(n int, s string) string { return fmt.Sprintf("%d. %s", n+1, s) }},
	// A copy with the viewer's line numbers: cat -n and nl, less -N, an
	// editor's number column.
	{"cat-n", func(n int, s string) string { return fmt.Sprintf("%6d\t%s", n+1, s) }},
	{"less-N", func(n int, s string) string { return fmt.Sprintf("%7d %s", n+1, s) }},
	{"editor-numbers", func(n int, s string) string { return fmt.Sprintf("%3d %s", n+1, s) }},
	// A CI step that echoed its output as annotations: the runner's
	// time, then "##[error]" before each line.
	// A terminal of another width, and one whose copy pads every row
	// to its width with spaces (screen's hardcopy, a Windows console).
	{"hard-wrap-100", func(_ int, s string) string { return hardWrap(s, 100) }},
	{"hard-wrap-120-padded", func(_ int, s string) string { return padRows(hardWrap(s, 120), 120) }},
	{"utf16le-bom", func(_ int, s string) string { return s }},
	{"utf8-bom", func(n int, s string) string {
		if n == 0 {
			return "\ufeff" + s
		}
		return s
	}},
	// A page's auto-links written back as Markdown by an editor that
	// took the rendered text (a chat client, a notes tool): a file
	// name whose extension is a country's domain and an IP address.
	{"md-autolinks", func(_ int, s string) string {
		return autolinkable.ReplaceAllString(s, "[$0](http://$0/)")
	}},
	{"actions-annotation", func(n int, s string) string {
		return stamp(n).Format("2006-01-02T15:04:05.0000000Z") + " ##[error]" + s
	}},
	// docker compose v2 colours each service's prefix on a terminal,
	// the " | " and its space inside the colour, and puts the time a
	// line arrived after the prefix with --timestamps.
	{"compose-colour", func(_ int, s string) string { return "\x1b[36msglang-1  | \x1b[0m" + s }},
	{"compose-timestamps", func(n int, s string) string {
		return "sglang-1  | " + stamp(n).Format("2006-01-02T15:04:05.000000000Z07:00") + " " + s
	}},
	// journalctl -o short-precise: the classic time with microseconds.
	{"journald-short-precise", func(n int, s string) string {
		return stamp(n).Format("Jan 02 15:04:05.000000") + " gpu-node-3 sglang[2741]: " + s
	}},
	// A syslog relay's or a network sink's copy, its priority first:
	// RFC 3164 (the day padded with a space) and RFC 5424 (version,
	// time, host, app, process, no message id, no structured data).
	{"syslog-rfc3164", func(n int, s string) string {
		return "<14>" + stamp(n).Format("Jan _2 15:04:05") + " gpu-node-3 sglang[2741]: " + s
	}},
	{"syslog-rfc5424", func(n int, s string) string {
		return "<14>1 " + stamp(n).Format("2006-01-02T15:04:05.000000Z07:00") + " gpu-node-3 sglang 2741 - - " + s
	}},
	// Open MPI's mpirun --timestamp-output: ctime(3)'s time glued to the
	// tag of --tag-output, or to the stream alone without it.
	{"mpirun-timestamp-tag", func(n int, s string) string {
		return stamp(n).Format("Mon Jan _2 15:04:05 2006") + "[1,3]<stderr>:" + s
	}},
	{"mpirun-timestamp", func(n int, s string) string {
		return stamp(n).Format("Mon Jan _2 15:04:05 2006") + "<stderr>:" + s
	}},
	// stern's default template: the pod and the container, each in its
	// colour on a terminal, then the line.
	{"stern", func(_ int, s string) string { return "sglang-0-5d8f7b9c4-x2x7q sglang " + s }},
	{"stern-colour", func(_ int, s string) string {
		return "\x1b[32msglang-0-5d8f7b9c4-x2x7q\x1b[0m \x1b[36msglang\x1b[0m " + s
	}},
	// logcli's default output: the time, then the stream's label set
	// (each in colour on a terminal), then the line. (logcli also trims
	// the line's spaces, a traceback's indentation with them, which
	// this wrapper leaves: a frame read without its indentation is not
	// this prefix's matter.)
	{"logcli-labels", func(n int, s string) string {
		return "\x1b[34m" + stamp(n).Format(time.RFC3339) + "\x1b[0m \x1b[31m" + `{container="sglang", pod="sglang-0"}` + "\x1b[0m " + s
	}},
	// A launcher that relays its child's every line through Python's
	// logging, the stream as the message's first word
	// (logging.info("stderr: %s", line)), under two common formats.
	{"py-logging-relay", func(n int, s string) string {
		return stamp(n).Format("2006-01-02 15:04:05,000") + " - launcher - INFO - stderr: " + s
	}},
	{"py-logging-relay-name", func(n int, s string) string {
		return stamp(n).Format("2006-01-02 15:04:05,000") + " [INFO] launcher: stderr: " + s
	}},
	// GitLab Runner's job log timestamps (FF_TIMESTAMPS): the time, the
	// stream's number and type, and " " for a new line.
	{"gitlab-timestamps", func(n int, s string) string {
		return stamp(n).Format("2006-01-02T15:04:05.000000Z") + " 01E " + s
	}},
	// devscripts' annotate-output: the time and the stream.
	{"annotate-output", func(n int, s string) string { return stamp(n).Format("15:04:05") + " E: " + s }},
	// journalctl -o short-full: the weekday, the date and the zone.
	{"journald-short-full", func(n int, s string) string {
		return stamp(n).Format("Mon 2006-01-02 15:04:05 MST") + " gpu-node-3 sglang[2741]: " + s
	}},
	// heroku logs: the time, the source and the dyno.
	{"heroku", func(n int, s string) string {
		return stamp(n).Format("2006-01-02T15:04:05.000000-07:00") + " app[web.1]: " + s
	}},
	// docker service logs: a swarm task's name and node, padded.
	{"docker-service", func(_ int, s string) string { return "sglang_sglang.1.qhc6ff4l5yrv@gpu-node-3    | " + s }},
	// moreutils' ts with its default format: a syslog time and no host.
	{"ts", func(n int, s string) string { return stamp(n).Format("Jan 02 15:04:05") + " " + s }},
	// GNU parallel --tag: the job's argument (a host) and a tab.
	{"parallel-tag", func(_ int, s string) string { return "gpu-node-3\t" + s }},
	// A reply to a reply by e-mail or on a forum: quotes nested, glued
	// (">> ") or spaced ("> > ").
	{"email-nested", func(_ int, s string) string {
		if s == "" {
			return ">>"
		}
		return ">> " + s
	}},
	{"email-nested-spaced", func(_ int, s string) string {
		if s == "" {
			return "> >"
		}
		return "> > " + s
	}},
	// A hosting console's deployment log (Akash Console): the service's
	// name in brackets before each line, and repeated after it in the
	// log it saves to a file.
	{"akash-console", func(_ int, s string) string { return "[sglang]: " + s }},
	{"akash-console-saved", func(_ int, s string) string { return "[sglang]: sglang: " + s }},
	// Akash's lease-logs: the pod's name, then the time Kubernetes
	// adds.
	{"akash-lease-logs", func(n int, s string) string {
		return "[sglang-5d8f7b9c4-x2x7q] " + stamp(n).Format(time.RFC3339Nano) + " " + s
	}},
	// podman-compose's service column, coloured on a terminal.
	{"podman-compose", func(_ int, s string) string { return "\x1b[1;32m[sglang] |\x1b[0m " + s }},
	// SkyPilot's job log on a multi-node cluster: the node, its rank and
	// process, a worker's address, coloured.
	{"skypilot-worker", func(_ int, s string) string {
		return "\x1b[36m(worker1, rank=1, pid=2741, ip=10.130.2.14)\x1b[0m " + s
	}},
	// runit's svlogd with "tt" and s6-log with "T": a supervisor's time.
	{"svlogd-tt", func(n int, s string) string {
		return stamp(n).Format("2006-01-02_15:04:05.000000") + "000 " + s
	}},
	{"s6-log-T", func(n int, s string) string {
		return stamp(n).Format("2006-01-02 15:04:05.000000000") + "  " + s
	}},
}

// autolinkable matches what a page links on its own: a file name with a
// country's domain as its extension (and a line number), an IPv4
// address.
var autolinkable = regexp.MustCompile(`\b[A-Za-z][\w-]*\.(?:cc|py|sh|rs|io|ai|md)(?::\d+)?\b|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`)

// padRows pads every row of s to width with spaces.
func padRows(s string, width int) string {
	rows := strings.Split(s, "\n")
	for i, r := range rows {
		if len(r) < width {
			rows[i] = r + strings.Repeat(" ", width-len(r))
		}
	}
	return strings.Join(rows, "\n")
}

// inlineCode quotes s as Markdown inline code after lead, with tail after
// the closing backtick; a blank line stays blank and a line holding a
// backtick opens the span with two, as Markdown needs, padded by a space
// inside when it starts or ends with one.
func inlineCode(lead, s, tail string) string {
	if strings.TrimSpace(s) == "" {
		return s
	}
	fence := "`"
	if strings.Contains(s, "`") {
		fence = "``"
		if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
			// CommonMark strips one space inside each end, so a
			// writer pads a span whose text starts or ends with one.
			s = " " + s + " "
		}
	}
	return lead + fence + s + fence + tail
}

// colourLevel colours the first level word in s as a TTY logger
// (uvicorn, colorlog, a docker TTY) does: "\x1b[31mERROR\x1b[0m".
func colourLevel(s string) string {
	for _, w := range []string{"CRITICAL", "ERROR", "WARNING", "WARN", "INFO", "DEBUG"} {
		if i := strings.Index(s, w); i >= 0 {
			return s[:i] + "\x1b[1;31m" + w + "\x1b[0m" + s[i+len(w):]
		}
	}
	return s
}

// hardWrap breaks s every width bytes, as a terminal of that width shows
// a long line and a copy from it pastes it.
func hardWrap(s string, width int) string {
	var b strings.Builder
	for len(s) > width {
		b.WriteString(s[:width])
		b.WriteByte('\n')
		s = s[width:]
	}
	b.WriteString(s)
	return b.String()
}

// wrap applies w to every line of text.
func wrap(w wrapper, text []byte) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	for n, l := range lines {
		b.WriteString(w.line(n, strings.TrimSuffix(l, "\r")))
		b.WriteByte('\n')
	}
	if whole := wholeText[w.name]; whole != nil {
		return whole(b.String())
	}
	return b.String()
}

// utf16LE is text as a Windows tool stores it: UTF-16, little-endian,
// after a byte order mark, with CRLF line ends (PowerShell 5's redirect).
func utf16LE(text string) string {
	text = strings.ReplaceAll(text, "\n", "\r\n")
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(text)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// knownShapeMisses lists what logmatch knowingly gets wrong under a
// wrapper (file, then wrapper name), with why. The test expects each to
// stay wrong, so an entry goes as soon as a fix lands.
var knownShapeMisses = map[string]map[string]string{
	// dev-17: measured before any change made for the batch.
	// dev-17, right as posted since the XQA cubin registry's wordings are
	// trtllm-engine-plugin-mismatch's.
	"1701-trtllm-gemma3-xqa-cubin-registry-remaining-buffer-size-assertion.log": under("cut at 120 columns, the break falls right after 'Assertion failed: remaining_buffer_size', so the record's '== 0' lands on the next line, which is not rejoined (nothing around the break tells a wrap inside an assertion's expression), and the TllmException leads unclassified", "hard-wrap-120", "hard-wrap-120-padded"),
	"1702-vllm-v0-ray-fp8-quantization-capability-86.log":                       under("behind another Ray actor's prefix (sglang's engine, verl's WorkerDict, a SkyPilot worker) the Ray worker's own '(RayWorkerWrapper pid=N)' prefix is no longer the line's first, so nothing names vLLM and sglang's twin record for the same words leads", "ray", "ray-ip", "ray-ip-colour", "skypilot-worker"),
	"1681-rocm-miopen-hiprtc-batchnorm-type-traits-not-found.log": {
		"hard-wrap-100": "cut at 100 columns, the compiler's long path splits from its 'fatal error:' words, which alone on a line are not read as a failure, so MIOpen's first Error line ('MIOpen: Error [Compile] ...'), the compile's status, leads",
	},
	// dev-17, right as posted since MIOpen's logger lines are read and
	// one library's lines are one event.
	"1680-rocm-miopen-comgr-isa-name-invalid-code-object-build-failed.log": under("cut at 80 or 100 columns, MIOpen's 156-column 'Error [SetIsaName]' line is split and its rest is not rejoined, so the lead, the right line, holds only its first piece and not the whole refused ISA name", "hard-wrap-80", "hard-wrap-100"),
	"1683-horovod-mpirun-aws-ofi-nccl-open-av-invalid-argument.log": {
		"hard-wrap-80": "cut at 80 columns, the OFI plugin's WARN line splits after mpirun's prefix and NCCL's native prefix, and its failure words on the next line are not read as a failure",
		"html-escaped": "with mpirun's '<stdout>' escaped to '&lt;stdout&gt;', the prefix is not stripped, so the lead's text keeps it and the cause text is matched only in part",
	},
	// heldout-12, right as posted since a column console's layout is
	// read (richlayout.go).
	// heldout-25 as development data (since heldout-26).
	"823-hf-connect-rich-console-wrapped-right-aligned-source.log": {
		"hard-wrap-80":  "cut at 80 columns, the console's lines lose their columns (the source column and the message's rest land on lines of their own), so no layout is learned and the first record's 'Error in realtime:' leads unclassified",
		"torchrun-role": "behind torch elastic's '[default0]:', glued to the console's time column without a space, no layout is learned and the first record's 'Error in realtime:' leads unclassified",
	},
	// Hard wrapping: a terminal or a paste cut every line longer than
	// its width. A break is rejoined when the text around it tells one
	// (isWrapBreak and the rules beside it) or at a width two breaks
	// taught (wrapWidth); these stay cut, each for the reason it gives.
	// heldout-19 (development since heldout-20): measured blind, not tuned to.
	"1315-ray-raylet-oom-wrapped-terminal-width-wmpo.log": {
		"hard-wrap-120": "the 188-column raylet row cut again at 120 columns ends its first piece in a space ('...killed due ') and its 68-column rest in the space the wider wrap left ('...due to other reasons at '): before any break teaches the width, that reads as a writer that ends every line in a space (NVSHMEM's), so '2 Workers (tasks / actors) killed due to memory pressure (OOM)' stays split, and no alert",
	},
	// heldout-12 (development since heldout-13), right as posted since
	// its client's 'Last error: Server disconnected' has a record.
	"828-areal-client-server-disconnected-killed-two-space-indent.log": {
		"grep-n": "behind grep -n's line numbers the shell's bare 'Killed' after the client's summary is read as a native death that roots the burst, not as a consequence listed in the summary's incident, and leads unclassified",
	},
	// heldout-22 (development since heldout-23): measured blind, not tuned to.
	"1517-dynamo-run-rust-panic-vllm-import-failed-backtrace.log": {
		"double-spaced": "held out: with a blank line after every line, Rust's 'thread ... panicked at ...' header no longer takes the panic message on its next line, so the unclassified lead holds the header and not 'Failed to import python 'vllm' module'",
		"hard-wrap-80":  "held out: cut at 80 columns, the 126-column panic message is split into continuations that are not rejoined, so the unclassified lead under the panic header no longer holds the whole 'Failed to import python 'vllm' module. ...' line",
	},
	// heldout-24 (development since heldout-25): measured blind, not tuned to.
	// heldout-25 (development since heldout-26): measured blind, not tuned to.
	"1853-vllm-dynamo-worker-exception-determine-num-available-blocks-profile-run-cut.log": {
		"double-spaced": "held out: with a blank line after every line, the cut traceback leads unclassified at its 'Traceback (most recent call last):' line and not under vllm-worker-exception's 'Exception in worker VllmWorkerProcess while processing method determine_num_available_blocks.'",
	},
	// Held out (heldout-26): measured, not tuned to.
	"1920-vllm-ascend-caret-escaped-ansi-dump-input-scheduler-output-line.log": under("held out: the excerpt is one line: a prefix the entry package learns from several lines (a task's label or tag, a line number, a pipe's stamp) stays in front of vLLM-Ascend's caret-escaped 'Dumping scheduler output ...' line, and cut at 80 or 100 columns the line breaks inside its prefixes, apart from its message, so it raises no alert",
		"srun-label", "srun-label-padded", "mpirun-tag", "loki-pipe", "grep-n", "cat-n", "less-N", "editor-numbers", "parallel-tag", "hard-wrap-80", "hard-wrap-100"),
	"1928-trtllm-pytorch-eagle3-guided-decoding-cuda-graph-capture-traceback-cut.log": under("held out: cut at 80 or 100 columns, the longer File lines break inside their paths and the header-less traceback cut in TensorRT-LLM's CUDA graph capture raises no alert", "hard-wrap-80", "hard-wrap-100"),
	"1932-sglang-multinode-two-batch-overlap-deepep-dispatch-b-frames-cut.log": {
		"hard-wrap-80": "held out: cut at 80 columns, the sglang File lines break inside their paths and the header-less frames cut in DeepEP's dispatch_b raise no alert",
	},
	"1938-tgi-opt-6-7b-shard-error-when-initializing-model-cli-traceback-cut.log": {
		"double-spaced": "held out: with a blank line after every line, the cut traceback leads unclassified at its 'Traceback (most recent call last):' line and not under tgi-shard-model-init-error's 'Error when initializing model'",
	},
	"1940-vllm-llm-d-nested-process-prefixes-worker-flashinfer-prefill-plan-frames-cut.log": under("held out: cut at 120 columns, the lines with three nested process prefixes break inside their prefixes or File lines, so the lead is unclassified at a piece of a prefix or an earlier File line and does not name flashinfer's prefill.py frame", "hard-wrap-120", "hard-wrap-120-padded"),
	"1942-sglang-modelopt-qwen3-235b-nvfp4-headerless-scheduler-frames-load-model-cut.log": {
		"hard-wrap-80": "held out: cut at 80 columns, the sglang File lines break inside their paths and the header-less scheduler frames cut in load_model raise no alert",
	},
	"1945-sglang-qwen2-cuda-graph-build-logits-processor-all-gather-frames-cut.log": under("held out: cut at 80 or 100 columns, the longer File lines break inside their paths and the header-less frames cut in tensor_model_parallel_all_gather raise no alert", "hard-wrap-80", "hard-wrap-100"),
	// heldout-24 as development data (since heldout-25).
	"1756-sglang-deepseek-v3-eoferror-thread-extension-modules-line-only.log": func() map[string]string {
		m := under("the excerpt is one line: a prefix the entry package learns from several lines (a task's label or tag, a line number, a pipe's stamp) stays in its message, and faulthandler's 'Extension modules:' list, read only where it opens the message, is not read behind it",
			"srun-label", "srun-label-padded", "mpirun-tag", "loki-pipe", "grep-n", "cat-n", "less-N", "editor-numbers", "parallel-tag")
		m["ts"] = "behind ts's time, 'Extension modules:' reads as a syslog program's name and the message left is the bare module list, which alone is no failure"
		return m
	}(),
	"1732-tgi-hf-endpoint-failed-to-start-exit-code-json-fragment.log": {
		"ts": "behind ts's time, 'Exit code:' reads as a syslog program's name and the message left ('1. Reason: ...') is not the platform's exit status",
	},
}

// underEveryWrapper is a known-miss entry for an excerpt read wrong as
// posted, and so under every wrapper but those named in except, for the
// same reason.
func underEveryWrapper(why string, except ...string) map[string]string {
	m := make(map[string]string, len(wrappers))
	for _, w := range wrappers {
		if !slices.Contains(except, w.name) {
			m[w.name] = why
		}
	}
	return m
}

// knownWidthMisses are knownShapeMisses of the terminal wraps added last:
// a cut at 100 columns, a width the wrap rules were not checked at before
// (80 and 120 were), and rows padded to their width with spaces. Merged
// into knownShapeMisses (init).
var knownWidthMisses = map[string]map[string]string{
	// A page's escapes and links are read on the lines a paste quotes
	// that do not open as sglang's records do (wrapperSpan): the
	// routine line pays for no search.
	"042-ignore-import-error-gcc-then-scheduler.log":             {"html-escaped": pageOnRecord},
	"1164-inductor-backend-compiler-failed-undefined-symbol.log": {"html-escaped": pageOnRecord},
	"661-lmcache-mooncake-store-no-batch-get-buffer.log":         {"html-escaped": pageOnRecord},
	"187-grafana-table-scheduler-exception-cp-pp.log": {
		"hard-wrap-100": "cut at 100 columns inside the frames' file names, each rest ends in the Grafana table's ' |' column, so it is no frame's rest and the frames are lost: the exception line's record does not lead",
	},
	// heldout-25 as development data (since heldout-26).
	"823-hf-connect-rich-console-wrapped-right-aligned-source.log": {
		"hard-wrap-100": "cut at 100 columns, the console's lines lose their columns (as at 80), so no layout is learned and the first record's 'Error in realtime:' leads unclassified",
		"md-autolinks":  "the rich console's lines open with a bracketed time as sglang's records do, which are not searched for a page's links, so its right-aligned source column keeps '[gui.py:838](http://gui.py:838/)' and no layout is learned",
	},
	// dev-17: torch's DistBackendError line cut inside its source path.
	"1667-distbackenderror-nccl-cuda-failure-217-peer-access-l40s.log": {
		"hard-wrap-100": "cut at 100 columns inside the DistBackendError line's source path ('ProcessGroup' | 'NCCL.cpp:3353'), the rest ('NCCL.cpp:3353, unhandled cuda error ...') opens an entry of its own apart from ncclUnhandledCudaError's 'Last error:' block, so NCCL's unhandled cuda error leads ahead of the 'Cuda failure 217' line its record reads",
	},
	// moreutils' ts: behind the time, sgl_kernel's report is cut into
	// entries of its own.
	"020-sgl-kernel-common-ops-critical-multiline.log": {
		"ts": "behind ts's time and after the report's '[sgl_kernel] CRITICAL:' line, the report's numbered lines each open an entry of their own, so the undefined symbol's '- ImportError:' line leads under sgl-kernel-undefined-symbol instead of the CRITICAL report",
	},
}

func init() {
	for file, m := range knownWidthMisses {
		if knownShapeMisses[file] == nil {
			knownShapeMisses[file] = map[string]string{}
		}
		for variant, why := range m {
			knownShapeMisses[file][variant] = why
		}
	}
}

// Why a wrapper's variant of an excerpt is read wrong, for several.
const (
	pageOnRecord = "the line the record reads opens as sglang's records do, which are not searched for a page's character references (the routine line's cost), so it keeps them and the record does not read it"
)

// TestCorpusUnderWrappers is the corpus test again with every excerpt
// wrapped the ways real logs are: a failure read correctly as posted must
// still be read correctly with a collector's, a container runtime's, a CI
// system's or a paste's prefix in front of every line, and a benign
// excerpt must stay silent. Recognition that depends on a log's framing
// does not generalise to the next collector.
func TestCorpusUnderWrappers(t *testing.T) {
	if testing.Short() {
		t.Skip("scans the corpus once per wrapper")
	}
	entries, m, red := corpusVariants(t)
	misses := newMissList(t, "knownShapeMisses", func(file, variant string) string { return knownShapeMisses[file][variant] })
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(corpusDir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind == "failure" {
			// Only what is right as posted can be kept right.
			if ok, _ := judge(e, lead(scanCorpusFile(t, m, red, e.File).Alerts)); !ok {
				continue
			}
		}
		for _, w := range wrappers {
			res := scanText(t, m, red, e.File, wrap(w, text))
			var ok bool
			var verdict string
			if e.Kind == "benign" {
				ok, verdict = len(res.Alerts) == 0, fmt.Sprintf("false alarm: %s", headline(lead(res.Alerts)))
			} else {
				var v string
				ok, v = judge(e, lead(res.Alerts))
				verdict = fmt.Sprintf("%s: want %s, got %s", v, expected(e), headline(lead(res.Alerts)))
			}
			misses.check(e.File, w.name, ok, verdict)
		}
	}
	for _, w := range wrappers {
		if c := misses.counts[w.name]; c != nil {
			t.Logf("%-20s kept %d of %d (known misses %d)", w.name, c.kept, c.tried, c.known)
		}
	}
	misses.fail(t)
}

// scanText scans text as `logmatch scan` scans a file named name.
func scanText(t *testing.T, m *matcher.Matcher, red *redact.Redactor, name, text string) scan.Result {
	t.Helper()
	s := scan.New(m, scan.Options{Entry: entry.Options{}, Redact: red.RedactAlert, Now: func() time.Time { return corpusNow }})
	// Opened as the scan command opens a file: its compression and
	// character encoding told by its first bytes.
	r, err := logfile.Open(strings.NewReader(text))
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer r.Close()
	res, err := s.Scan(context.Background(), []scan.Input{{Name: name, R: r}})
	if err != nil {
		t.Fatalf("scan %s: %v", name, err)
	}
	return res
}

// TestShapesEndToEnd scans the entry layer's robust shapes as a whole
// scan does: a hard-wrapped exception line alerts under the record the
// unwrapped line names; an exception line quoted in backticks, as a
// list item, in emphasis or in a page's code tags alerts as the same line
// unquoted; a Rust panic alerts; a
// traceback cut before its exception line is one incident; and a shell's
// "Killed" after dated records carries the log's time, not the scan's.
func TestShapesEndToEnd(t *testing.T) {
	m := corpusMatcher(t)
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	const (
		head = "[2025-01-16 10:11:13 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
			"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2345, in run_scheduler_process\n" +
			"    scheduler.event_loop_overlap()\n" +
			"  File \"/sgl/python/sglang/srt/distributed/device_communicators/pynccl_wrapper.py\", line 378, in NCCL_CHECK\n" +
			"    raise RuntimeError(f\"NCCL error: {error_str}\")\n"
		exc = "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"
	)
	slugOf := func(res scan.Result) string {
		if l := lead(res.Alerts); l != nil {
			return l.Record.Slug
		}
		return ""
	}
	// The error with its source, long enough for a terminal to wrap it
	// inside the words the record names.
	const long = "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"
	whole := scanText(t, m, red, "whole.log", head+long+"\n")
	want := slugOf(whole)
	if want != "nccl-unhandled-system-error" {
		t.Fatalf("the unwrapped crash leads with %q, want nccl-unhandled-system-error", want)
	}
	sys := strings.Index(long, "system")
	for _, at := range []int{sys + 1, sys + 4, sys + 6, sys + 9} {
		res := scanText(t, m, red, "wrapped.log", head+long[:at]+"\n"+long[at:]+"\n")
		if got := slugOf(res); got != want || len(res.Alerts) != len(whole.Alerts) {
			t.Errorf("wrapped at %d: lead %q (%d alerts), want %q (%d)", at, got, len(res.Alerts), want, len(whole.Alerts))
		}
	}

	plain := scanText(t, m, red, "plain.log", "Loading the model\n"+exc+"\n")
	for _, q := range []string{"`" + exc + "`", "- " + exc, "  * " + exc, "_" + exc + "_", "> **" + exc + "**", "<pre><code>" + exc + "</code></pre>", exc + "<br>"} {
		res := scanText(t, m, red, "quoted.log", "Loading the model\n"+q+"\n")
		if slugOf(res) != slugOf(plain) || len(res.Alerts) != len(plain.Alerts) || len(res.Alerts) == 0 {
			t.Errorf("%q: lead %q (%d alerts), want %q (%d) as unquoted", q, slugOf(res), len(res.Alerts), slugOf(plain), len(plain.Alerts))
		}
	}

	// Native lines quoted one by one as inline code, bare, before an
	// ellipsis or as list items, read as the same lines unquoted: one
	// incident, dated by the lines' own glog time.
	const glog = "E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory 0x7f105035d000: Input/output error [5]\n" +
		"E0326 14:23:06.526178 18039 rdma_transport.cpp:529] Memory region not registered by any active device(s): 0x7f3e26088000\n"
	bare := scanText(t, m, red, "glog.log", glog)
	for _, q := range [][2]string{{"`", "`"}, {"`", "`..."}, {"- `", "`"}, {"> `", "`…"}} {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(glog, "\n"), "\n") {
			b.WriteString(q[0] + l + q[1] + "\n")
		}
		res := scanText(t, m, red, "glog-quoted.log", b.String())
		if len(bare.Alerts) != 1 || slugOf(res) != slugOf(bare) || len(res.Alerts) != 1 || !res.Alerts[0].Time.Equal(bare.Alerts[0].Time) {
			t.Errorf("glog quoted as %q…%q: lead %q (%d alerts), want %q (1) as unquoted (%d)", q[0], q[1], slugOf(res), len(res.Alerts), slugOf(bare), len(bare.Alerts))
		}
	}

	// A native line a paste indented, among lines that are not: read as
	// the native line, dated by its own time.
	const plog = "[ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [exception_handler.cc:23] [904211]HcclBatchGet: HcclException, ret=1 [BatchGet] AICPU launch failed, code: 1"
	flat := scanText(t, m, red, "plog.log", "Loading the model\n"+plog+"\n")
	for _, ind := range []string{"  ", "    ", "`  "} {
		res := scanText(t, m, red, "plog-indented.log", "Loading the model\n"+ind+plog+"\n")
		if len(flat.Alerts) != 1 || len(res.Alerts) != 1 || !res.Alerts[0].Time.Equal(flat.Alerts[0].Time) || res.Alerts[0].Time.Year() != 2026 {
			t.Errorf("plog line indented by %q: %d alerts (%v), want one at the line's time as unindented (%d)", ind, len(res.Alerts), lead(res.Alerts), len(flat.Alerts))
		}
	}

	panicLog := "2025-11-05T01:56:54.243403Z  INFO sglang_router_rs::server: starting\n" +
		"thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:\n" +
		"called `Option::unwrap()` on a `None` value\n" +
		"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
	res := scanText(t, m, red, "router.log", panicLog)
	if len(res.Alerts) != 1 || !strings.Contains(res.Alerts[0].Headline, "panicked at src/routers/http/router.rs:123:45") {
		t.Errorf("Rust panic: %d alerts, lead %q; want one naming the panic", len(res.Alerts), headline(lead(res.Alerts)))
	}

	cut := "[2025-01-16 10:11:13 TP1] Scheduler hit an exception: Traceback (most recent call last):\n" +
		"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2345, in run_scheduler_process\n" +
		"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n" +
		"  File \"/sgl/python/sglang/srt/model_executor/model_runner.py\", li\n"
	res = scanText(t, m, red, "cut.log", cut)
	if len(res.Alerts) != 1 {
		t.Errorf("cut traceback: %d alerts, want 1: %s", len(res.Alerts), headline(lead(res.Alerts)))
	}

	killed := "[2025-01-16 10:11:13 TP0] Decode batch, #running-req: 3\nKilled\n"
	res = scanText(t, m, red, "killed.log", killed)
	logTime := time.Date(2025, 1, 16, 10, 11, 13, 0, time.UTC)
	if len(res.Alerts) != 1 || !res.Alerts[0].Time.Equal(logTime) {
		t.Errorf("Killed after a record: %d alerts, time %v; want one at %v (not the scan's %v)", len(res.Alerts), lead(res.Alerts), logTime, corpusNow)
	}
}
