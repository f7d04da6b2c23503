// Command bench measures what the reliability contract is for: a fleet of
// clients that stays gentle with a sick host, and mutations whose outcome is
// knowable. It runs each scenario against the local emulator on 127.0.0.1
// and compares three clients side by side:
//
//   - naive: retries anything, sleeps a fixed second between attempts, and
//     builds a new request without an idempotency key every time;
//   - retryablehttp: hashicorp/go-retryablehttp with its defaults;
//   - fibe: the project's own client, with the contract's default policy.
//
// Every number about load is counted on the server side: a thin handler in
// front of the emulator records the arrival time and status of every API
// request, so rates and outage windows do not depend on what a client says
// about itself. Client-side records are used only for what only the client
// knows (when a read first succeeded, which key a failure named).
//
// Results are printed as markdown and written to bench/results/<scenario>.md
// with the machine, the date and the parameters. The -short flag scales
// counts and durations down so the whole suite runs in seconds; it exists to
// keep the benchmark working in CI and its numbers are not meant to be read
// against the targets.
package main
