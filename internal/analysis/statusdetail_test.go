package analysis

import "testing"

// The Hub client's HTTP errors say only their status on their exception
// line; the lines after it, blank lines aside, say what was refused
// (threads' pastes of GatedRepoError and RepositoryNotFoundError). A
// status that says what failed itself, or no lines after it, adds
// nothing, and the next exception or traceback ends the lines read.
func TestStatusDetailReadsWhatTheHubRefused(t *testing.T) {
	for _, c := range []struct{ text, msg, want string }{
		{
			"GatedRepoError: 401 Client Error. (Request ID: Root=1-66389f5d-0f09a9387397c642253a3cab;07f44087-7a0e-4f26-a444-29193404cbc8)\n" +
				"Cannot access gated repo for url https://huggingface.co/api/models/mistralai/Mistral-7B-Instruct-v0.2/revision/main.\n" +
				"Access to model mistralai/Mistral-7B-Instruct-v0.2 is restricted. You must be authenticated to access it.",
			"401 Client Error. (Request ID: Root=1-66389f5d-0f09a9387397c642253a3cab;07f44087-7a0e-4f26-a444-29193404cbc8)",
			"Cannot access gated repo for url https://huggingface.co/api/models/mistralai/Mistral-7B-Instruct-v0.2/revision/main. Access to model mistralai/Mistral-7B-Instruct-v0.2 is restricted. You must be authenticated to access it.",
		},
		{
			"GatedRepoError: 401 Client Error. (Request ID: Root=1-6800c1a8-69511c6166fc8c3076cf474d;b91c310c-e96a-4855-88a6-1d10b06d8e80)\n\n" +
				"Cannot access gated repo for url https://huggingface.co/MahmoodLab/uni/resolve/main/config.json.\n",
			"401 Client Error. (Request ID: Root=1-6800c1a8-69511c6166fc8c3076cf474d;b91c310c-e96a-4855-88a6-1d10b06d8e80)",
			"Cannot access gated repo for url https://huggingface.co/MahmoodLab/uni/resolve/main/config.json.",
		},
		{
			"huggingface_hub.utils._errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-67ff8411-0b02c71d2dabd17f4c82e40d;760e6e3c-72d4-4e1b-a52c-57badd559390)\n\n" +
				"Repository Not Found for url: https://huggingface.co/vicuna-13b-v1.3/resolve/main/tokenizer.model.\n\n" +
				"The above exception was the direct cause of the following exception:\n",
			"401 Client Error. (Request ID: Root=1-67ff8411-0b02c71d2dabd17f4c82e40d;760e6e3c-72d4-4e1b-a52c-57badd559390)",
			"Repository Not Found for url: https://huggingface.co/vicuna-13b-v1.3/resolve/main/tokenizer.model.",
		},
		{
			"requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://huggingface.co/api/models/x\nValueError: bad",
			"404 Client Error: Not Found for url: https://huggingface.co/api/models/x", "",
		},
		{"HfHubHTTPError: 500 Server Error. (Request ID: Root=1-x)\nTraceback (most recent call last):", "500 Server Error. (Request ID: Root=1-x)", ""},
		{"HfHubHTTPError: 500 Server Error. (Request ID: Root=1-x)\nValueError: bad", "500 Server Error. (Request ID: Root=1-x)", ""},
	} {
		if got := statusDetail(c.text, c.msg); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.text, got, c.want)
		}
	}
}
