// Package redact hides secrets in log text before it leaves the process:
// bearer tokens, API keys, cloud, model-hub, Slack, Google, GitLab and npm
// credentials, JWTs, one-line PEM private keys, passwords in URLs, query
// strings and form bodies, cookies, Slack, Discord and Teams webhook URLs,
// plus any patterns an operator adds. The name of what was hidden stays
// visible ("api_key=[REDACTED]") so people reading an alert know a value
// was there. It runs once per occurrence, on every text field of its
// alert, before the alert is grouped, stored or sent, not on every log
// line; a line longer than the line bound is the exception, redacted
// before it is cut (entry.Options.Redact), since the kept tail could
// start inside a value whose key was cut away. GITLEAKS.md says why the
// rules are logmatch's own rather than gitleaks' detect package.
package redact
