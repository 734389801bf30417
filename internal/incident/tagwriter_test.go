package incident_test

import "testing"

// TensorRT's logger prints one failure in several error lines behind its
// tag ("[TRT] [E] 1: ... Error Code 1: Serialization (...)" then "[TRT]
// [E] 4: ... Engine deserialization failed."), under a time no header is
// read from: the tag names the writer, and one writer's error lines of one
// burst are one event, led by the first (the records of TensorRT's
// failures left out), in each thread's lines: an engine built by another
// TensorRT release, a build out of GPU memory. Two writers' lines stay two
// failures.
func TestOneTaggedWritersErrorLinesAreOneEvent(t *testing.T) {
	m := matcherWithout(t, "trtllm-engine-deserialize-failed", "tensorrt-out-of-memory", "tensorrt-engine-build-failed")
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{trtOtherReleaseLines, "Version tag does not match"},
		{[]string{
			"[11/10/2023-06:30:40] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)",
			"[11/10/2023-06:30:40] [TRT] [W] Requested amount of GPU memory (24793579520 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.",
			"[11/10/2023-06:30:40] [TRT] [E] 2: [globWriter.cpp::makeResizableGpuMemory::423] Error Code 2: OutOfMemory (no further information)",
		}, "resizePhysical"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || !leadsWith(got[0], c.says) {
			t.Errorf("%s: want one incident led by the first error line, got %d:%s", c.says, len(got), describe(got))
		}
	}
	two := []string{
		"[06/08/2022-15:28:47] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization (Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current Version: 213, Serialized Engine Version: 205)",
		"[06/08/2022-15:28:47] [ONNX] [E] Failed to parse the model: Unsupported operator NonMaxSuppression at node 12",
	}
	if got := scanLines(t, m, two); len(got) != 2 {
		t.Errorf("two writers' error lines: want two incidents, got %d:%s", len(got), describe(got))
	}
}

// trtOtherReleaseLines are TensorRT's runtime loading an engine built by
// another release: the archive reader's version error, then the runtime's
// failure it ends in.
var trtOtherReleaseLines = []string{
	"[06/08/2022-15:28:47] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization (Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current Version: 213, Serialized Engine Version: 205)",
	"[06/08/2022-15:28:47] [TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)",
}
