package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// goCrashTail is the tail of Ollama's runner dying of a SIGABRT in its
// cgo code, as journald kept it (ollama/ollama#8271): the last
// goroutine's frames and its creator, then the Go runtime's registers.
const goCrashTail = `Dec 31 01:55:57 FORGE ollama[555324]:         runtime/asm_amd64.s:1700 +0x1 fp=0xc00008f7e8 sp=0xc00008f7e0 pc=0x56be7cad5561
Dec 31 01:55:57 FORGE ollama[555324]: created by github.com/ollama/ollama/llama/runner.Execute in goroutine 1
Dec 31 01:55:57 FORGE ollama[555324]:         github.com/ollama/ollama/llama/runner/runner.go:984 +0xde5
Dec 31 01:55:57 FORGE ollama[555324]: rax    0x0
Dec 31 01:55:57 FORGE ollama[555324]: rbx    0x1b834e
Dec 31 01:55:57 FORGE ollama[555324]: rcx    0x77f67e49eb1c
Dec 31 01:55:57 FORGE ollama[555324]: rdx    0x6
Dec 31 01:55:57 FORGE ollama[555324]: rdi    0x1b833f
Dec 31 01:55:57 FORGE ollama[555324]: rsi    0x1b834e
Dec 31 01:55:57 FORGE ollama[555324]: rbp    0x77f6365de330
Dec 31 01:55:57 FORGE ollama[555324]: rsp    0x77f6365de2f0
Dec 31 01:55:57 FORGE ollama[555324]: r8     0x0
Dec 31 01:55:57 FORGE ollama[555324]: r9     0x0
Dec 31 01:55:57 FORGE ollama[555324]: r10    0x8
Dec 31 01:55:57 FORGE ollama[555324]: r11    0x246
Dec 31 01:55:57 FORGE ollama[555324]: r12    0x6
Dec 31 01:55:57 FORGE ollama[555324]: r13    0x60
Dec 31 01:55:57 FORGE ollama[555324]: r14    0x16
Dec 31 01:55:57 FORGE ollama[555324]: r15    0x77f61c000c60
Dec 31 01:55:57 FORGE ollama[555324]: rip    0x77f67e49eb1c
Dec 31 01:55:57 FORGE ollama[555324]: rflags 0x246
Dec 31 01:55:57 FORGE ollama[555324]: cs     0x33
`

// TestGoRegisterDump alerts the Go runtime's register dump of a fatal
// signal printed without the signal's line (an Ollama runner's abort in
// journald, ollama/ollama#8271; Grafana's abort under supervisord and
// Filebeat's tail in journald, both as posted in public write-ups; the
// arm64 layout as the runtime's dumpregs prints it) as one native crash,
// critical, a fragment of the crash's report, headed by the last
// goroutine's creator when in sight; and leaves silent gdb's "info
// registers", the kernel's oops registers, a goroutine dump without
// registers and register-like lines broken by others.
func TestGoRegisterDump(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"an Ollama runner's abort in journald", goCrashTail, "after the goroutine created by github.com/ollama/ollama/llama/runner.Execute in goroutine 1"},
		{"Grafana's abort under supervisord", `goroutine 1 [running]:
runtime.systemstack_switch()
        /usr/local/go/src/runtime/asm_amd64.s:474 +0x8 fp=0xc000072740 sp=0xc000072730 pc=0x4737c8
runtime.main()
        /usr/local/go/src/runtime/proc.go:169 +0x6d fp=0xc0000727e0 sp=0xc000072740 pc=0x441aed
runtime.goexit()
        /usr/local/go/src/runtime/asm_amd64.s:1650 +0x1 fp=0xc0000727e8 sp=0xc0000727e0 pc=0x4757a1

rax    0x0
rbx    0x7efd709d6740
rcx    0x7efd70a7a58c
rdx    0x6
r15    0x6
rip    0x7efd70a7a58c
rflags 0x246
cs     0x33
fs     0x0
gs     0x0
`, "without the signal's line"},
		{"Filebeat's tail in journald", `Jun 10 13:41:47 server2 filebeat[1214]: rip    0x7f40937dfa7c
Jun 10 13:41:47 server2 filebeat[1214]: rflags 0x246
Jun 10 13:41:47 server2 filebeat[1214]: cs     0x33
Jun 10 13:41:47 server2 filebeat[1214]: fs     0x0
Jun 10 13:41:47 server2 filebeat[1214]: gs     0x0
`, "without the signal's line"},
		{"arm64", `created by main.main in goroutine 1
        /app/main.go:40 +0x1c
r28     0x1400008e000
r29     0x16fdfe7d8
lr      0x1045a1b4c
sp      0x16fdfe7c0
pc      0x18e55d5b0
fault   0x18e55d5b0
`, "after the goroutine created by main.main in goroutine 1"},
		{"gdb's info registers", `rax            0x1c                28
rbx            0x0                 0
rip            0x401136            0x401136 <main+4>
eflags         0x246               [ IF ZF PF ]
cs             0x33                51
`, ""},
		{"the kernel's oops registers", `RIP: 0033:0x7f5b1c0e4f3b
RSP: 002b:00007ffd4a1f2d18 EFLAGS: 00000246 ORIG_RAX: 0000000000000001
RAX: ffffffffffffffda RBX: 0000000000000001 RCX: 00007f5b1c0e4f3b
`, ""},
		{"a goroutine dump without registers", `goroutine 1 [running]:
main.main()
	/app/main.go:12 +0x1d
created by main.main in goroutine 1
	/app/main.go:10 +0x25
`, ""},
		{"register lines broken by another", `rip    0x7f40937dfa7c
the value above is the instruction pointer
rflags 0x246
`, ""},
	} {
		got := analyzeStream(defaultMatcher(t), c.text)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %d failures, first %q", c.name, len(got), got[0].Headline)
			}
			continue
		}
		if len(got) != 1 || got[0].Signal != analysis.SignalNative || got[0].Severity != "critical" || got[0].Triage.Family != analysis.FamilyNative ||
			!got[0].Fragment || !strings.HasSuffix(got[0].Headline, c.want) {
			t.Errorf("%s: got %d failures, want one native crash headed ...%q", c.name, len(got), c.want)
			for _, d := range got {
				t.Logf("  %s %s %q %q", d.Signal, d.Severity, d.Triage.Family, d.Headline)
			}
		}
	}
}

// TestGoRegisterDumpUnderItsSignal: with the crash's own lines in sight
// (glibc's abort and the runtime's "SIGABRT: abort",
// giongto35/cloud-game#467), they lead and the register dump is a
// fragment of the crash.
func TestGoRegisterDumpUnderItsSignal(t *testing.T) {
	got := analyzeStream(defaultMatcher(t), `corrupted double-linked list
SIGABRT: abort
PC=0x7f0275a4a52b m=6 sigcode=18446744073709551610
signal arrived during cgo execution

`+goCrashTail)
	if len(got) < 2 || got[0].Fragment || !got[len(got)-1].Fragment ||
		!strings.Contains(got[len(got)-1].Headline, "register dump") {
		t.Errorf("got %d failures, want the crash's own lines first and the register dump a fragment", len(got))
		for _, d := range got {
			t.Logf("  fragment %v %q", d.Fragment, d.Headline)
		}
	}
}

// TestGoRegisterDumpLent reads the Ollama tail through AnalyzeLent, whose
// entries' strings are the assembler's: the diagnosis keeps copies.
func TestGoRegisterDumpLent(t *testing.T) {
	an := analysis.New(defaultMatcher(t))
	var st analysis.Stream
	var heads []string
	for _, e := range entries(goCrashTail) {
		if d, ok := an.AnalyzeLent(&st, &e); ok {
			heads = append(heads, d.Headline)
		}
	}
	if len(heads) != 1 || !strings.HasSuffix(heads[0], "created by github.com/ollama/ollama/llama/runner.Execute in goroutine 1") {
		t.Fatalf("headlines %q, want the register dump's", heads)
	}
}
