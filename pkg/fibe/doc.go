// Package fibe is the Go client of the Fibe API, the platform that runs
// preview environments ("playgrounds") on hosts ("marquees"). It is the
// client the fibe command line, MCP server and web console use, under the
// same reliability contract (docs/contract.md): retries with backoff, one
// idempotency key per mutation, waiting on accepted operations, a circuit
// breaker per marquee, pacing under the rate limit, live logs that survive
// reconnects.
//
//	c, err := fibe.NewClient(fibe.WithAPIKey(os.Getenv("FIBE_API_KEY")))
//	if err != nil {
//		return err
//	}
//	defer c.Close()
//	pg, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "pr-42", Playspec: "web"})
//	if err != nil {
//		return err
//	}
//	st, _, err := c.Playgrounds.Rollout(ctx, pg.Name) // waits for the operation
//	fmt.Println(st.Status)                            // running
//
// The services are the Client's fields: Playgrounds, Marquees, Playspecs,
// Props, Repos, Operations and Me. A ref is a numeric id or a name. Calls return the
// item, a *Response (request id, replay, idempotency key, the 202 handle,
// rate limit, page) and an error. NewClient reads no environment, file or
// keyring: the program passes what it wants.
//
// # Errors
//
// Every error is, or wraps, an *Error: a stable Code (the Code* constants,
// or a server code this version does not know), the HTTP Status (0 when no
// answer came), the RequestID to quote, Details, and what the client knows
// of the call: Retryable, OutcomeUnknown, the IdempotencyKey it went with,
// the OperationID of an accepted operation, the breaker Resource. Its
// Error() is "CODE: message (request req_...)". Branch with the predicates,
// which follow the command line's exit codes (docs/exit-codes.md):
// IsNotFound, IsAuth, IsValidation, IsConflict, IsNotFunded,
// IsQuotaExceeded, IsRateLimited, IsCircuitOpen, IsAsyncTimeout,
// IsRemoteFailed, IsUnavailable, IsCancelled, and IsPlaygroundTerminal,
// IsRetryable, IsOutcomeUnknown; or with errors.Is(err, &fibe.Error{Code:
// fibe.CodeConflict}). Message is for people and may change.
//
// Bad input (nil params, an empty ref, a malformed key, an option that
// cannot work) is INVALID_ARGUMENT with Details["field"] naming it, and
// nothing is sent.
//
// # Idempotency
//
// Every POST, PUT, PATCH and DELETE carries an Idempotency-Key chosen once
// per call and sent again with each retry, so a mutation whose answer was
// lost is answered by the server's replay (Response.Replayed) and done
// once. WithIdempotencyKey binds a key of the caller's (a CI job's run id)
// to the mutations made with a context; it always wins. Without one, a
// mutation that ended with its outcome unknown (IsOutcomeUnknown) is
// remembered for WithJournalWindow (15 minutes), and the same mutation
// sent again within it reuses that key (EventKeyReuse): calling again
// finishes it. NewIdempotencyKey mints a key.
//
// # Waiting
//
// A 202 is waited on: its status_url (or the operation's) is polled every
// Policy.PollInterval until Policy.PollTimeout; a failed poll does not end
// the wait. NoWait returns at once with Response.Operation set;
// Operations.Wait finishes it later. WaitTimeout and PollInterval change
// the wait of one call. An operation that fails is its *Error (Async set,
// the server's code and details; a failed rollout adds the failed step,
// build statuses and diagnostics); a playground that ends in error, failed
// or destroyed is PLAYGROUND_TERMINAL_STATE, returned with its status; the
// deadline is ASYNC_TIMEOUT with the OperationID to resume; the end of the
// context is CANCELLED, wrapping its cause.
//
// # Reliability
//
// Every request, poll and stream reconnect goes through one retry loop
// under Policy (DefaultPolicy: 3 retries, full-jitter backoff from 500 ms
// to 30 s, 30 s per attempt). A Retry-After is waited exactly, capped at
// MaxDelay. The X-RateLimit-* headers of every answer feed a ledger: with
// nothing left in the window the next request waits for it to refill
// (EventRateWait) rather than earn a 429; Client.RateLimit shows it. Each
// marquee has its own circuit breaker ("marquee/<name>"): 5 failures open
// it for 30 s, during which its requests fail at once with CIRCUIT_OPEN
// and nothing is sent; see Client.Breakers and Client.ResetBreaker.
// WithStateDir keeps breakers, ledger and journal in files shared with
// other processes (the command line's among them); WithStateStore in
// Redis, shared by a fleet. WithEventHook and
// WithDebug show what happens; the API key and secret fields never appear.
// All and FollowLogs are iter.Seq2 sequences: All fetches a page only when
// the previous one is used up; FollowLogs yields lines in order, none
// twice, none lost across reconnects. Breaking out of either stops it.
//
// # Testing
//
// Package fibetest runs the Fibe API emulator as a loopback server with
// the platform's faults on demand (lost answers, 5xx, resets, 429s,
// outages of one marquee, expiring log sessions), so that a program's
// tests can show what it does under each:
//
//	srv := fibetest.NewServer(fibetest.WithChaos("commit-then-502=1"))
//	defer srv.Close()
//	c := srv.Client()
//	// ... srv.Stats().Creates["pr-42"] == 1
package fibe
