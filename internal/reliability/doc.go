// Package reliability is the policy every request of fibe obeys, kept as
// data and small functions so that no command decides for itself what is
// retryable. It does no I/O of its own apart from the state store; the
// client package runs the one retry loop that applies it.
//
// Policy holds every knob with the contract's default (DefaultPolicy):
// 3 retries (4 attempts), full-jitter backoff from 500 ms capped at 30 s, a
// 30 s attempt timeout, polls every second for up to 5 minutes, and breakers
// that open after 5 consecutive failures for 30 s, then admit 2 probes and
// close after 2 successes. Classify turns one attempt's ending (status,
// transport error, timeout, cancellation) into a verdict: retry or not, and
// what the breaker counts. Only 429, 500, 502, 503 and 504 are retried, plus
// a 409 with reason idempotency_key_in_flight (our own earlier attempt still
// running: send again with the same key, until the wait deadline rather
// than within the budget: Decision.UntilDeadline), plus an attempt that got no
// response (refused, reset, EOF). A timed-out attempt is retried only when
// the request is idempotent, which every mutation is since it carries an
// Idempotency-Key minted once per logical operation (NewIdempotencyKey).
// A cancelled attempt is never retried.
//
// Between attempts the caller waits what Retry-After said (ParseRetryAfter:
// seconds or HTTP-date, capped, garbage ignored, no jitter on top) or else
// the next FullJitter delay, a cenkalti/backoff BackOff with an injectable
// random source; NewBackOff adds the retry budget. The rate Ledger takes a
// slot of the X-RateLimit window for every request sent (so requests in
// flight on other goroutines count before their answers arrive), folds each
// answer's headers in with the most conservative view, and once the window
// is spent makes the next request wait until Reset instead of earning a
// 429. Its view is kept in the Store for the next invocation, written only
// when a new window is seen and for the window's last slots. It is kept
// per API origin and key (LedgerScope: a hash of the key, never the key),
// and a 429's Retry-After, once waited, settles the window it was about
// (AdmitAfter). Poller paces the polls of an async operation and lets a
// poll answer's Retry-After set the next interval; a poll that failed
// (PollFailed) does not end the wait, whose deadline names the last
// failure (PollTimeoutError).
//
// Breakers are one per resource ("marquee/<name>"; "playground/<ref>" or
// "marquee/<id>" until the marquee's name is known; "api/<host>" for
// requests about no marquee), with
// sony/gobreaker's semantics and its SharedState as the record, persisted in
// a Store. A Store offers transitions, not reads and writes (admit, record,
// reserve a rate slot, claim a journal entry, ...), each atomic in the
// store: LocalStore runs them in Go as a locked read-modify-write of a
// FileStore (one file per API host under the state directory, replaced
// atomically) or of memory; package statestore runs them as Lua scripts in
// Redis, for a fleet of machines.
// A 5xx of the four above or no response is a failure, a 2xx a success, and
// anything else, 429 included, neither. Each attempt is admitted (Allow)
// and reported (Ticket.Done); a closed breaker with no failures decides both
// on a plain read and writes nothing, and everything else is one short
// transition of the store; no lock is held while the request is on the
// wire, so processes sharing a breaker never wait on each other's requests, and half-open admits at most
// BreakerProbes attempts across all of them (a probe whose process died is
// forgotten after a lease). A corrupt record reads as "closed".
// Clock makes every wait injectable for tests.
package reliability
