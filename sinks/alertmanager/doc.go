// Package alertmanager posts incidents to a Prometheus Alertmanager
// (POST /api/v2/alerts), so logmatch alerts are grouped, silenced, inhibited
// and routed like every other alert of the cluster.
//
// Each incident becomes one Alertmanager alert named LogmatchIncident,
// labelled by record, severity and workload, and kept distinct by its
// fingerprint label. Its endsAt is the incident's last hit plus the resolve
// timeout: when no new hit arrives in that time, Alertmanager resolves the
// alert by itself. Alertmanager expects clients to send firing alerts again
// and again, so run mode must re-post an incident that is still receiving
// hits before its endsAt passes, at the latest by Sink.RepostBy; a "resolved"
// alert is posted with endsAt at its last hit, which resolves it at once.
package alertmanager
