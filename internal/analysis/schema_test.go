package analysis

import "testing"

// A validation error's headline takes its first error's message, in the
// layouts of pydantic 2 (a model-level check, a field with its location),
// pydantic 1, and not for lines that only look like a summary.
func TestValidationDetail(t *testing.T) {
	for _, tc := range []struct {
		name, text, msg, want string
	}{
		{"pydantic 2 model check",
			"pydantic_core._pydantic_core.ValidationError: 1 validation error for WidgetConfig\n  Value error, no widget architectures are specified [type=value_error, input_value=ArgsKwargs((), {'model': 'x'}), input_type=ArgsKwargs]\n    For further information visit https://errors.pydantic.dev/2.9/v/value_error\n",
			"1 validation error for WidgetConfig", "no widget architectures are specified"},
		{"pydantic 2 field",
			"ValidationError: 2 validation errors for FrobRequest\nmessages.0.content\n  Input should be a valid string [type=string_type, input_value=[{'type': 'x'}], input_type=list]\nmax_tokens\n  Input should be greater than 0 [type=greater_than, input_value=-1, input_type=int]\n",
			"2 validation errors for FrobRequest", "messages.0.content: Input should be a valid string"},
		{"pydantic 1",
			"pydantic.error_wrappers.ValidationError: 1 validation error for Settings\nwidget_url\n  field required (type=value_error.missing)\n",
			"1 validation error for Settings", "widget_url: field required"},
		{"double-spaced",
			"ValidationError: 1 validation error for WidgetConfig\n\n  Value error, no widgets [type=value_error]\n",
			"1 validation error for WidgetConfig", "no widgets"},
		{"no errors after it", "ValidationError: 1 validation error for Settings\n", "1 validation error for Settings", ""},
		{"a traceback line after it", "ValidationError: 1 validation error for Settings\n  File \"x.py\", line 3, in f\n", "1 validation error for Settings", ""},
		{"not a summary", "RuntimeError: 3 widgets failed\n  Value error, x [type=value_error]\n", "3 widgets failed", ""},
		{"a sentence, not a model", "ValueError: 1 validation error for the widget form\n  x [type=y]\n", "1 validation error for the widget form", ""},
	} {
		if got := validationDetail(tc.text, tc.msg); got != tc.want {
			t.Errorf("%s: validationDetail = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func FuzzValidationDetail(f *testing.F) {
	f.Add("ValidationError: 1 validation error for X\nf\n  m [type=t]\n", "1 validation error for X")
	f.Add("1 validation errors for Y\n  Value error, z (type=value_error)\n", "1 validation errors for Y")
	f.Fuzz(func(t *testing.T, text, msg string) {
		if got := validationDetail(text, msg); len(got) > maxValidationDetail {
			t.Errorf("validationDetail(%q, %q) = %d bytes, over the bound", text, msg, len(got))
		}
	})
}
