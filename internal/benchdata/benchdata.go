package benchdata

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Config chooses what a Generator produces.
type Config struct {
	// Seed makes the output reproducible: one seed, one sequence of lines.
	Seed uint64
	// ErrorRate is the fraction of lines, in [0, 1], that carry an error
	// message instead of ordinary serving output.
	ErrorRate float64
	// ErrorMessages are the templates of error lines, usually the catalog's
	// errorMessage fields; their {placeholders} are filled by Fill. With
	// none, no error lines are produced.
	ErrorMessages []string
	// Start is the first timestamp, in seconds since 2026-05-28 00:00:00;
	// each line advances the clock a little.
	Start int
}

// Generator produces log lines. It is not safe for concurrent use; give each
// goroutine its own.
type Generator struct {
	cfg  Config
	rng  *rand.Rand
	secs int
	ms   int
}

// New returns a Generator for cfg.
func New(cfg Config) *Generator {
	return &Generator{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)), secs: cfg.Start}
}

// Lines returns the next n lines.
func (g *Generator) Lines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.Line()
	}
	return out
}

// Line returns the next line, without a line ending.
func (g *Generator) Line() string {
	g.ms += 1 + g.rng.IntN(40)
	if g.ms >= 1000 {
		g.secs += g.ms / 1000
		g.ms %= 1000
	}
	if len(g.cfg.ErrorMessages) > 0 && g.rng.Float64() < g.cfg.ErrorRate {
		return g.errorLine()
	}
	switch k := g.rng.IntN(100); {
	case k < 30:
		return g.prefill()
	case k < 80:
		return g.decode()
	case k < 95:
		return g.access()
	default:
		return g.misc()
	}
}

// stamp renders the sglang header: "[2026-05-28 00:11:09 DP0 TP0] ", with
// milliseconds on some lines (SGLANG_LOG_MS) and rank tokens on scheduler
// lines.
func (g *Generator) stamp(ranks bool) string {
	s := g.secs
	var b strings.Builder
	fmt.Fprintf(&b, "[2026-05-%02d %02d:%02d:%02d", 28+s/86400%3, s/3600%24, s/60%60, s%60)
	if g.secs%2 == 0 {
		fmt.Fprintf(&b, ".%03d", g.ms)
	}
	if ranks {
		tp := g.rng.IntN(8)
		switch g.rng.IntN(3) {
		case 0:
			fmt.Fprintf(&b, " TP%d", tp)
		case 1:
			fmt.Fprintf(&b, " DP%d TP%d", tp, tp)
		default:
			fmt.Fprintf(&b, " DP%d TP%d EP%d", tp, tp, tp)
		}
	}
	b.WriteString("] ")
	return b.String()
}

func (g *Generator) prefill() string {
	newTok := 1 + g.rng.IntN(8192)
	return fmt.Sprintf("%sPrefill batch, #new-seq: %d, #new-token: %d, #cached-token: %d, token usage: %.2f, #running-req: %d, #queue-req: %d, input throughput (token/s): %.2f",
		g.stamp(true), 1+g.rng.IntN(16), newTok, g.rng.IntN(newTok), g.rng.Float64(), g.rng.IntN(256), g.rng.IntN(64), 1000*g.rng.Float64()*20)
}

func (g *Generator) decode() string {
	if g.rng.IntN(4) == 0 {
		return fmt.Sprintf("%sDecode batch, #running-req: %d, #token: %d, token usage: %.2f, accept len: %.2f, cuda graph: %s, gen throughput (token/s): %.2f, #queue-req: %d",
			g.stamp(true), 1+g.rng.IntN(256), g.rng.IntN(400000), g.rng.Float64(), 1+2*g.rng.Float64(), pyBool(g.rng.IntN(2) == 0), 4000*g.rng.Float64(), g.rng.IntN(64))
	}
	return fmt.Sprintf("%sDecode batch, #running-req: %d, #token: %d, token usage: %.2f, cuda graph: %s, gen throughput (token/s): %.2f, #queue-req: %d",
		g.stamp(true), 1+g.rng.IntN(256), g.rng.IntN(400000), g.rng.Float64(), pyBool(g.rng.IntN(2) == 0), 4000*g.rng.Float64(), g.rng.IntN(64))
}

func (g *Generator) access() string {
	accessPaths := [...]string{
		`"POST /v1/chat/completions HTTP/1.1" 200 OK`,
		`"POST /v1/completions HTTP/1.1" 200 OK`,
		`"POST /generate HTTP/1.1" 200 OK`,
		`"GET /health HTTP/1.1" 200 OK`,
		`"GET /metrics HTTP/1.1" 200 OK`,
		`"GET /v1/models HTTP/1.1" 200 OK`,
		`"POST /v1/chat/completions HTTP/1.1" 400 Bad Request`,
	}
	return fmt.Sprintf("%sINFO:     10.%d.%d.%d:%d - %s", g.stamp(false),
		g.rng.IntN(256), g.rng.IntN(256), g.rng.IntN(256), 30000+g.rng.IntN(30000), accessPaths[g.rng.IntN(len(accessPaths))])
}

func (g *Generator) misc() string {
	miscLines := [...]string{
		"Cache flushed successfully!",
		// No start-up line: a server writes one as it starts, and each
		// closes its log's incidents (a restart), which no routine line
		// may stand in for.
		"Overlap scheduler is disabled for multimodal models.",
		"Receive: obj=GenerateReqInput(rid='%x', text='Summarise the report', sampling_params={'max_new_tokens': 256, 'temperature': 0.7})",
		"Finish: obj=GenerateReqInput(rid='%x'), out={'meta_info': {'finish_reason': {'type': 'stop'}, 'prompt_tokens': 41, 'completion_tokens': 187}}",
		"KV Cache is allocated. #tokens: %d, K size: 26.00 GB, V size: 26.00 GB",
		"Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.42 GB, mem usage=%d.08 GB.",
		"Capture cuda graph end. Time elapsed: 6.12 s. mem usage=0.35 GB. avail mem=%d.75 GB.",
	}
	t := miscLines[g.rng.IntN(len(miscLines))]
	if strings.Contains(t, "%") {
		t = fmt.Sprintf(t, g.rng.IntN(1<<20))
	}
	return g.stamp(g.rng.IntN(2) == 0) + t
}

// errorLine puts a filled catalog message where sglang prints it: after a
// scheduler header, or as the last line of a traceback ("ValueError: msg").
func (g *Generator) errorLine() string {
	msg := Fill(g.cfg.ErrorMessages[g.rng.IntN(len(g.cfg.ErrorMessages))], "42")
	if g.rng.IntN(2) == 0 {
		return "RuntimeError: " + msg
	}
	return g.stamp(true) + msg
}

// Fill replaces every {placeholder} of an errorMessage template (Python
// f-string fields such as {e}, {self.tp_size}, {x!r}) with value. "42"
// satisfies the catalog's usual placeholder patterns, (.+?) and (\d+).
// Braces that are text rather than a field are kept: ones that do not
// close, and sets or dicts the message prints literally ({32, 64},
// {"1": ...}), recognised by a comma, a quote or ": " inside.
func Fill(template, value string) string {
	if !strings.Contains(template, "{") {
		return template
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(template[i+1:], '}')
		if j < 0 {
			break
		}
		field := template[i+1 : i+1+j]
		if strings.IndexByte(field, '{') >= 0 || !isField(field) {
			// "{{", a nested brace or literal text: keep this brace and
			// look again after it.
			b.WriteString(template[:i+1])
			template = template[i+1:]
			continue
		}
		b.WriteString(template[:i])
		b.WriteString(value)
		template = template[i+1+j+1:]
	}
	b.WriteString(template)
	return b.String()
}

// isField tells an f-string field from braces printed as text.
func isField(s string) bool {
	return !strings.ContainsAny(s, ",'\"") && !strings.Contains(s, ": ")
}

// pyBool renders a bool the way Python prints it.
func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}
