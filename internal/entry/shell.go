package entry

import (
	"cmp"
	"slices"
	"strings"
)

// What a shell prints when the child it ran died by a signal. Bash prints
// the signal's description (strsignal(3): the C library's wording, in the
// locale's language), " (core dumped)" (bash's own wording, translated
// too) when the process left a core, and, for a job of a script or a
// background job, the shell's name, the script's line, the pid and the
// command around it:
//
//	Killed
//	Segmentation fault (core dumped)
//	非法指令 (核心已转储)
//	bash: line 1: 12345 Illegal instruction     (core dumped) python3 -m ...
//	bash: Zeile 1: 12345 Speicherzugriffsfehler (Speicherabzug geschrieben) python3 ...
//
// zsh prints its own lower-case wording after its name ("zsh: illegal
// hardware instruction  python3 ..."). The wordings below are glibc's and
// bash's message catalogs for the languages servers are most often run in
// (past wordings kept: a log outlives its system's upgrade), mapped to the
// C locale's, which is what ShellSignal returns.

// shellWordings maps a signal's description, in the C locale and in each
// language, to the C locale's. Quit and the trace trap are read in the C
// locale only: their translations are everyday words ("Sair", "退出")
// that a line may hold alone for other reasons.
var shellWordings = map[string]string{
	"Killed": "Killed", "Terminated": "Terminated", "Aborted": "Aborted", "Segmentation fault": "Segmentation fault",
	"Bus error": "Bus error", "Illegal instruction": "Illegal instruction", "Floating point exception": "Floating point exception",
	"Quit": "Quit", "Trace/breakpoint trap": "Trace/breakpoint trap",

	// Chinese (zh_CN, zh_TW).
	"非法指令": "Illegal instruction", "無效指令": "Illegal instruction", "不合法的命令": "Illegal instruction",
	"段错误": "Segmentation fault", "程式記憶體區段錯誤": "Segmentation fault", "分割錯誤": "Segmentation fault",
	"已中止": "Aborted", "已放弃": "Aborted", "中止": "Aborted", "已經終止": "Aborted",
	"已杀死": "Killed", "強制結束": "Killed", "已砍掉": "Killed",
	"总线错误": "Bus error", "匯流排錯誤": "Bus error", "匯流排錯誤 (Bus error)": "Bus error",
	"浮点异常": "Floating point exception", "浮点数例外": "Floating point exception", "浮點數例外": "Floating point exception", "浮點數出錯": "Floating point exception",
	"已终止": "Terminated", "終止": "Terminated",
	// Japanese.
	"不正な指定": "Illegal instruction", "セグメンテーションフォルト": "Segmentation fault", "強制終了": "Killed",
	"バスエラー": "Bus error", "浮動小数点例外": "Floating point exception",
	// Korean.
	"명령어가 잘못됨": "Illegal instruction", "잘못된 명령어": "Illegal instruction", "부적절한 명령": "Illegal instruction",
	"세그멘테이션 오류": "Segmentation fault", "세그먼테이션 오류": "Segmentation fault", "중지됨": "Aborted", "죽었음": "Killed",
	"버스 오류": "Bus error", "부동 소수점 예외": "Floating point exception", "종료됨": "Terminated", "중단됨": "Terminated",
	// German.
	"Ungültiger Maschinenbefehl": "Illegal instruction", "Ungültige Anweisung.": "Illegal instruction",
	"Speicherzugriffsfehler": "Segmentation fault", "Adressierungsfehler": "Segmentation fault", "Abgebrochen": "Aborted",
	"Getötet": "Killed", "Abgebrochen (Killed)": "Killed", "Bus-Zugriffsfehler": "Bus error", "Bus-Fehler": "Bus error",
	"Gleitkomma-Ausnahme": "Floating point exception", "Gleitkommafehler": "Floating point exception",
	"Beendet": "Terminated", "Abgebrochen (Terminated)": "Terminated",
	// French.
	"Instruction non permise": "Illegal instruction", "Instruction incorrecte": "Illegal instruction",
	"Erreur de segmentation": "Segmentation fault", "Abandon": "Aborted", "Processus arrêté": "Killed", "Tué": "Killed",
	"Erreur du bus": "Bus error", "Erreur de bus": "Bus error", "Exception en point flottant": "Floating point exception",
	"Exception en virgule flottante": "Floating point exception", "Complété": "Terminated", "Terminé": "Terminated",
	// Spanish.
	"Instrucción ilegal": "Illegal instruction", "Violación de segmento": "Segmentation fault", "Abortado": "Aborted",
	"Terminado (killed)": "Killed", "Matado": "Killed", "Error del bus": "Bus error",
	"Excepción de coma flotante": "Floating point exception", "Terminado": "Terminated",
	// Italian.
	"Istruzione non consentita": "Illegal instruction", "Istruzione non valida": "Illegal instruction",
	"Errore di segmentazione": "Segmentation fault", "Annullato": "Aborted", "Ucciso": "Killed", "Errore di bus": "Bus error",
	"Eccezione in virgola mobile": "Floating point exception", "Terminato": "Terminated",
	// Portuguese (pt_BR, pt).
	"Instrução ilegal": "Illegal instruction", "Falha de segmentação": "Segmentation fault", "Falta de segmentação": "Segmentation fault",
	"Morto": "Killed", "Morto (Killed)": "Killed", "Erro no barramento": "Bus error", "Erro do barramento": "Bus error", "Erro de bus": "Bus error",
	"Exceção de ponto flutuante": "Floating point exception", "Excepção de vírgula flutuante": "Floating point exception",
	// Russian, Ukrainian.
	"Недопустимая инструкция": "Illegal instruction", "Ошибка сегментирования": "Segmentation fault", "Ошибка сегментации": "Segmentation fault",
	"Аварийный останов": "Aborted", "Убито": "Killed", "Убит": "Killed", "Ошибка шины": "Bus error",
	"Исключение в операции с плавающей точкой": "Floating point exception", "Исключение при обработке чисел с плавающей точкой": "Floating point exception",
	"Завершено": "Terminated", "Прерван": "Terminated",
	"Помилкова інструкція": "Illegal instruction", "Помилка адресування": "Segmentation fault", "Перервано": "Aborted", "Вбито": "Killed",
	"Вбитий": "Killed", "Помилка каналу обміну даними": "Bus error", "Помилка шини": "Bus error",
	"Помилка обчислень з рухомою комою": "Floating point exception", "Припинено": "Terminated",
	// Polish.
	"Błędna instrukcja": "Illegal instruction", "Niedozwolona instrukcja": "Illegal instruction", "Naruszenie ochrony pamięci": "Segmentation fault",
	"Przerwane": "Aborted", "Unicestwiony": "Killed", "Błąd szyny": "Bus error",
	"Błąd w obliczeniach zmiennoprzecinkowych": "Floating point exception", "Zakończony": "Terminated",
	// Turkish.
	"Yönerge kuraldışı": "Illegal instruction", "Geçersiz talimat": "Illegal instruction", "Parçalama arızası": "Segmentation fault",
	"Bölünme hatası": "Segmentation fault", "İptal edildi": "Aborted", "Süreç durduruldu": "Killed", "Öldürüldü": "Killed",
	"Veri yolu hatası": "Bus error", "Veriyolu hatası": "Bus error", "Gerçel sayı istisnası": "Floating point exception",
	"Kayan nokta istisnası": "Floating point exception", "Sonlandırıldı": "Terminated",
	// Vietnamese.
	"Chỉ lệnh không hợp lệ": "Illegal instruction", "Câu lệnh bị cấm": "Illegal instruction", "Câu lệnh không được phép": "Illegal instruction",
	"Lỗi phân đoạn": "Segmentation fault", "Bị hủy bỏ": "Aborted", "Bị buộc kết thúc": "Killed", "Bị giết": "Killed",
	"Lỗi bus": "Bus error", "Lỗi mạch nối": "Bus error", "Ngoại lệ dấu chấm động": "Floating point exception",
	"Ngoại lệ điểm phù động": "Floating point exception", "Lỗi dấu chấm động": "Floating point exception",
	"Bị kết thúc": "Terminated", "Đã kết thúc": "Terminated", "Bị chấm dứt": "Terminated",
}

// zshWordings maps zsh's own wordings, printed after "zsh: ", to the C
// locale's descriptions.
var zshWordings = map[string]string{
	"illegal hardware instruction": "Illegal instruction", "segmentation fault": "Segmentation fault",
	"killed": "Killed", "abort": "Aborted", "bus error": "Bus error", "floating point exception": "Floating point exception",
	"terminated": "Terminated", "quit": "Quit", "trace trap": "Trace/breakpoint trap",
}

// coreDumped holds bash's "(core dumped)" in each language, without its
// parentheses (which a translation may print full-width).
var coreDumped = map[string]bool{
	"core dumped": true, "核心已转储": true, "吐核": true, "核心已傾印": true, "コアダンプ": true, "코어 덤프됨": true,
	"Speicherabzug geschrieben": true, "`core' generado": true, "core dump creato": true, "imagem do núcleo gravada": true,
	"núcleo despejado": true, "образ памяти сброшен на диск": true, "стек памяти сброшен на диск": true,
	"збережено знімок оперативної пам’яті": true, "zrzut pamięci": true, "çekirdek döküldü": true, "lõi bị đổ": true,
	"xuất ra core": true,
}

// byLength returns m's keys, longest first: the longest wording that
// starts a line is the one it holds ("Abgebrochen (Killed)" before
// "Abgebrochen").
func byLength(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return keys
}

var (
	shellWordingsByLength = byLength(shellWordings)
	zshWordingsByLength   = byLength(zshWordings)
	shellFirstBytes       = firstBytes(shellWordingsByLength)
)

// firstBytes marks the bytes the keys start with.
func firstBytes(keys []string) (b [256]bool) {
	for _, k := range keys {
		b[k[0]] = true
	}
	return b
}

// maxShellLine bounds a line read as a shell's message alone: the longest
// description with its core note, and spaces.
const maxShellLine = 160

// maxShellLead bounds the shell's or script's name in front of a job's
// message.
const maxShellLead = 256

// maxScriptLine bounds the script's line ("第 1 行：", " : ligne 12 : ")
// between the name and the pid.
const maxScriptLine = 40

// ShellSignal returns the C locale's description of the signal ("Illegal
// instruction", "Killed") that the shell message s reports, in any of the
// shapes and languages above, and whether s is one.
func ShellSignal(s string) (string, bool) {
	if sig, ok := shellAlone(s); ok {
		return sig, true
	}
	if sig, ok := shellJob(s); ok {
		return sig, true
	}
	return zshJob(s)
}

// shellAlone reads a description alone on its line, with or without its
// core note.
func shellAlone(s string) (string, bool) {
	if s == "" || len(s) > maxShellLine {
		return "", false
	}
	t := strings.TrimRight(s, " \t")
	if sig, ok := shellWordings[t]; ok {
		return sig, true
	}
	if d, ok := cutCoreNote(t); ok {
		sig, ok := shellWordings[d]
		return sig, ok
	}
	return "", false
}

// cutCoreNote returns s without the core note that ends it, and the spaces
// before the note; ok is false when s does not end in one.
func cutCoreNote(s string) (string, bool) {
	var inner string
	switch {
	case strings.HasSuffix(s, ")"):
		i := strings.LastIndexByte(s, '(')
		if i < 0 {
			return "", false
		}
		inner, s = s[i+1:len(s)-1], s[:i]
	case strings.HasSuffix(s, "）"):
		i := strings.LastIndex(s, "（")
		if i < 0 {
			return "", false
		}
		inner, s = s[i+len("（"):len(s)-len("）")], s[:i]
	default:
		return "", false
	}
	if !coreDumped[inner] {
		return "", false
	}
	return strings.TrimRight(s, " \t"), true
}

// shellJob reads bash's message for a job: "bash: line 1: 12345 Killed
// python3 ...", "bash: 22128 Segmentation fault (core dumped) ...", the
// script's line in the locale's words ("bash: 第 1 行：", "bash: Zeile 1: ",
// "bash, linha 1: ", "bash : ligne 1 : "). The shell's or script's name is
// one field; a number (the pid) follows the lead after a space or a colon,
// and the description follows the pid.
func shellJob(s string) (string, bool) {
	name := strings.IndexAny(s, " :,")
	if name <= 0 || name > maxShellLead {
		return "", false
	}
	switch {
	case s[name] == ':' || s[name] == ',':
	case name+1 < len(s) && s[name+1] == ':': // "bash : ligne 1 : "
	default:
		return "", false
	}
	lead := min(len(s), name+maxScriptLine)
	for i := name; i < lead; i++ {
		c := s[i]
		if !isDigit(c) || isDigit(s[i-1]) {
			continue
		}
		if p := s[i-1]; p != ' ' && p != ':' && p != 0x9a { // 0x9a ends "："
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == len(s) || s[j] != ' ' {
			i = j
			continue
		}
		r := strings.TrimLeft(s[j:], " ")
		if r != "" && shellFirstBytes[r[0]] {
			if sig, ok := wordingAt(r, shellWordingsByLength, shellWordings); ok {
				return sig, true
			}
		}
		i = j
	}
	return "", false
}

// zshJob reads zsh's "zsh: segmentation fault (core dumped)  python3 ...".
func zshJob(s string) (string, bool) {
	r, ok := strings.CutPrefix(s, "zsh: ")
	if !ok {
		return "", false
	}
	return wordingAt(r, zshWordingsByLength, zshWordings)
}

// wordingAt returns the signal of the longest wording r starts with, that
// the line's end, a space or a core note's parenthesis ends.
func wordingAt(r string, keys []string, m map[string]string) (string, bool) {
	for _, w := range keys {
		if !strings.HasPrefix(r, w) {
			continue
		}
		rest := r[len(w):]
		if rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '(' || strings.HasPrefix(rest, "（") {
			return m[w], true
		}
	}
	return "", false
}

// shellMessageLevel matches what a shell prints when its child died by a
// signal and returns FATAL, or WARNING for SIGTERM ("Terminated"), the
// signal of an orderly stop.
func shellMessageLevel(s string) (string, bool) {
	sig, ok := ShellSignal(s)
	if !ok {
		return "", false
	}
	if sig == "Terminated" {
		return LevelWarning, true
	}
	return LevelFatal, true
}
