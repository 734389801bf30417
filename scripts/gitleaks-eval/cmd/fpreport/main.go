// Command fpreport runs gitleaks' default rules and logmatch's redactor
// over the corpus excerpts, which hold no real secret, and prints what
// each flags: every finding is a false positive. It also counts which of
// the secret shapes logmatch covers gitleaks finds.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"

	"github.com/logmatch/logmatch/internal/redact"
	eval "github.com/logmatch/logmatch/scripts/gitleaks-eval"
)

func main() {
	dir := flag.String("corpus", eval.CorpusDir, "directory of *.log excerpts")
	flag.Parse()
	zerolog.SetGlobalLevel(zerolog.Disabled)
	names, texts, err := eval.Corpus(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r, _ := redact.New(nil)
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	byRule := map[string]int{}
	gFiles, lFiles, lLines, gTotal := 0, 0, 0, 0
	for i, t := range texts {
		fs := d.DetectString(t)
		if len(fs) > 0 {
			gFiles++
		}
		for _, f := range fs {
			byRule[f.RuleID]++
			gTotal++
			fmt.Printf("gitleaks %s %s line %d: %.100q\n", names[i], f.RuleID, f.StartLine+1, f.Match)
		}
		changed := false
		for n, l := range strings.Split(t, "\n") {
			if out := r.Redact(l); out != l {
				lLines++
				changed = true
				fmt.Printf("logmatch %s line %d: %.100q\n", names[i], n+1, out)
			}
		}
		if changed {
			lFiles++
		}
	}
	rules := make([]string, 0, len(byRule))
	for k := range byRule {
		rules = append(rules, k)
	}
	sort.Strings(rules)
	fmt.Printf("\ncorpus: %d files, %d lines\n", len(texts), len(eval.Lines(texts)))
	fmt.Printf("gitleaks: %d findings in %d files; by rule:", gTotal, gFiles)
	for _, k := range rules {
		fmt.Printf(" %s=%d", k, byRule[k])
	}
	fmt.Printf("\nlogmatch: %d lines changed in %d files\n", lLines, lFiles)

	// The shapes of issue 33 finding 5 that logmatch's tests cover: which
	// of them do gitleaks' default rules find?
	// Values are random-looking (high entropy), as real secrets are, so
	// gitleaks' entropy thresholds do not decide the comparison.
	shapes := []string{
		"redis://:q8Zr2LmN4vX7tB9w@redis:6379/0", "https://:gT4kP9xQ2mW7zR5v@git.example.com/org/repo.git",
		"SECRET_KEY=django-insecure-7fk29xq4Lm8Rz2vB", "secret_key: 9fQ2xL7mZ4rW8kT3", "private_key=MIIEvQIBADANBgkqhkiG9w0BAQEF",
		"passphrase=Xq7Lm2Rz9Wk4Tb8V", "credentials=svc1:Hq8Zr2Lm4Nv7Xt9B", "Cookie: session=8fQ2xL7mZ4rW9kT3vB6n; csrftoken=Tb8VXq7Lm2Rz9Wk4",
		"Set-Cookie: sid=Rz9Wk4Tb8VXq7Lm2; Path=/", "xoxb-2345678901-2345678901234-AbCdEfGhIjKlMnOpQrStUvWx",
		"AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "glpat-Ab1Cd2Ef3Gh4Ij5Kl6Mn", "npm_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2",
		"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
		`-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----`,
		"https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz-0123456789",
		"https://contoso.webhook.office.com/webhookb2/7f3e1b2a-0000-4000-8000-000000000000@11111111-2222-3333-4444-555555555555/IncomingWebhook/0123456789abcdef0123456789abcdef/aaaa",
		"body=user%3Dadmin%26password%3DXq7Lm2Rz9Wk4Tb8V%26next%3D1", "retry with bearer 8fQ2xL7mZ4rW9kT3vB6n", "header\tBearer\t8fQ2xL7mZ4rW9kT3vB6n",
		"db_password: correct horse battery staple", `{"password": "Xq7\"Lm2 Rz9\"Wk4"}`, "amqp://app:Xq7@Lm2Rz9Wk4@mq:5672/",
	}
	gFound, lFound := 0, 0
	for _, s := range shapes {
		line := "ConnectionRefusedError: connect with " + s + " refused"
		g := len(d.DetectString(line)) > 0
		l := r.Redact(line) != line
		if g {
			gFound++
		}
		if l {
			lFound++
		}
		fmt.Printf("shape gitleaks=%-5v logmatch=%-5v %.70s\n", g, l, s)
	}
	fmt.Printf("shapes found: gitleaks %d of %d, logmatch %d of %d\n", gFound, len(shapes), lFound, len(shapes))

	// Provider tokens beyond issue 33's list, the breadth gitleaks' rule
	// set is for: which does each find?
	providers := []string{
		"sk_live_4eC39HqLyjWDarjtT1zdp7dc", "rk_live_4eC39HqLyjWDarjtT1zdp7dc",
		"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",
		"pypi-AgEIcHlwaS5vcmcCJGI4YmNhMDA0LTg1ZGEtNGM3Ni04ZGQ0LWE3NTBmNzhiYjY2ZAACJXsicGVybWlzc2lvbnMiOiAidXNlciIsICJ2ZXJzaW9uIjogMX0AAAYgSUs",
		"dop_v1_c7f2a8b3e9d14f6a8b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a",
		"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", "dapi0123456789abcdef0123456789abcdef",
		"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4MTI=;EndpointSuffix=core.windows.net",
		"glsa_Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4_1a2b3c4d", "xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
	}
	gFound, lFound = 0, 0
	for _, s := range providers {
		line := "upstream call failed with " + s + " rejected"
		g := len(d.DetectString(line)) > 0
		l := r.Redact(line) != line
		if g {
			gFound++
		}
		if l {
			lFound++
		}
		fmt.Printf("provider gitleaks=%-5v logmatch=%-5v %.60s\n", g, l, s)
	}
	fmt.Printf("provider tokens found: gitleaks %d of %d, logmatch %d of %d\n", gFound, len(providers), lFound, len(providers))
}
