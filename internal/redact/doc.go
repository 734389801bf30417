// Package redact hides secrets in log text before it leaves the process:
// bearer tokens, API keys, cloud and model-hub credentials, passwords in
// URLs and query strings, Slack webhook URLs, plus any patterns an operator
// adds. The name of what was hidden stays visible ("api_key=[REDACTED]") so
// people reading an alert know a value was there. It runs once per alert,
// on every text field, not on every log line.
package redact
