package catalog_test

import "testing"

// Failures whose writers print them in more than one place, so that the
// line a log keeps may not be the one a record was first written for:
//   - a pod that no node has the GPUs for is told by the Kubernetes
//     scheduler ("0/N nodes are available: M Insufficient <resource>", and
//     "No nodes are available that match all of the following
//     predicates:: Insufficient <resource> (N)" before 1.10), by the
//     cluster autoscaler when no node group it may grow would hold the pod
//     ("pod didn't trigger scale-up: M Insufficient <resource>", "(it
//     wouldn't fit if a new node is added)" in older releases), and by
//     GKE's workload notices ("PodUnschedulable Cannot schedule pods:
//     Insufficient <resource>."), which cut the message at each dot, so a
//     notice may end at the resource's vendor ("Insufficient nvidia");
//   - sglang's capture failure appends numbered remedies to its message,
//     one of which ("disable cuda graph by --disable-cuda-graph", in lower
//     case in older releases, "CUDA" and a performance warning in newer
//     ones) no other sglang message prints, so it names the failure when
//     the "Capture cuda graph failed:" headline is cut off; the closing
//     "Open an issue on GitHub" line is shared with other failures.
func cutWordings() []writerWording {
	autoscaler := func(resource string) string {
		return "  Normal   NotTriggerScaleUp  2m11s (x31 over 7m)  cluster-autoscaler  pod didn't trigger scale-up: 1 max node group size reached, 2 Insufficient " + resource
	}
	gke := func(resource string) string {
		return "PodUnschedulable Cannot schedule pods: Insufficient " + resource + "."
	}
	return []writerWording{
		{family: "Kubernetes: the scheduler, the autoscaler and GKE on a pod no node has the GPUs for", want: "k8s-gpu-unschedulable", lines: []string{
			autoscaler("nvidia.com/gpu"),
			autoscaler("amd.com/gpu"),
			autoscaler("nvidia.com/mig-3g.40gb"),
			autoscaler("aliyun.com/gpu-mem"),
			"pod didn't trigger scale-up (it wouldn't fit if a new node is added): 1 Insufficient nvidia.com/gpu",
			gke("nvidia.com/gpu"),
			gke("amd.com/gpu"),
			gke("nvidia.com/mig-1g.10gb"),
			gke("volcano.sh/vgpu-memory"),
			"Cannot schedule pods: Insufficient nvidia ",
			"PodUnschedulable Cannot schedule pods: Insufficient amd",
			"  Warning  FailedScheduling  3s (x2 over 3s)  default-scheduler  No nodes are available that match all of the following predicates:: Insufficient nvidia.com/gpu (3).",
			"No nodes are available that match all of the predicates: Insufficient alpha.kubernetes.io/nvidia-gpu (1).",
		}},
		{family: "sglang: the capture failure's own remedy line, headline cut off", want: "capture-cuda-graph-failed", lines: []string{
			"1. disable cuda graph by --disable-cuda-graph",
			"4. disable CUDA graph by --disable-cuda-graph. (Not recommended. Huge performance loss)",
			"4. disable cuda graph by --disable-cuda-graph. (Not recommonded. Huge perf loss)",
			"2. disable cuda graph by --disable-cuda-graph.",
		}},
		{family: "sglang: the issue link every hint list ends with", lines: []string{
			"Open an issue on GitHub https://github.com/sgl-project/sglang/issues/new/choose ",
			"3. disable torch compile by not using --enable-torch-compile",
		}},
	}
}

// TestCutWordings checks that each failure is read from every place its
// writers print it.
func TestCutWordings(t *testing.T) {
	checkWordings(t, compileCatalog(t), cutWordings())
}

var cutWordingsWidened = map[string]example{
	"k8s-gpu-unschedulable": {
		match: []string{
			"pod didn't trigger scale-up: 3 Insufficient nvidia.com/gpu",
			"PodUnschedulable Cannot schedule pods: Insufficient nvidia",
		},
		miss: []string{
			"pod didn't trigger scale-up: 2 Insufficient cpu, 1 Insufficient memory",
			"PodUnschedulable Cannot schedule pods: Insufficient cpu.",
			"PodUnschedulable Cannot schedule pods: Insufficient memory.",
			"PodUnschedulable Cannot schedule pods: com/gpu.",
			"No nodes are available that match all of the following predicates:: Insufficient cpu (3).",
			"pod triggered scale-up: [{gpu-pool 1->2 (max: 4)}]",
		},
	},
	"capture-cuda-graph-failed": {
		match: []string{"4. disable CUDA graph by --disable-cuda-graph. (Not recommended. Huge performance loss)"},
		miss: []string{
			"Open an issue on GitHub https://github.com/sgl-project/sglang/issues/new/choose ",
			"python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disable-cuda-graph",
			"3. disable piecewise cuda graph by --disable-piecewise-cuda-graph",
		},
	},
}

func init() { addExamples(nil, cutWordingsWidened) }
