// Package cmd is the fibe command tree: the root command with the global
// flags, the wiring of every subcommand, and Main, which runs the tree and
// turns its outcome into an exit code.
//
// Main installs a context that is cancelled on SIGINT or SIGTERM, so an
// interrupted request ends as a CANCELLED error (exit 130) that still knows
// the idempotency key of the mutation and the id of an accepted operation;
// the error printer turns those into the exact command to retry or resume.
// A second Ctrl-C is not caught and ends the process at once.
package cmd
