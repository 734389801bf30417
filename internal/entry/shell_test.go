package entry

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShellSignal reads a shell's report of a child killed by a signal in
// every shape and in the languages of glibc's and bash's catalogs: the
// description alone, with the core note (full-width in newer Chinese), in
// a job's message behind the shell's name, the script's line and the pid,
// and zsh's own wording.
func TestShellSignal(t *testing.T) {
	tests := []struct {
		in, want string // want "": no shell message
	}{
		{"Killed", "Killed"},
		{"Illegal instruction (core dumped)", "Illegal instruction"},
		{"Segmentation fault      (core dumped)", "Segmentation fault"},
		{"Terminated", "Terminated"},
		// kvcache-ai/ktransformers#507: zh_CN, the core note of bash
		// before 5.1; newer bash prints it full-width.
		{"非法指令 (核心已转储)", "Illegal instruction"},
		{"非法指令（核心已转储）", "Illegal instruction"},
		{"段错误 (吐核)", "Segmentation fault"},
		{"已放弃 (核心已转储)", "Aborted"},
		{"已中止", "Aborted"},
		{"已杀死", "Killed"},
		{"程式記憶體區段錯誤 (核心已傾印)", "Segmentation fault"},
		{"強制終了", "Killed"},
		{"中止 (コアダンプ)", "Aborted"},
		{"세그멘테이션 오류 (코어 덤프됨)", "Segmentation fault"},
		{"Speicherzugriffsfehler (Speicherabzug geschrieben)", "Segmentation fault"},
		{"Ungültiger Maschinenbefehl (Speicherabzug geschrieben)", "Illegal instruction"},
		{"Abgebrochen (Speicherabzug geschrieben)", "Aborted"},
		{"Abgebrochen (Killed)", "Killed"},
		{"Abgebrochen (Terminated)", "Terminated"},
		{"Erreur de segmentation (core dumped)", "Segmentation fault"},
		{"Instruction non permise (core dumped)", "Illegal instruction"},
		{"Violación de segmento (`core' generado)", "Segmentation fault"},
		{"Instrucción ilegal (`core' generado)", "Illegal instruction"},
		{"Terminado (killed)", "Killed"},
		{"Falha de segmentação (imagem do núcleo gravada)", "Segmentation fault"},
		{"Instrução ilegal (imagem do núcleo gravada)", "Illegal instruction"},
		{"Ошибка сегментирования (стек памяти сброшен на диск)", "Segmentation fault"},
		{"Недопустимая инструкция (образ памяти сброшен на диск)", "Illegal instruction"},
		{"Errore di segmentazione (core dump creato)", "Segmentation fault"},
		{"Naruszenie ochrony pamięci (zrzut pamięci)", "Segmentation fault"},
		// A job's message.
		{"bash: line 1: 12345 Illegal instruction     (core dumped) python3 -m sglang.launch_server", "Illegal instruction"},
		{"bash: 第 1 行：12345 非法指令 (核心已转储) python3 -m sglang.launch_server", "Illegal instruction"},
		{"bash: Zeile 1:  4711 Speicherzugriffsfehler (Speicherabzug geschrieben) python3 x.py", "Segmentation fault"},
		{"bash : ligne 1 : 4711 Erreur de segmentation (core dumped) python3 x.py", "Segmentation fault"},
		{"bash, linha 1: 4711 Morto                   python3 x.py", "Killed"},
		{"run.sh: line 12: 4711 Abgebrochen (Killed)   python3 x.py", "Killed"},
		{"./start.sh: 4711 Bus error               (core dumped) python3 x.py", "Bus error"},
		// zsh.
		{"zsh: illegal hardware instruction  python3 -m sglang.launch_server", "Illegal instruction"},
		{"zsh: segmentation fault (core dumped)  python3 x.py", "Segmentation fault"},
		{"zsh: killed     python3 x.py", "Killed"},

		// Near misses: prose, a word that starts like one, a note that is
		// no core note, a number that is no pid.
		{"The process was Killed by the OOM killer", ""},
		{"Killed 3 workers", ""},
		{"Killedx", ""},
		{"非法指令集", ""},
		{"Segmentation fault (see above)", ""},
		{"段错误 (核心)", ""},
		{"bash: error: something", ""},
		{"worker: step 12 Killedx", ""},
		{"Error: 3 retries left", ""},
		{"zsh: command not found: python3", ""},
		{"Sair", ""},
		{"退出", ""},
		{strings.Repeat("x", 300) + ": 12 Killed", ""},
	}
	for _, tt := range tests {
		got, ok := ShellSignal(tt.in)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("ShellSignal(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// TestAssemblerLocalisedShellMessage: a shell's localised report of a
// signal death after a program's output is a native entry of its own, at
// FATAL (Terminated at WARNING).
func TestAssemblerLocalisedShellMessage(t *testing.T) {
	in := strings.Join([]string{
		"(ktransformers) root@host:/home/rs# python -m ktransformers.local_chat --model_path DeepSeek-R1",
		"Injecting model.layers.0.self_attn as ktransformers.operators.attention . KDeepseekV2Attention",
		"非法指令 (核心已转储)",
		"Abgebrochen (Terminated)",
	}, "\n")
	es := assemble(t, Options{}, in)
	want := []view{
		{Lines: "1-1", Msg: "(ktransformers) root@host:/home/rs# python -m ktransformers.local_chat --model_path DeepSeek-R1"},
		{Lines: "2-2", Msg: "Injecting model.layers.0.self_attn as ktransformers.operators.attention . KDeepseekV2Attention"},
		{Lines: "3-3", Format: FormatNative, Native: NativeShell, Msg: "非法指令 (核心已转储)"},
		{Lines: "4-4", Format: FormatNative, Native: NativeShell, Msg: "Abgebrochen (Terminated)"},
	}
	if d := cmp.Diff(want, views(es)); d != "" {
		t.Fatalf("(-want +got)\n%s", d)
	}
	if es[2].Level != LevelFatal || es[3].Level != LevelWarning {
		t.Errorf("levels %q, %q; want FATAL, WARNING", es[2].Level, es[3].Level)
	}
}

// TestShellWordingsAreWellFormed: every wording maps to a C-locale
// description the table holds, and no wording is blank or padded (a line
// is trimmed before it is looked up).
func TestShellWordingsAreWellFormed(t *testing.T) {
	for _, m := range []map[string]string{shellWordings, zshWordings} {
		for w, sig := range m {
			if w == "" || strings.TrimSpace(w) != w {
				t.Errorf("wording %q: blank or padded", w)
			}
			if shellWordings[sig] != sig {
				t.Errorf("wording %q: %q is no C-locale description", w, sig)
			}
		}
	}
}

// FuzzShellSignal checks that what ShellSignal returns is a C-locale
// description, and that a line it reads is a native shell line.
func FuzzShellSignal(f *testing.F) {
	for _, s := range []string{
		"非法指令 (核心已转储)",
		"bash: 第 1 行：12345 非法指令 (核心已转储) python3 x.py",
		"zsh: illegal hardware instruction  python3",
		"Abgebrochen (Killed)",
		"bash : ligne 1 : 4711 Erreur de segmentation (core dumped) python3 x.py",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sig, ok := ShellSignal(s)
		if !ok {
			if sig != "" {
				t.Fatalf("ShellSignal(%q) = %q without a match", s, sig)
			}
			return
		}
		if shellWordings[sig] != sig {
			t.Fatalf("ShellSignal(%q) = %q: no C-locale description", s, sig)
		}
		if _, ok := shellMessageLevel(s); !ok {
			t.Fatalf("ShellSignal(%q) reads a signal, shellMessageLevel none", s)
		}
	})
}
