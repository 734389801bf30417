// Package webhook is the generic HTTP sink: it POSTs each alert as its
// logmatch.alert/v1 JSON object, signs the body with HMAC-SHA256 when a
// secret is configured, and sends an Idempotency-Key so that a receiver can
// drop the duplicates that retries and restarts may produce.
package webhook
