package patterns

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every Record field with a JSON name is one the fast decoder fills: a new
// field missing from fastFields would be silently ignored on the fast path.
func TestFastFieldsCoverRecord(t *testing.T) {
	rt := reflect.TypeFor[Record]()
	var missing []string
	n := 0
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		n++
		if _, ok := fastFields[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 || n != len(fastFields) {
		t.Errorf("fastFields lacks %v (%d JSON fields, %d fast fields)", missing, n, len(fastFields))
	}
}

// fastCases are lines the fast decoder must either decode as encoding/json
// does or leave to it.
var fastCases = []string{
	`{"id":"a","messagePattern":"x"}`,
	`  {"record":{"id":"a","messagePattern":"x\\d+","errorCode":null,"httpStatus":null,"lineNumber":84},"datasetVersion":"v1"}  `,
	`{"record":{"id":"a","messagePattern":"x"},"datasetVersion":null}`,
	`{"datasetVersion":"v1","record":{"id":"a","messagePattern":"x"}}`,
	`{"id":"a","messagePattern":"x","datasetVersion":"v1"}`,
	`{"id":"a","messagePattern":"x","datasetVersion":5}`,
	`{"record":5}`,
	`{"record":null}`,
	`{"record":{"id":"a"},"datasetVersion":5}`,
	`{"ID":"a","messagePattern":"x"}`,
	`{"id":"a","id":"b","messagePattern":"x"}`,
	`{"id":"a","messagePattern":"x","unknown":{"deep":[1,2.5e3,-0,true,false,null,"s\\u00e9"]}}`,
	`{"id":"a","messagePattern":"x","lineNumber":1.0}`,
	`{"id":"a","messagePattern":"x","lineNumber":99999999999999999999}`,
	`{"id":"a","messagePattern":"x","lineNumber":-7,"schemaVersion":2,"httpStatus":500,"sourceCodeStart":0,"sourceCodeEnd":null}`,
	`{"id":"a","messagePattern":"x","tags":[],"solutions":null,"preventionTips":["p","q"]}`,
	`{"id":"a","messagePattern":"x","tags":[1]}`,
	`{"id":"a","messagePattern":"x","tags":["a",null]}`,
	`{"id":"a","messagePattern":"x","fatal":true,"role":"wrapper","severity":"CRIT"}`,
	`{"id":"a","messagePattern":"x","fatal":"yes"}`,
	`{"id":"a","messagePattern":"x","errorCode":{"code": [1, 2]}}`,
	`{"id":"a","messagePattern":"x","errorCode":"E1"}`,
	`{"id":"\ud83d\ude00 \u0041\n\t\"\\\/\b\f\r","messagePattern":"x"}`,
	`{"id":"\ud83d","messagePattern":"x"}`,
	`{"id":"\udc00\ud83d","messagePattern":"x"}`,
	`{"id":"a\u0000b","messagePattern":"x"}`,
	"{\"id\":\"a\x01\",\"messagePattern\":\"x\"}",
	"{\"id\":\"\xff\",\"messagePattern\":\"x\"}",
	`{"id":"a","messagePattern":"x"} trailing`,
	`{"id":"a","messagePattern":"x"`,
	`{"id":"a","messagePattern":"x",}`,
	`{"id" "a"}`,
	`{"i\u0064":"a","messagePattern":"x"}`,
	`{"id":"a","messagePattern":"x","sev\u0065rity":"info"}`,
	`{"id":"a","messagePattern":"x","ſolutions":["s"]}`,
	`{"id":"a","messagePattern":"x","\u017folutions":["s"],"triggerſcenario\u017f":"t","\u212a":1}`,
	"{\"id\":\"a\",\"messagePattern\":\"x\",\"triggerſcenarioſ\":\"t\",\"commonſituationſ\":\"c\"}",
	`["not","an","object"]`,
	`"string"`,
	`{}`,
	`{"id":"a","messagePattern":"x","x":01}`,
	`{"id":"a","messagePattern":"x","x":-}`,
	`{"id":"a","messagePattern":"x","x":1.}`,
	`{"id":"a","messagePattern":"x","x":1e}`,
	`{"id":"a","messagePattern":"x","x":tru}`,
	`{"id":null,"messagePattern":"x","severity":null,"role":null,"fatal":null,"lineNumber":null}`,
	`{"id":"a","messagePattern":"x","remedies":{"vllm":["--gpu-memory-utilization 0.8"],"tgi":[],"ollama":null},"engines":["sglang","vllm"]}`,
	`{"id":"a","messagePattern":"x","remedies":{},"engines":[]}`,
	`{"id":"a","messagePattern":"x","remedies":null,"engines":null}`,
	`{"id":"a","messagePattern":"x","remedies":{"vllm":["a"],"vllm":["b"]}}`,
	`{"id":"a","messagePattern":"x","remedies":{"vllm":"a"}}`,
	`{"id":"a","messagePattern":"x","remedies":{"vllm":[1]}}`,
	`{"id":"a","messagePattern":"x","remedies":["vllm"]}`,
	`{"id":"a","messagePattern":"x","remedies":{"v\u006clm":["a"]}}`,
	`{"id":"a","messagePattern":"x","Remedies":{"vllm":["a"]},"ENGINES":["vllm"]}`,
	`{"record":{"id":"a","messagePattern":"x","remedies":{"sglang":["--mem-fraction-static 0.8"]}},"datasetVersion":"v1"}`,
}

// checkFastDecode fails when the fast decoder accepts raw but decodes it
// differently from encoding/json, or accepts what encoding/json rejects.
func checkFastDecode(t *testing.T, raw []byte) {
	t.Helper()
	var fast Record
	if !fastDecodeRecord(raw, &fast) {
		return
	}
	want, probs := jsonDecodeRecord(raw)
	if probs != nil {
		t.Fatalf("%q: fast decoder accepted what encoding/json rejects: %v", raw, probs)
	}
	if !reflect.DeepEqual(want, fast) {
		t.Fatalf("%q: fast decoder differs (-encoding/json +fast):\n%s", raw, cmp.Diff(want, fast))
	}
}

func TestFastDecodeAgreesWithJSON(t *testing.T) {
	accepted := 0
	for _, c := range fastCases {
		checkFastDecode(t, []byte(c))
		var r Record
		if fastDecodeRecord([]byte(c), &r) {
			accepted++
		}
	}
	if accepted < 10 {
		t.Errorf("fast decoder accepted only %d of the %d cases", accepted, len(fastCases))
	}
	for _, file := range []string{seedFile, "../../shared/seed/ascend-transfer-engine.jsonl", generatedCatalog, "catalog/sglang.jsonl"} {
		f, err := os.Open(file)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, MaxLineBytes)
		lines, fast := 0, 0
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			lines++
			checkFastDecode(t, line)
			var r Record
			if fastDecodeRecord(line, &r) {
				fast++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		// The catalogs are written by the tools the fast path is for.
		if fast != lines {
			t.Errorf("%s: fast decoder took %d of %d lines", file, fast, lines)
		}
	}
}

// FuzzFastDecode: whatever the fast decoder accepts, encoding/json accepts
// and decodes to the same Record.
func FuzzFastDecode(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c))
	}
	if seed, err := os.ReadFile(seedFile); err == nil {
		f.Add(bytes.TrimSpace(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFastDecode(t, raw)
	})
}
