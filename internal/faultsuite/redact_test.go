package faultsuite

import (
	"strings"
	"testing"
)

// Issue 14 item 18: credentials in the common key-value shapes never reach
// an alert, in the matched text or in the entry.
func TestSecretsAreMaskedInAlerts(t *testing.T) {
	secrets := map[string]string{
		"yaml password":   "password: hunter2",
		"json password":   `{"password": "hunter3"}`,
		"python password": "{'password': 'hunter5'}",
		"env password":    "PGPASSWORD=hunter4",
		"json secret":     `"client_secret":"hunter6"`,
		"env token":       "GITHUB_TOKEN=hunter7",
		"api key colon":   "x-api-key: hunter8",
		"json api key":    `{"apiKey": "hunter9"}`,
	}
	var log strings.Builder
	for _, s := range secrets {
		log.WriteString("Traceback (most recent call last):\n  File \"/app/db.py\", line 3, in connect\n    open_db()\n")
		log.WriteString("ConnectionRefusedError: connect with " + s + " refused\n")
	}
	path := writeFile(t, t.TempDir(), "app.log", log.String())
	res := run(t, nil, "scan", "--format", "json", path)
	if res.code != 0 {
		t.Fatalf("exit status %d\nstderr:\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, "[REDACTED]") {
		t.Fatalf("no alert carries a mask; output:\n%s", res.stdout)
	}
	for name, s := range secrets {
		secret := s[strings.Index(s, "hunter") : strings.Index(s, "hunter")+7]
		if strings.Contains(res.stdout, secret) {
			t.Errorf("%s: %q reached the alerts", name, secret)
		}
	}
}
