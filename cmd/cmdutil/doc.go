// Package cmdutil is what every fibe command shares: the Factory that hands
// a command its IOStreams, its resolved configuration and a lazily built API
// client, plus the flag helpers for mutations (--idempotency-key) and async
// operations (--no-wait, --wait-timeout, --poll-interval) and the code that
// waits on an async operation with progress and prints its outcome.
//
// Commands follow one shape: an options struct filled by flags, and a run
// function that takes it. Tests call run directly with a Factory built on
// test IOStreams, or drive the real binary.
package cmdutil
