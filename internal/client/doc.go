// Package client is fibe's transport to the Fibe API: the typed Error, the
// one retry loop, async waiting, and the services (playgrounds, marquees,
// async requests, me) the commands are thin shells over.
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
// Every request goes through one loop (Client.do over Client.loop): wait
// for the rate ledger, ask the breaker of the request's resource, send one
// attempt with the attempt timeout, classify it with reliability.Classify,
// report the outcome to the breaker, then wait Retry-After or full-jitter
// backoff and go again, within the retry budget. The breaker wraps each
// attempt, so once it opens the rest of the budget is not sent. A mutation
// mints its Idempotency-Key once and sends it on every attempt and every
// poll of it. Requests are attributed to a marquee (a playground's marquee
// is learned from the playground and cached in the state directory), so a
// dead marquee silences only requests about it.
//
// A 202 is followed by polling its status_url verbatim (relative URLs
// resolve against the API base; otherwise /api/async_requests/<id>); each
// poll is a request like any other. A failed operation becomes the same
// typed error a synchronous failure would (REMOTE_REQUEST_FAILED when it
// names no code), a playground reaching error/failed/destroyed while waited
// on becomes PLAYGROUND_TERMINAL_STATE with its reasons and diagnostics,
// and the deadline becomes ASYNC_TIMEOUT naming the request id to resume.
// The API key goes only to the API origin and config trusted hosts; plain
// http to any other non-loopback origin is refused. Cancelling the context
// stops at once and returns CANCELLED saying what to retry or resume.
//
// Options.OnEvent receives progress events and Options.Debug a trace of
// every attempt, delay, breaker change and poll, with credentials and any
// field named like a key, token, password or secret redacted.
package client
