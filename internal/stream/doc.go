// Package stream keeps fibe's live streams up: a playground's followed
// logs and its terminal channel, both ActionCable subscriptions over one
// piece of connection code (keeper.go).
//
// Every (re)connect is a request of the client's one retry loop, on a
// budget the stream keeps across reconnects (client.StreamBudget): breaker
// admission for the playground's marquee, classification, Retry-After or
// backoff. A dropped connection, a connection silent for two ping
// intervals (the interval the server shows, 3 s until two pings were
// seen), a session that expired before making progress and a refused
// renewal each count as a failed attempt of that budget, and progress (a
// log line, terminal output, or a confirmed subscription that stayed up
// one ping interval) gives it back. So a quiet log or an idle shell whose
// session expires every few minutes lives forever, and one that cannot
// make progress ends after the policy's retries with a typed error:
// SESSION_EXPIRED for expiries and refused renewals, the last drop's
// error otherwise; never an auth error unless the server answered 401/403.
//
// session_expired follows docs/contract.md §7 (keeper.expired): exactly one
// recovery (fresh cable URL, reconnect, resubscribe) per expiry; further
// expiries are ignored until a subscription is confirmed again, which
// alone clears the flag.
//
// Relay (relay.go) applies the same rules to a stream whose connections
// someone else asks for one at a time: the web console's relay, whose
// browser makes the expiry recovery itself.
//
// The package imports internal/client, never the reverse.
package stream
