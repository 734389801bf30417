// Package slack delivers alerts to a Slack incoming webhook as Block Kit
// messages: a header with the severity and the record's slug, what happened
// and why, the matched line and the exception in code blocks, where it
// happened, the record's solutions and links. It paces itself to Slack's
// one message per second per webhook, folds an alert storm into one digest
// (SendBatch), and classifies Slack's documented answers so that the Retry
// decorator knows what is worth retrying. The webhook URL is a secret: it
// is read from the config, a file or the environment and never appears in
// an error or a log line.
package slack
