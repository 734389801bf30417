package incident_test

import (
	"strings"
	"testing"
)

// A caller's traceback cut before its exception line, whose frames name
// no phase or component (the program's entry, a dispatch), printed just
// after a line a consequence record names, is that line's detail: the
// consequence leads one incident. Composed after vLLM's API server under
// the engine core's initialization failure and a Ray driver under an
// actor's death; a cut traceback that says it was loading weights keeps
// the lead it has alone.
func TestACutCallersTracebackIsTheDetailOfTheConsequenceBeforeIt(t *testing.T) {
	m := crashMatcher(t)
	cases := []struct {
		name    string
		lines   []string
		lead    string // "" for the cut traceback's own lead
		cutOnly []string
	}{
		{"vLLM's API server under the engine core's failure",
			[]string{"RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
				"(APIServer pid=2289) Traceback (most recent call last):",
				`(APIServer pid=2289)   File "/usr/local/bin/vllm", line 8, in <module>`,
				"(APIServer pid=2289)     sys.exit(main())",
				`(APIServer pid=2289)   File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/cli/main.py", line 54, in main`,
				"(APIServer pid=2289)     args.dispatch_function(args)"},
			"vllm-engine-core-initialization-failed", nil},
		{"a Ray driver under an actor's death",
			[]string{"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
				"Traceback (most recent call last):",
				`  File "/opt/app/train.py", line 50, in <module>`,
				"    main()",
				`  File "/opt/app/train.py", line 40, in main`,
				"    trainer.fit()"},
			"ray-actor-died", nil},
		{"a cut traceback that names the weight loading",
			[]string{"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
				"Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 300, in load_model`,
				"    self.model = get_model(model_config=self.model_config, load_config=self.load_config)",
				`  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py", line 400, in load_weights_and_postprocess`,
				"    model.load_weights(weights)"},
			"", []string{"Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 300, in load_model`,
				"    self.model = get_model(model_config=self.model_config, load_config=self.load_config)",
				`  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py", line 400, in load_weights_and_postprocess`,
				"    model.load_weights(weights)"}},
	}
	for _, c := range cases {
		want := c.lead
		if want == "" {
			alone := scanLines(t, m, c.cutOnly)
			if len(alone) != 1 {
				t.Fatalf("%s: the cut traceback alone gives %d incidents:%s", c.name, len(alone), describe(alone))
			}
			want = leadOf(alone[0])
		}
		for _, l := range layouts {
			var lines []string
			for _, s := range c.lines {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
			}
		}
	}
}
