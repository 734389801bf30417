package patterns

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// generatedCatalog is the 5,695-record scale catalog kept beside the
// repository (../shared in a checkout and in CI).
const generatedCatalog = "../../shared/catalogs/sglang-generated.jsonl"

// seedFile is the one real record, shipped in the embedded catalog.
const seedFile = "catalog/ascend-transfer-engine.jsonl"

// got is what a parse test compares: record ids with their origins and
// dataset versions, and the problems rendered with their level.
type got struct {
	Records  []string
	Problems []string
}

func summarize(recs []Record, probs []Problem) got {
	var g got
	for _, r := range recs {
		s := r.ID + "@" + r.Origin.String()
		if r.DatasetVersion != "" {
			s += " v" + r.DatasetVersion
		}
		g.Records = append(g.Records, s)
	}
	for _, p := range probs {
		g.Problems = append(g.Problems, p.Level.String()+" "+p.Error())
	}
	return g
}

func TestParseForms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want got
	}{
		{
			name: "wrapped JSONL",
			in: `{"record":{"id":"a","messagePattern":"x"},"datasetVersion":"2026-01-01"}
{"record":{"id":"b","messagePattern":"y"},"datasetVersion":"2026-01-02"}
`,
			want: got{Records: []string{"a@f:1 v2026-01-01", "b@f:2 v2026-01-02"}},
		},
		{
			name: "bare records",
			in:   "{\"id\":\"a\",\"messagePattern\":\"x\"}\n{\"id\":\"b\",\"messagePattern\":\"y\"}\n",
			want: got{Records: []string{"a@f:1", "b@f:2"}},
		},
		{
			name: "BOM, CRLF, blank lines, no final newline",
			in:   "\uFEFF{\"id\":\"a\",\"messagePattern\":\"x\"}\r\n\r\n   \r\n{\"id\":\"b\",\"messagePattern\":\"y\"}\r\n\n{\"id\":\"c\",\"messagePattern\":\"z\"}",
			want: got{Records: []string{"a@f:1", "b@f:4", "c@f:6"}},
		},
		{
			name: "unknown fields and nulls",
			in:   `{"id":"a","messagePattern":"x","future":{"deep":[1,2]},"severity":null,"solutions":null,"httpStatus":null,"errorCode":null}`,
			want: got{Records: []string{"a@f:1"}},
		},
		{
			name: "JSON array of wrappers and bare records",
			in: `[
  {"record": {"id": "a", "messagePattern": "x"}, "datasetVersion": "v1"},
  {
    "id": "b",
    "messagePattern": "y"
  }
]
`,
			want: got{Records: []string{"a@f:2 vv1", "b@f:3"}},
		},
		{
			name: "JSON array after BOM and blank lines",
			in:   "\uFEFF\n\n[{\"id\":\"a\",\"messagePattern\":\"x\"}]",
			want: got{Records: []string{"a@f:3"}},
		},
		{
			name: "empty input",
			in:   "",
			want: got{},
		},
		{
			name: "only blank lines",
			in:   "\n\r\n  \n",
			want: got{},
		},
		{
			name: "empty array",
			in:   "[]",
			want: got{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, probs := Parse(strings.NewReader(tt.in), "f")
			if diff := cmp.Diff(tt.want, summarize(recs, probs)); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseProblems(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want got
	}{
		{
			name: "invalid JSON",
			in:   `{"id":"b","messagePattern":"x" oops}`,
			want: got{Problems: []string{"error c.jsonl:1: invalid JSON at byte 32: unexpected character after object key:value pair"}},
		},
		{
			name: "truncated line",
			in:   `{"id":"p","messagePattern":"x",`,
			want: got{Problems: []string{"error c.jsonl:1: invalid JSON at byte 31: unexpected end of JSON input"}},
		},
		{
			name: "two values on one line",
			in:   `{"id":"l","messagePattern":"x"} {"id":"m"}`,
			want: got{Problems: []string{"error c.jsonl:1: invalid JSON at byte 33: invalid character '{' after top-level value"}},
		},
		{
			name: "missing id",
			in:   `{"messagePattern":"x"}`,
			want: got{Problems: []string{"error c.jsonl:1: id: missing or empty"}},
		},
		{
			name: "blank id",
			in:   `{"id":"  ","messagePattern":"x"}`,
			want: got{Problems: []string{"error c.jsonl:1: id: missing or empty"}},
		},
		{
			name: "missing messagePattern",
			in:   `{"id":"a"}`,
			want: got{Problems: []string{"error c.jsonl:1: messagePattern: missing or empty"}},
		},
		{
			name: "null messagePattern",
			in:   `{"id":"a","messagePattern":null}`,
			want: got{Problems: []string{"error c.jsonl:1: messagePattern: missing or empty"}},
		},
		{
			name: "both required fields missing",
			in:   `{"slug":"s"}`,
			want: got{Problems: []string{"error c.jsonl:1: id: missing or empty", "error c.jsonl:1: messagePattern: missing or empty"}},
		},
		{
			name: "pattern does not compile",
			in:   `{"id":"d","messagePattern":"(abc"}`,
			want: got{Problems: []string{"error c.jsonl:1: messagePattern: does not compile: error parsing regexp: missing closing ) in `(abc`"}},
		},
		{
			name: "severity of the wrong type",
			in:   `{"id":"e","messagePattern":"x","severity":5}`,
			want: got{Problems: []string{"error c.jsonl:1: severity: want string, got number"}},
		},
		{
			name: "unknown severity loads as error",
			in:   `{"id":"f","messagePattern":"x","severity":"fatal"}`,
			want: got{
				Records:  []string{"f@c.jsonl:1"},
				Problems: []string{`warning c.jsonl:1: severity: unknown severity "fatal" (want info, warning, error or critical); loaded as "error"`},
			},
		},
		{
			name: "unknown role loads as a cause",
			in:   `{"id":"r","messagePattern":"x","role":"root"}`,
			want: got{
				Records:  []string{"r@c.jsonl:1"},
				Problems: []string{`warning c.jsonl:1: role: unknown role "root" (want cause, wrapper, consequence or echo); loaded as "cause"`},
			},
		},
		{
			name: "role of the wrong type",
			in:   `{"id":"r2","messagePattern":"x","role":1}`,
			want: got{Problems: []string{"error c.jsonl:1: role: want string, got number"}},
		},
		{
			name: "fatal not a boolean",
			in:   `{"id":"r3","messagePattern":"x","fatal":"yes"}`,
			want: got{Problems: []string{"error c.jsonl:1: fatal: want boolean, got string"}},
		},
		{
			name: "tags not an array",
			in:   `{"id":"g","messagePattern":"x","tags":"t"}`,
			want: got{Problems: []string{"error c.jsonl:1: tags: want array of strings, got string"}},
		},
		{
			name: "tags holding a number",
			in:   `{"id":"h","messagePattern":"x","tags":[1]}`,
			want: got{Problems: []string{"error c.jsonl:1: tags: want array of strings, got an array holding a number"}},
		},
		{
			name: "solutions an object",
			in:   `{"id":"n","messagePattern":"x","solutions":{"a":1}}`,
			want: got{Problems: []string{"error c.jsonl:1: solutions: want array of strings, got object"}},
		},
		{
			name: "fractional httpStatus",
			in:   `{"id":"j","messagePattern":"x","httpStatus":1.5}`,
			want: got{Problems: []string{"error c.jsonl:1: httpStatus: want integer, got number 1.5"}},
		},
		{
			name: "lineNumber a string",
			in:   `{"id":"k","messagePattern":"x","lineNumber":"12"}`,
			want: got{Problems: []string{"error c.jsonl:1: lineNumber: want integer, got string"}},
		},
		{
			name: "wrapper record not an object",
			in:   `{"record":5}`,
			want: got{Problems: []string{"error c.jsonl:1: record: want object, got number"}},
		},
		{
			name: "wrapper record null",
			in:   `{"record":null,"datasetVersion":"v"}`,
			want: got{Problems: []string{"error c.jsonl:1: record: want object, got null"}},
		},
		{
			name: "wrapper datasetVersion a number",
			in:   `{"record":{"id":"i","messagePattern":"x"},"datasetVersion":7}`,
			want: got{Problems: []string{"error c.jsonl:1: datasetVersion: want string, got number"}},
		},
		{
			name: "line is an array",
			in:   "{\"id\":\"a\",\"messagePattern\":\"x\"}\n[1]",
			want: got{Records: []string{"a@c.jsonl:1"}, Problems: []string{"error c.jsonl:2: want object, got array"}},
		},
		{
			name: "line is a string",
			in:   `"str"`,
			want: got{Problems: []string{"error c.jsonl:1: want object, got string"}},
		},
		{
			name: "array element not an object",
			in:   "[\n{\"id\":\"a\",\"messagePattern\":\"x\"},\n5,\n{\"id\":\"b\",\"messagePattern\":\"y\"}\n]",
			want: got{Records: []string{"a@c.jsonl:2", "b@c.jsonl:4"}, Problems: []string{"error c.jsonl:3: want object, got number"}},
		},
		{
			name: "array element with a bad field",
			in:   "[\n{\"id\":\"a\",\"messagePattern\":\"x\"},\n{\"id\":\"b\",\n \"severity\":1}\n]",
			want: got{Records: []string{"a@c.jsonl:2"}, Problems: []string{"error c.jsonl:3: severity: want string, got number"}},
		},
		{
			name: "syntax error inside an array stops there",
			in:   "[\n{\"id\":\"a\",\"messagePattern\":\"x\"},\n{\"id\":\"b\" x}\n,{\"id\":\"c\",\"messagePattern\":\"x\"}]",
			want: got{Records: []string{"a@c.jsonl:2"}, Problems: []string{"error c.jsonl:3: invalid JSON array: unexpected character after object key:value pair"}},
		},
		{
			name: "unterminated array",
			in:   "[{\"id\":\"a\",\"messagePattern\":\"x\"}\n",
			want: got{Records: []string{"a@c.jsonl:1"}, Problems: []string{"error c.jsonl:2: invalid JSON array: unexpected EOF"}},
		},
		{
			name: "trailing comma in array",
			in:   `[{"id":"a","messagePattern":"x"},]`,
			want: got{Records: []string{"a@c.jsonl:1"}, Problems: []string{"error c.jsonl:1: invalid JSON array: invalid character ']' looking for beginning of value"}},
		},
		{
			name: "data after the array",
			in:   "[{\"id\":\"a\",\"messagePattern\":\"x\"}]\n{}",
			want: got{Records: []string{"a@c.jsonl:1"}, Problems: []string{"error c.jsonl:2: unexpected data after the JSON array"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, probs := Parse(strings.NewReader(tt.in), "c.jsonl")
			if diff := cmp.Diff(tt.want, summarize(recs, probs)); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSeverityNormalised(t *testing.T) {
	in := `{"id":"a","messagePattern":"x","severity":"Critical"}
{"id":"b","messagePattern":"x","severity":"warn"}
{"id":"c","messagePattern":"x"}
{"id":"d","messagePattern":"x","severity":""}
{"id":"e","messagePattern":"x","severity":"info"}
`
	recs, probs := Parse(strings.NewReader(in), "s.jsonl")
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	var gotSev []Severity
	for _, r := range recs {
		gotSev = append(gotSev, r.Severity)
	}
	want := []Severity{SeverityCritical, SeverityWarning, DefaultSeverity, DefaultSeverity, SeverityInfo}
	if diff := cmp.Diff(want, gotSev); diff != "" {
		t.Errorf("severities (-want +got):\n%s", diff)
	}
}

func TestParseLongLines(t *testing.T) {
	long := `{"id":"big","messagePattern":"x","sourceCode":"` + strings.Repeat("y", 100) + `"}`
	in := `{"id":"a","messagePattern":"x"}` + "\n" + long + "\n" + `{"id":"b","messagePattern":"x"}` + "\n"
	tests := []struct {
		name    string
		maxLine int
		want    got
	}{
		{
			name:    "line over the bound is skipped",
			maxLine: 64,
			want: got{
				Records:  []string{"a@f:1", "b@f:3"},
				Problems: []string{"error f:2: line is longer than 64 bytes; skipped"},
			},
		},
		{
			name:    "line exactly at the bound loads",
			maxLine: len(long),
			want:    got{Records: []string{"a@f:1", "big@f:2", "b@f:3"}},
		},
		{
			name:    "one byte over the bound",
			maxLine: len(long) - 1,
			want: got{
				Records:  []string{"a@f:1", "b@f:3"},
				Problems: []string{"error f:2: line is longer than " + strconv.Itoa(len(long)-1) + " bytes; skipped"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parser{name: "f", maxLine: tt.maxLine, maxArray: MaxArrayBytes}
			recs, probs := p.parse(strings.NewReader(in))
			if diff := cmp.Diff(tt.want, summarize(recs, probs)); diff != "" {
				t.Errorf("parse (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseRealBound runs the documented 16 MiB bound itself: lines longer
// than the read buffer are assembled, and one past the bound is refused.
func TestParseRealBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 32 MiB of input")
	}
	pad := func(n int) string {
		head := `{"id":"x","messagePattern":"x","sourceCode":"`
		return head + strings.Repeat("y", n-len(head)-2) + `"}`
	}
	in := pad(MaxLineBytes) + "\r\n" + pad(MaxLineBytes+1) + "\n" + `{"id":"z","messagePattern":"z"}`
	recs, probs := Parse(strings.NewReader(in), "big.jsonl")
	want := got{
		Records:  []string{"x@big.jsonl:1", "z@big.jsonl:3"},
		Problems: []string{"error big.jsonl:2: line is longer than 16777216 bytes; skipped"},
	}
	if diff := cmp.Diff(want, summarize(recs, probs)); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestParseArrayBound(t *testing.T) {
	p := parser{name: "a.json", maxLine: MaxLineBytes, maxArray: 16}
	recs, probs := p.parse(strings.NewReader(`[{"id":"a","messagePattern":"x"}]`))
	want := got{Problems: []string{"error a.json:1: JSON array is larger than 16 bytes; skipped (use JSONL for large catalogs)"}}
	if diff := cmp.Diff(want, summarize(recs, probs)); diff != "" {
		t.Errorf("parse (-want +got):\n%s", diff)
	}
}

// TestSeedVerbatim loads the real seed record as it is (one wrapped line, no
// final newline) and checks every field against an independent decode.
func TestSeedVerbatim(t *testing.T) {
	raw, err := os.ReadFile(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	if raw[len(raw)-1] == '\n' {
		t.Fatalf("%s: the seed must stay without a final newline", seedFile)
	}
	recs, probs := LoadFile(seedFile)
	if len(probs) != 0 || len(recs) != 1 {
		t.Fatalf("LoadFile: %d records, problems %v", len(recs), probs)
	}
	rec := recs[0]

	var line struct {
		Record         map[string]any `json:"record"`
		DatasetVersion string         `json:"datasetVersion"`
	}
	if err := json.Unmarshal(raw, &line); err != nil {
		t.Fatal(err)
	}
	// Every non-null field of the file, and nothing else, comes back out
	// of the Record; null fields are absent.
	want := map[string]any{}
	for k, v := range line.Record {
		if v != nil {
			want[k] = v
		}
	}
	out, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var gotFields map[string]any
	if err := json.Unmarshal(out, &gotFields); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, gotFields); diff != "" {
		t.Errorf("record fields (-file +loaded):\n%s", diff)
	}

	wantMeta := Record{
		ID:             "a4a00f79b8728e30",
		Slug:           "ascend-transfer-engine-initialization-failed",
		MessagePattern: `Ascend Transfer Engine initialization failed\.`,
		ErrorClass:     "RuntimeError",
		Severity:       SeverityCritical,
		LineNumber:     84,
		SchemaVersion:  2,
		DatasetVersion: line.DatasetVersion,
		Origin:         Origin{File: seedFile, Line: 1},
	}
	gotMeta := Record{
		ID: rec.ID, Slug: rec.Slug, MessagePattern: rec.MessagePattern, ErrorClass: rec.ErrorClass,
		Severity: rec.Severity, LineNumber: rec.LineNumber, SchemaVersion: rec.SchemaVersion,
		DatasetVersion: rec.DatasetVersion, Origin: rec.Origin,
	}
	if diff := cmp.Diff(wantMeta, gotMeta, cmpopts.IgnoreUnexported(Record{})); diff != "" {
		t.Errorf("key fields (-want +got):\n%s", diff)
	}
	if rec.DatasetVersion == "" || rec.ErrorCode != nil || rec.HTTPStatus != nil {
		t.Errorf("datasetVersion %q, errorCode %s, httpStatus %v: want a version and two nulls", rec.DatasetVersion, rec.ErrorCode, rec.HTTPStatus)
	}
	if rec.SourceCodeStart == nil || *rec.SourceCodeStart != 66 || rec.SourceCodeEnd == nil || *rec.SourceCodeEnd != 102 {
		t.Errorf("sourceCodeStart/End = %v/%v, want 66/102", rec.SourceCodeStart, rec.SourceCodeEnd)
	}
	if !strings.HasSuffix(rec.SourceCode, "logger.warning(") || len(rec.Solutions) == 0 {
		t.Errorf("sourceCode or solutions lost: %d bytes of source, %d solutions", len(rec.SourceCode), len(rec.Solutions))
	}
}

// TestOneProblemPerBadLine takes the generated catalog, breaks four lines in
// four ways, and expects exactly one problem for each at its own line, with
// every other record still loaded.
func TestOneProblemPerBadLine(t *testing.T) {
	raw, err := os.ReadFile(generatedCatalog)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	lines[9] = `{"record":{"id":"broken-json","messagePattern":"x"` // line 10
	lines[99] = `{"record":{"id":"no-pattern"},"datasetVersion":"v"}`
	lines[999] = `{"record":{"id":"bad-regex","messagePattern":"([a-"},"datasetVersion":"v"}`
	lines[4999] = `{"record":{"id":"nested","messagePattern":"(a+)+"},"datasetVersion":"v"}`
	dir := t.TempDir()
	path := dir + "/catalog.jsonl"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, probs := LoadForLint([]string{path}, testLintOptions())
	var gotProbs []string
	for _, p := range probs {
		gotProbs = append(gotProbs, p.Level.String()+" "+strings.TrimPrefix(p.Error(), dir+"/"))
	}
	want := []string{
		"error catalog.jsonl:10: invalid JSON at byte 50: unexpected end of JSON input",
		"error catalog.jsonl:100: messagePattern: missing or empty",
		"error catalog.jsonl:1000: messagePattern: does not compile: error parsing regexp: unterminated [] set in `([a-`",
		`warning catalog.jsonl:5000: messagePattern: possible catastrophic backtracking: repeated group matches both "a" and "aa", so a run of "a" splits in exponentially many ways when the rest of the pattern fails`,
	}
	if diff := cmp.Diff(want, gotProbs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(recs) != 5695-3 {
		t.Errorf("records = %d, want %d", len(recs), 5695-3)
	}
	if recs[4999-3].ID != "nested" || recs[8].Origin.Line != 9 || recs[9].Origin.Line != 11 {
		t.Errorf("records around the bad lines: %v %v %v", recs[4999-3].ID, recs[8].Origin, recs[9].Origin)
	}
}

func BenchmarkParseGenerated(b *testing.B) {
	raw, err := os.ReadFile(generatedCatalog)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if recs, probs := Parse(strings.NewReader(string(raw)), "gen"); len(recs) != 5695 || len(probs) != 0 {
			b.Fatal(len(recs), probs)
		}
	}
}

func TestPatternTreeHandedOverOnce(t *testing.T) {
	recs, probs := Parse(strings.NewReader(`{"id":"a","messagePattern":"worker (\\d+) died"}`), "c.jsonl")
	if len(probs) > 0 || len(recs) != 1 {
		t.Fatalf("Parse: %v %v", recs, probs)
	}
	r := &recs[0]
	kept := r.parse
	if kept == nil {
		t.Fatal("Parse kept no parse tree")
	}
	first, err := r.PatternTree()
	if err != nil || first != kept.tree {
		t.Fatalf("first PatternTree = %p, %v; want the kept tree %p", first, err, kept.tree)
	}
	if r.parse != nil {
		t.Error("the record still holds its tree after handing it over")
	}
	second, err := r.PatternTree()
	if err != nil || second == first || second.Root == nil {
		t.Fatalf("second PatternTree = %p, %v; want a new parse", second, err)
	}
	// A record whose pattern changed after Parse never gets the stale tree.
	recs, _ = Parse(strings.NewReader(`{"id":"a","messagePattern":"worker (\\d+) died"}`), "c.jsonl")
	r = &recs[0]
	r.MessagePattern = "(unclosed"
	if _, err := r.PatternTree(); err == nil {
		t.Error("PatternTree returned the tree of the old pattern")
	}
}

// A reader that tells its size has its records read into one slice sized
// from the first chunk; the records are the same as from a reader that
// does not, whether the estimate comes out short (records longer after the
// first chunk) or long (shorter after it), and from a file.
func TestParseSizedInputGivesTheSameRecords(t *testing.T) {
	line := func(i, pad int) string {
		return `{"id":"` + strconv.Itoa(1000000+i) + `","messagePattern":"failure ` + strconv.Itoa(i) + `","severity":"error","solutions":["` + strings.Repeat("s", pad) + `"]}` + "\n"
	}
	build := func(first, rest int) string {
		var b strings.Builder
		for i := range 3*recordChunk + 17 {
			pad := rest
			if i < recordChunk {
				pad = first
			}
			b.WriteString(line(i, pad))
		}
		return b.String()
	}
	opt := cmpopts.IgnoreUnexported(Record{})
	for name, data := range map[string]string{"longer later": build(10, 400), "shorter later": build(400, 10), "even": build(50, 50)} {
		want, wantProbs := Parse(struct{ io.Reader }{strings.NewReader(data)}, "c.jsonl") // no size
		got, gotProbs := Parse(strings.NewReader(data), "c.jsonl")
		if len(want) != 3*recordChunk+17 || len(wantProbs) != 0 || len(gotProbs) != 0 {
			t.Fatalf("%s: %d records, problems %v / %v", name, len(want), wantProbs, gotProbs)
		}
		if diff := cmp.Diff(want, got, opt); diff != "" {
			t.Errorf("%s: records differ with the size known (-unknown +known):\n%s", name, diff)
		}
		path := filepath.Join(t.TempDir(), "c.jsonl")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		fromFile, _ := LoadFile(path)
		for i := range fromFile {
			fromFile[i].Origin.File = "c.jsonl"
		}
		if diff := cmp.Diff(want, fromFile, opt); diff != "" {
			t.Errorf("%s: records from the file differ (-reader +file):\n%s", name, diff)
		}
	}
	data := build(50, 50)
	p := parser{name: "c.jsonl", maxLine: MaxLineBytes, maxArray: MaxArrayBytes, trees: &patternTrees{trees: map[string]*parsedPattern{}}, size: int64(len(data))}
	if recs, _ := p.parse(strings.NewReader(data)); p.flat == nil || len(recs) != 3*recordChunk+17 || cap(recs) > 2*len(recs) {
		t.Errorf("sized input: flat %v, %d records in a slice of %d", p.flat != nil, len(recs), cap(recs))
	}
	if got := inputSize(strings.NewReader("abc")); got != 3 {
		t.Errorf("inputSize of a 3-byte reader = %d", got)
	}
}
