// Package client is fibe's transport to the Fibe API: the typed Error, the
// one retry loop, async waiting, the hooks of live streams, and the services
// (playgrounds, marquees, async requests, me) the commands are thin shells
// over. The policy itself (what is retried, how long to wait, when a
// breaker opens) lives in package reliability; this package applies it.
//
// Every failure is an *Error carrying the HTTP status (0 without a
// response), a stable code (the server's, or one the client adds such as
// CIRCUIT_OPEN, ASYNC_TIMEOUT, NETWORK_ERROR, CANCELLED), a one-line message,
// details, the Retry-After honoured, the request id and replay flag, and for
// mutations the Idempotency-Key to retry with. Callers branch on predicates
// (IsNotFound, IsCircuitOpen, ...), never on text. Bodies that are not the
// JSON error envelope (an HTML 502, empty, truncated) still become typed
// errors, and bodies are read with a size limit.
//
// There is one retry loop (loop.go), and every request, every poll and
// every stream (re)connect runs through it: wait for the rate ledger, ask
// the breaker of the request's resource, make one attempt under the attempt
// timeout, classify it with reliability.Classify, report the outcome to the
// breaker, then wait Retry-After (capped, no jitter) or the full-jitter
// backoff and go again, within the retry budget. The breaker wraps each
// attempt, so once it opens the rest of the budget is not sent. A mutation
// mints its Idempotency-Key once and sends it on every attempt; polls are
// GETs and carry none, but their errors name the mutation's key. Requests
// are attributed to a marquee without sending anything to find out: every
// answer that names a marquee teaches a cache in the state store, and until
// it does a request about a playground counts against
// "playground/<ref as typed>" and one about a marquee id against
// "marquee/<id>", so a dead marquee silences only requests about it and
// never the host.
//
// net/http re-sends an idempotent request (a GET, or one carrying an
// Idempotency-Key) once on a new connection when a reused keep-alive
// connection fails before the first byte of an answer. That is kept: it
// only repairs a connection the server had already given up on, and only
// for requests the contract allows to be sent again. The policy counts
// attempts, not TCP writes, so such an attempt is still one breaker outcome
// and one slot of the budget; the server may see it twice, and the debug
// trace says when that happened. Tests that count requests exactly ask the
// server to close each connection.
//
// A 202 is followed by polling its status_url verbatim (relative URLs
// resolve against the API base; otherwise /api/async_requests/<id>); each
// poll is a request like any other, and one that still fails after its
// retries (or that an open breaker holds back) does not end the wait,
// which goes on to its deadline. A failed operation becomes the same typed
// error a synchronous failure would (REMOTE_REQUEST_FAILED when it names
// no code; a playground action adds the failed step, build statuses and
// diagnostics from one status read), a playground reaching
// error/failed/destroyed while waited on becomes PLAYGROUND_TERMINAL_STATE
// with its reasons and diagnostics, and the deadline becomes ASYNC_TIMEOUT
// naming the request id to resume and the last poll's failure.
//
// A 409 idempotency_key_in_flight (our own earlier attempt still running)
// is sent again with the same key until the answer is replayed, bounded by
// the command's wait deadline, not the retry budget; past it the mutation
// is ASYNC_TIMEOUT with its key, the outcome unknown.
// The API key goes only to the API origin and config trusted hosts, for
// status URLs, redirects and cable URLs alike; plain http to any other
// non-loopback origin is refused. Cancelling the context stops at once and
// returns CANCELLED saying what to retry or resume.
//
// Live streams (followed logs, the terminal channel) live in package
// stream, on this package's hooks (cable.go): the cable URL and the
// credentials a handshake may carry, and a StreamBudget that runs every
// (re)connect through the retry loop and counts a stream's other failures
// on the same budget.
//
// Options.OnEvent receives every progress event, MutationOptions.OnEvent
// those of one mutation (its attempts, retries, replay, 202 and polls),
// and Options.Debug a trace of
// every attempt, delay, breaker change and poll, with credentials and any
// field named like a key, token, password or secret redacted.
package client
