package analysis

import "testing"

// TestTerminateWhat finds the what() line of std::terminate's report,
// whatever the exception's type (a C++ library's, the standard library's,
// torch's), also a line or two after the report, and none when the
// report has none or it is too far.
func TestTerminateWhat(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"terminate called after throwing an instance of 'c10::Error'\n  what():  CUDA error: invalid argument\n", "what():  CUDA error: invalid argument"},
		{"terminate called after throwing an instance of 'std::invalid_argument'\n  what():  widget head dim 224 is not supported\nAborted (core dumped)\n", "what():  widget head dim 224 is not supported"},
		{"terminate called after throwing an instance of 'YAML::BadFile'\n[rank0] unrelated line\n  what():  bad file: widgets.yaml\n", "what():  bad file: widgets.yaml"},
		{"terminate called after throwing an instance of 'int'\nAborted (core dumped)\n", ""},
		{"terminate called after throwing an instance of 'x'\n1\n2\n3\n4\n5\n  what():  far away\n", ""},
		{"terminate called after throwing an instance of 'x'\n  what():   \n", ""},
		{"  what():  without a report\n", ""},
	} {
		if got := terminateWhat(tt.in); got != tt.want {
			t.Errorf("terminateWhat(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
