// Package cmdutil is what every fibe command shares: the Factory's shape
// (what it hands a command: its IOStreams, its resolved configuration, a
// lazily built API client; cmd/factory wires it), plus the flag helpers
// for mutations (--idempotency-key) and async operations (--no-wait,
// --wait-timeout, --poll-interval) and the code that waits on an async
// operation with progress and prints its outcome.
//
// Commands follow one shape: an options struct filled by flags, and a run
// function that takes it. The options hold narrow seams (Seams: the
// streams, a client constructor, the configuration), not the Factory, so
// tests call run directly with test IOStreams and a client for the
// emulator, or drive the real binary.
//
// The verbs every resource has are specs here: ListSpec, GetSpec,
// CreateSpec (with Field rows for the body flags), UpdateSpec and
// DeleteSpec. A resource package holds its tables and cards and only what
// is its own.
package cmdutil
