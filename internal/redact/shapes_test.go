package redact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Made-up values shaped like the real ones.
const (
	slackBot   = "xoxb-2345678901-2345678901234-AbCdEfGhIjKlMnOpQrStUvWx"
	slackUser  = "xoxp-2345678901-2345678901-2345678901234-0123456789abcdef0123456789abcdef"
	googleKey  = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
	gitlabPAT  = "glpat-Ab1Cd2Ef3Gh4Ij5Kl6Mn"
	npmToken   = "npm_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
	pemOneLine = `-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nx9Yf3Qm\n-----END PRIVATE KEY-----\n`
	discord    = "https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz-0123456789_abcdefgh"
	teams      = "https://contoso.webhook.office.com/webhookb2/7f3e1b2a-0000-4000-8000-000000000000@11111111-2222-3333-4444-555555555555/IncomingWebhook/0123456789abcdef/aaaa-bbbb"
)

// TestRedactShapes covers each secret shape of issue 33 finding 5, each
// with a near miss that must stay as it is.
func TestRedactShapes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"url password empty user", "redis connect failed: redis://:S3cretPw1@redis:6379/0", "redis connect failed: redis://:[REDACTED]@redis:6379/0"},
		{"https token empty user", "GET https://:tok3nValue@git.example.com/org/repo.git 403", "GET https://:[REDACTED]@git.example.com/org/repo.git 403"},
		{"url password with at", "amqp://app:p@ss@w0rd@mq:5672/ down", "amqp://app:[REDACTED]@mq:5672/ down"},
		{"near miss: url port", "http://10.0.0.5:2379/v3/kv", "http://10.0.0.5:2379/v3/kv"},
		{"near miss: url with at in path", "http://host:8080/user/@me", "http://host:8080/user/@me"},

		{"SECRET_KEY env", "SECRET_KEY=django-insecure-abc123 python app.py", "SECRET_KEY=[REDACTED] python app.py"},
		{"secret_key yaml", "  secret_key: abc123def", "  secret_key: [REDACTED]"},
		{"aws secret key prefixed", "minio_secret_key=Zq7Zq7Zq7Zq7", "minio_secret_key=[REDACTED]"},
		{"private_key", "private_key=MIIEvQIBADANBg", "private_key=[REDACTED]"},
		{"passphrase", "ssh passphrase: open sesame", "ssh passphrase: [REDACTED]"},
		{"credentials", "credentials=user1:Zq7Zq7Zq7Zq7", "credentials=[REDACTED]"},
		{"cookie header", "Cookie: session=abc123; csrftoken=def456", "Cookie: [REDACTED]"},
		{"set-cookie header", "Set-Cookie: sid=Zq7Zq7Zq7Zq7; Path=/; HttpOnly", "Set-Cookie: [REDACTED]"},
		{"cookie in dict", `headers={'Cookie': 'sid=Zq7; a=b'}`, `headers={'Cookie': '[REDACTED]'}`},
		{"near miss: secret_key_id name only", "using secret_key_file /etc/keys", "using secret_key_file /etc/keys"},
		{"near miss: cookie prose", "cookie jar is empty", "cookie jar is empty"},
		{"near miss: credentials prose", "no credentials found in the environment", "no credentials found in the environment"},

		{"slack bot token", "slack_sdk error for " + slackBot, "slack_sdk error for xoxb-[REDACTED]"},
		{"slack user token", "using " + slackUser, "using xoxp-[REDACTED]"},
		{"google api key", "key=" + googleKey + "&alt=json", "key=AIza[REDACTED]&alt=json"},
		{"google api key alone", "calling with " + googleKey, "calling with AIza[REDACTED]"},
		{"gitlab token", "clone with " + gitlabPAT, "clone with glpat-[REDACTED]"},
		{"npm token", "//registry.npmjs.org/:_authToken " + npmToken, "//registry.npmjs.org/:_authToken npm_[REDACTED]"},
		{"bare jwt", "verify failed for " + jwt + " at /auth", "verify failed for [REDACTED] at /auth"},
		{"near miss: short xox", "xoxb-12", "xoxb-12"},
		{"slack app token", "socket mode with xapp-1-A0123456789-1234567890123-abcdef0123", "socket mode with xapp-[REDACTED]"},
		{"stripe key", "stripe: sk_live_4eC39HqLyjWDarjtT1zdp7dc invalid", "stripe: sk_live_[REDACTED] invalid"},
		{"sendgrid key", "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", "SG.[REDACTED]"},
		{"pypi token", "twine with pypi-AgEIcHlwaS5vcmcCJGI4YmNhMDA0LTg1ZGEtNGM3Ni04ZGQ0LWE3NTBm", "twine with pypi-[REDACTED]"},
		{"digitalocean token", "dop_v1_c7f2a8b3e9d14f6a8b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a", "dop_v1_[REDACTED]"},
		{"shopify token", "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", "shpat_[REDACTED]"},
		{"databricks token", "DATABRICKS dapi0123456789abcdef0123456789abcdef-2", "DATABRICKS dapi[REDACTED]-2"},
		{"grafana token", "glsa_Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4_1a2b3c4d", "glsa_[REDACTED]"},
		{"azure account key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFy+YmF6cXV4MTI=;EndpointSuffix=core.windows.net", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED];EndpointSuffix=core.windows.net"},
		{"near miss: stripe test word", "sk_test_mode is off", "sk_test_mode is off"},
		{"near miss: sg dot", "msg.content SG.short", "msg.content SG.short"},
		{"near miss: dapi word", "dapi is a word", "dapi is a word"},
		{"near miss: npm word", "npm_config_cache=/tmp/npm", "npm_config_cache=/tmp/npm"},
		{"near miss: eyJ alone", "eyJhbGciOi is how it starts", "eyJhbGciOi is how it starts"},

		{"pem one line", `{"type": "service_account", "key": "` + pemOneLine + `"}`, `{"type": "service_account", "key": "-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----\n"}`},
		{"pem cut before end", "KEY=-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn", "KEY=-----BEGIN RSA PRIVATE KEY-----[REDACTED]"},
		{"pem on its own lines", "ValueError: bad key\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oXMcPGCy5wfboAoGCCqGSM49\nAwEHoUQDQgAEpX7Gz4rKkkxnwQqPH2lXyFD1QnN5ezm0WEoTg3Lr4W5fMDvwDAcM\n-----END EC PRIVATE KEY-----\nnext line", "ValueError: bad key\n-----BEGIN EC PRIVATE KEY-----[REDACTED]\n-----END EC PRIVATE KEY-----\nnext line"},
		{"pem body stops at prose", "-----BEGIN PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5\nTraceback (most recent call last):", "-----BEGIN PRIVATE KEY-----[REDACTED]\nTraceback (most recent call last):"},
		{"near miss: public key", "-----BEGIN PUBLIC KEY----- MIIBIjANBgkq", "-----BEGIN PUBLIC KEY----- MIIBIjANBgkq"},
		{"discord webhook", "POST " + discord + " 404", "POST https://discord.com/api/webhooks/[REDACTED] 404"},
		{"teams webhook", "teams: " + teams + " failed", "teams: https://contoso.webhook.office.com/webhookb2/[REDACTED] failed"},
		{"near miss: discord link", "see https://discord.com/invite/abc", "see https://discord.com/invite/abc"},
		{"url-encoded password", "body=user%3Dadmin%26password%3DZq7%2521Zq7%26next%3D1", "body=user%3Dadmin%26password%3D[REDACTED]%26next%3D1"},
		{"url-encoded token", "state=a%26token%3Dabc.def", "state=a%26token%3D[REDACTED]"},
		{"near miss: encoded other key", "q=user%3Dadmin%26page%3D2", "q=user%3Dadmin%26page%3D2"},

		{"bearer lower case", "retry with bearer abc123def456ghi", "retry with bearer [REDACTED]"},
		{"bearer tab", "header\tBearer\tabc123def456ghi", "header\tBearer\t[REDACTED]"},
		{"bearer short", "X-Upstream-Auth: Bearer t0k3n", "X-Upstream-Auth: Bearer [REDACTED]"},
		{"bearer letters only long", "Bearer AbCdEfGhIjKlMnOpQrStUvWxYz", "Bearer [REDACTED]"},
		{"bearer colon", "bearer: abc123def456", "bearer: [REDACTED]"},
		{"near miss: bearer prose", "the bearer token expired, refresh it", "the bearer token expired, refresh it"},
		{"near miss: bearer realm", `WWW-Authenticate: Bearer realm="api"`, `WWW-Authenticate: Bearer realm="api"`},

		{"multi-word colon value", "db_password: correct horse battery staple", "db_password: [REDACTED]"},
		{"multi-word before key", "token: abc expired user: bob", "token: [REDACTED] user: bob"},
		{"escaped quote json", `{"password": "pa\"ss w\"ord", "user": "x"}`, `{"password": "[REDACTED]", "user": "x"}`},
		{"escaped quote python", `{'password': 'it\'s secret', 'u': 1}`, `{'password': '[REDACTED]', 'u': 1}`},
		{"near miss: counter", "Decode batch, #running-req: 4, #full token: 51200, full token usage: 0.10, #swa token: 12, swa token usage: 0.01", "Decode batch, #running-req: 4, #full token: 51200, full token usage: 0.10, #swa token: 12, swa token usage: 0.01"},
		{"near miss: max tokens", "max_new_tokens: 128, max_total_tokens: 8192", "max_new_tokens: 128, max_total_tokens: 8192"},
	}
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := r.Redact(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Redact(%q) (-want +got):\n%s", tc.in, diff)
			}
			if again := r.Redact(got); again != got {
				t.Errorf("Redact is not idempotent: %q -> %q", got, again)
			}
			if ref := referenceRedact(r, tc.in); ref != got {
				t.Errorf("hints skipped a match: every line searched gives %q", ref)
			}
			if strings.HasPrefix(tc.name, "near miss") && got != tc.in {
				t.Errorf("near miss changed")
			}
		})
	}
}
