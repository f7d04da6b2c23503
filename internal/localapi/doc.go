// Package localapi is a local emulator of the Fibe API, the platform that
// runs preview environments ("playgrounds") on hosts ("marquees"). It lets
// the CLI, its tests and its users work without an account or a network,
// and lets them provoke failures they could not provoke on the real
// platform, as stripe-mock and LocalStack do for their APIs.
//
// It is served two ways. Server.Handler is a real HTTP handler (the
// `fibe local serve` command puts it on a socket), with state in memory or,
// when Config.StatePath is set, in a file. NewTransport is an
// http.RoundTripper that runs the same handler in-process for
// `--api-url local`; its state is a JSON file locked with flock(2) for each
// request's whole read-handle-write cycle and replaced atomically, so
// separate processes share playgrounds without corrupting them. No lock is
// held across an injected delay or hang.
//
// # Behaviour
//
// The emulator speaks the wire format of docs/api.md: the error envelope,
// list envelopes with page/per_page/total, resources addressed by id or by
// name, 202 answers with request_id, status and status_url. Lists apply
// every documented filter (q, name, status, created_after, created_before,
// sort, and playspec_id and marquee_id for playgrounds) before paging; a
// filter value that cannot match is a 422 naming the parameter, never
// ignored (filters.go). Anything it does not serve is a 404
// RESOURCE_NOT_FOUND envelope. Async results carry the result under
// "result"; with Config.LegacyAsync they are at the top level of the poll
// body, as older servers and the public Go SDK expect. Work progresses
// with wall time: every stored operation records when it starts and ends,
// and each request first applies whatever has come due. An operation
// started by one process is therefore seen finished by the next. Config.Speed
// divides every platform duration (provisioning about 3 s, a rollout about
// 3 s, a short queue before each operation); it does not scale chaos
// durations or the rate-limit window, which are given explicitly.
//
// Deleting a playground with containers up (running, creating, building,
// stopping, ...) answers 202: the teardown is an operation of about 2 s
// during which the playground shows status stopping, actions, updates and
// extensions get 409 operation_in_progress, another DELETE answers the
// same handle, and an action still pending is superseded (it ends in error,
// CONFLICT). When the teardown succeeds the playground is gone (404) and the
// result is {"id", "name", "deleted": true}. A playground already stopped,
// in error or failed is deleted at once with 204. With Config.AsyncCreate a
// create also answers 202, and its operation's result is the playground as
// the 201 body would have shown it; provisioning then goes on as usual.
//
// Seed data: marquees local and prod-eu (funded) and unpaid (paid_until in
// the past, so billing_runtime_active is false and work on it answers 402
// MARQUEE_NOT_FUNDED); playspecs web and broken (GET /api/playspecs), each
// player's own. The one user (GET /api/me) has every scope the emulator serves. A rollout of a broken playground fails at step build with reason
// image_pull_failed (its web image is on a private registry it has no
// credential for) and leaves the playground in error with its state
// reasons, error step, build statuses and failure diagnostics.
//
// Mutations with an Idempotency-Key are cached per (API key, key) for 24
// hours and successful answers are replayed byte for byte with
// X-Idempotent-Replayed: true. Every answer carries X-Request-Id and the
// X-RateLimit-* headers; each key has a fixed window of Config.RateLimit
// requests. GET /_local/stats and POST /_local/chaos (both with the key)
// expose counters and change faults at run time.
//
// # Chaos specs
//
// docs/emulator.md says all of this for users: every fault, every profile
// with its spec (a test holds that page to the profiles below), what
// Config.Speed scales, the seed data and /_local/*.
//
// Faults come from a random generator seeded with Config.Seed, so a seed
// reproduces a run. A spec is a comma-separated list of items:
//
//	spec    = item { "," item }
//	item    = profile | key "=" value
//	profile = "flaky" | "outage" | "hostile" | "off"
//
//	503=P  500=P  502=P  504=P  429=P   answer that error instead (P in [0,1])
//	reset=P                             close the connection without answering
//	panic=P                             make the handler panic (a 500 envelope)
//	commit-then-502=P                   do the mutation, then answer a proxy's 502
//	commit-then-reset=P                 do the mutation, then drop the connection
//	commit-then-hang=P[:DUR]            do the mutation, then answer only after DUR
//	                                    (35s); the key is "in flight" meanwhile
//	latency=P[:DUR]                     wait DUR (1s) before handling
//	outage=marquee/NAME@START+LEN       503 or reset for every request about
//	                                    that marquee or its playgrounds from
//	                                    START to START+LEN after the spec was set
//	cable-expire=once|P  cable-expire-burst=N  cable-drop=P|@DUR
//	cable-reject=P  cable-noping=1      faults of the /cable log streams
//	device-slow-down=N                  answer the first N polls of every
//	                                    device login code with slow_down
//
// For example:
//
//	503=0.2,reset=0.05,commit-then-502=0.1,commit-then-hang=0.05:35s,latency=0.1:2s,outage=marquee/prod-eu@10s+30s
//
// The error and commit faults share one roll per request, so their
// probabilities add up to at most 1; commit faults apply to mutations only.
// Faults apply to /api; /_local and /cable (which has its own) are exempt.
package localapi
